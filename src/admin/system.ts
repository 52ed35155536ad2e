import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { forgetContentVersion } from "../catalogue/snapshot";
import { isDevelopment } from "../env";
import { loadDemoFixture } from "../fixture/load";
import { rotateSigningKey } from "../identity/signing-keys";
import { listAudit } from "../storage/admin-audit";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { notFound, Timestamp } from "./openapi";
import { operations } from "./operation";

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
  before: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .openapi({ param: { name: "before", in: "query" }, description: "Entries older than this ID." }),
  target: z
    .string()
    .max(2048)
    .optional()
    .openapi({ param: { name: "target", in: "query" } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .openapi({ param: { name: "limit", in: "query" } }),
});

const AuditPage = z.object({ entries: z.array(AuditEntry), next: z.number().int().optional() });
const RotatedKey = z.object({ kid: z.string() });
const FixtureLoaded = z.object({ loaded: z.boolean() });

export function systemRoutes(app: OpenAPIHono<AdminEnv>): void {
  operations(app, "Audit")(
    {
      method: "get",
      path: "/audit",
      query: AuditQuery,
      summary: "Changes made through the operator API and the console, newest first",
      description: "A page of entries.",
      schema: AuditPage,
    },
    async (c, { query: { before, target, limit } }) => {
      const entries = await listAudit(c.env.DB, { beforeId: before, target, limit });
      const next = entries.length === limit ? entries[entries.length - 1]!.id : undefined;
      return { entries, ...(next ? { next } : {}) };
    },
  );

  operations(app, "Realm")(
    {
      method: "post",
      path: "/signing-keys/rotate",
      status: 201,
      summary: "Sign with a new realm key; the old one stays published until its tokens expire",
      description: "The new key's ID.",
      schema: RotatedKey,
    },
    async (c) => {
      const kid = await rotateSigningKey(c.env, (newKid) => [audit(c, "signing_key.rotate", newKid)]);
      return { kid };
    },
  );

  operations(app, "Development")(
    {
      method: "post",
      path: "/fixture",
      summary: "Development only: load the demo fixture into an empty database",
      description: "Already present.",
      alsoAnswers: { 201: "Loaded." },
      schema: FixtureLoaded,
    },
    async (c) => {
      // The demo fixture carries well-known credentials: it can never be loaded outside development.
      if (!isDevelopment(c.env)) return notFound(c, "demo fixture outside development");
      const loaded = await loadDemoFixture(c.env);
      forgetContentVersion();
      return loaded ? c.json({ loaded }, 201) : { loaded };
    },
  );
}
