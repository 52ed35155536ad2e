import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { forgetContentVersion } from "../catalogue/snapshot";
import { isDevelopment } from "../env";
import { loadDemoFixture } from "../fixture/load";
import { rotateSigningKey } from "../identity/signing-keys";
import { listAudit } from "../storage/admin-audit";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { ERRORS, json, notFound, Timestamp } from "./openapi";

const AuditEntry = z
  .object({
    id: z.number().int(),
    at: Timestamp,
    actor: z.string().openapi({ description: "Fingerprint of the operator token (first 8 bytes of its SHA-256)." }),
    action: z.string().openapi({ example: "api_key.revoke" }),
    target: z.string(),
    detail: z.unknown(),
  })
  .openapi("AuditEntry");
const AuditQuery = z.object({
  before: z.coerce.number().int().min(1).optional().openapi({ param: { name: "before", in: "query" }, description: "Entries older than this ID." }),
  target: z.string().max(2048).optional().openapi({ param: { name: "target", in: "query" } }),
  limit: z.coerce.number().int().min(1).max(500).default(50).openapi({ param: { name: "limit", in: "query" } }),
});

export function systemRoutes(app: OpenAPIHono<AdminEnv>): void {
  app.openapi(
    createRoute({ method: "get", path: "/audit", tags: ["Audit"], summary: "Changes made through the operator API, newest first", request: { query: AuditQuery }, responses: { 200: { description: "A page of entries.", content: json(z.object({ entries: z.array(AuditEntry), next: z.number().int().optional() })) }, ...ERRORS } }),
    async (c) => {
      const { before, target, limit } = c.req.valid("query");
      const entries = await listAudit(c.env.DB, { beforeId: before, target, limit });
      const next = entries.length === limit ? entries[entries.length - 1]!.id : undefined;
      return c.json({ entries, ...(next ? { next } : {}) }, 200);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/signing-keys/rotate", tags: ["Realm"], summary: "Sign with a new realm key; the old one stays published until its tokens expire", responses: { 201: { description: "The new key's ID.", content: json(z.object({ kid: z.string() })) }, ...ERRORS } }),
    async (c) => {
      const kid = await rotateSigningKey(c.env);
      await audit(c, "signing_key.rotate", kid).run();
      return c.json({ kid }, 201);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/fixture", tags: ["Development"], summary: "Development only: load the demo fixture into an empty database", responses: { 200: { description: "Already present.", content: json(z.object({ loaded: z.boolean() })) }, 201: { description: "Loaded.", content: json(z.object({ loaded: z.boolean() })) }, ...ERRORS } }),
    async (c) => {
      // The demo fixture carries well-known credentials: it can never be loaded outside development.
      if (!isDevelopment(c.env)) return notFound(c, "demo fixture outside development");
      const loaded = await loadDemoFixture(c.env);
      forgetContentVersion();
      return loaded ? c.json({ loaded }, 201) : c.json({ loaded }, 200);
    },
  );
}
