import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { forgetApiKeys } from "../content/api-key";
import { sha256Hex } from "../crypto/hash";
import { randomId, randomSecret } from "../crypto/random";
import { insertApiKey, listApiKeys, revokeApiKey } from "../storage/api-keys";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, ERRORS, json, jsonBody, notFound, Timestamp } from "./openapi";

export const DEFAULT_HOURLY_LIMIT = 1000;

const ApiKey = z
  .object({
    id: z.string().openapi({ example: "key_3f9a1c2b7d4e" }),
    partner: z.string(),
    hourlyLimit: z.number().int(),
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi("ApiKey");
const ApiKeyWithSecret = ApiKey.extend({
  key: z.string().openapi({ description: "The key itself, shown once: only its SHA-256 is stored." }),
}).openapi("ApiKeyWithSecret");

const ApiKeyCreate = z.strictObject({
  partner: z.string().trim().min(1).max(200),
  hourlyLimit: z.number().int().min(1).max(1_000_000_000).default(DEFAULT_HOURLY_LIMIT),
  expiresAt: z.iso
    .datetime({ offset: true })
    .refine((value) => Date.parse(value) > Date.now(), "must be in the future")
    .optional()
    .openapi({ description: "When the key stops working; never when omitted." }),
});
const IdParam = z.object({ id: z.string().min(1).max(64).openapi({ param: { name: "id", in: "path" } }) });

const tags = ["API keys"];
type KeyRow = Awaited<ReturnType<typeof listApiKeys>>[number];
const view = (row: KeyRow) => ({
  id: row.id,
  partner: row.partner,
  hourlyLimit: row.hourly_limit,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  createdAt: row.created_at,
});

export function apiKeyRoutes(app: OpenAPIHono<AdminEnv>): void {
  const load = async (db: D1Database, id: string) => (await listApiKeys(db, id))[0];

  app.openapi(
    createRoute({ method: "get", path: "/api-keys", tags, summary: "List content API keys (never the keys themselves)", responses: { 200: { description: "Newest first.", content: json(z.object({ apiKeys: z.array(ApiKey) })) }, ...ERRORS } }),
    async (c) => c.json({ apiKeys: (await listApiKeys(c.env.DB)).map(view) }, 200),
  );

  app.openapi(
    createRoute({ method: "get", path: "/api-keys/{id}", tags, summary: "One API key", request: { params: IdParam }, responses: { 200: { description: "The key's record.", content: json(ApiKey) }, ...ERRORS } }),
    async (c) => {
      const row = await load(c.env.DB, c.req.valid("param").id);
      return row ? c.json(view(row), 200) : notFound(c, "such API key");
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/api-keys", tags, summary: "Issue an API key for a partner; the key is shown once", request: jsonBody(ApiKeyCreate), responses: { 201: { description: "Issued.", content: json(ApiKeyWithSecret) }, ...ERRORS } }),
    async (c) => {
      const input = c.req.valid("json");
      // 256 random bits; the prefix lets a leaked key be recognized in logs and secret scanners.
      const key = `hck_${randomSecret()}`;
      const row = {
        id: randomId("key_"),
        partner: input.partner,
        hourly_limit: input.hourlyLimit,
        expires_at: input.expiresAt === undefined ? null : new Date(input.expiresAt).toISOString(),
        revoked_at: null,
        created_at: new Date().toISOString(),
      };
      await c.env.DB.batch([
        insertApiKey(c.env.DB, { ...row, key_hash: await sha256Hex(key) }),
        audit(c, "api_key.create", row.id, { partner: row.partner, hourlyLimit: row.hourly_limit, expiresAt: row.expires_at }),
      ]);
      forgetApiKeys();
      return c.json({ ...view(row), key }, 201);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/api-keys/{id}/revoke", tags, summary: "Revoke an API key", request: { params: IdParam }, responses: { 200: { description: "Revoked.", content: json(ApiKey) }, ...ERRORS } }),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await load(c.env.DB, id);
      if (!row) return notFound(c, "such API key");
      if (row.revoked_at !== null) return adminError(c, 409, `API key ${id} was already revoked at ${row.revoked_at}.`);
      const at = new Date().toISOString();
      await c.env.DB.batch([revokeApiKey(c.env.DB, id, at), audit(c, "api_key.revoke", id, { partner: row.partner })]);
      forgetApiKeys();
      return c.json(view({ ...row, revoked_at: at }), 200);
    },
  );
}
