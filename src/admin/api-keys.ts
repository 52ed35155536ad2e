import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { forgetApiKeys } from "../content/api-key";
import { sha256Hex } from "../crypto/hash";
import { randomId, randomSecret } from "../crypto/random";
import { insertApiKey, listApiKeys, revokeApiKey, updateApiKeyTerms } from "../storage/api-keys";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, IdParam, Timestamp } from "./openapi";
import { resource } from "./operation";

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
    .openapi({ description: "When the key stops working, a time in the future; never when omitted." }),
});

const ApiKeyPatch = z
  .strictObject({
    hourlyLimit: ApiKeyCreate.shape.hourlyLimit.unwrap().optional(),
    expiresAt: z.iso
      .datetime({ offset: true })
      .refine((value) => Date.parse(value) > Date.now(), "must be in the future")
      .nullable()
      .optional()
      .openapi({ description: "When the key stops working, a time in the future; null: never." }),
  })
  .refine((patch) => patch.hourlyLimit !== undefined || patch.expiresAt !== undefined, "give hourlyLimit, expiresAt or both")
  .openapi({ anyOf: [{ required: ["hourlyLimit"] }, { required: ["expiresAt"] }] });

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
  const keys = resource(app, {
    tag: "API keys",
    path: "/api-keys",
    noun: "API key",
    params: IdParam,
    item: ApiKey,
    load: async (c, { params }) => (await listApiKeys(c.env.DB, params.id))[0],
    view,
  });

  keys.list("apiKeys", { summary: "List content API keys (never the keys themselves)", description: "Newest first." }, (c) =>
    listApiKeys(c.env.DB),
  );
  keys.get("One API key", "The key's record.");

  keys.create(
    {
      summary: "Issue an API key for a partner; the key is shown once",
      description: "Issued.",
      body: ApiKeyCreate,
      schema: ApiKeyWithSecret,
    },
    async (c, input) => {
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
      return { ...view(row), key };
    },
  );

  keys.on(
    {
      method: "patch",
      body: ApiKeyPatch,
      summary: "Change an API key's hourly limit or expiry",
      description: "The key's record with its new terms.",
    },
    async (c, row, { body }) => {
      if (row.revoked_at !== null) return adminError(c, 409, `API key ${row.id} was revoked at ${row.revoked_at}; issue a new one.`);
      const hourlyLimit = body.hourlyLimit ?? row.hourly_limit;
      const expiresAt = body.expiresAt === undefined ? row.expires_at : body.expiresAt && new Date(body.expiresAt).toISOString();
      await c.env.DB.batch([
        updateApiKeyTerms(c.env.DB, row.id, hourlyLimit, expiresAt),
        audit(c, "api_key.update", row.id, {
          hourlyLimit: { from: row.hourly_limit, to: hourlyLimit },
          expiresAt: { from: row.expires_at, to: expiresAt },
        }),
      ]);
      forgetApiKeys();
      return view({ ...row, hourly_limit: hourlyLimit, expires_at: expiresAt });
    },
  );

  keys.on({ method: "post", path: "/revoke", summary: "Revoke an API key", description: "Revoked." }, async (c, row) => {
    if (row.revoked_at !== null) return adminError(c, 409, `API key ${row.id} was already revoked at ${row.revoked_at}.`);
    const at = new Date().toISOString();
    await c.env.DB.batch([revokeApiKey(c.env.DB, row.id, at), audit(c, "api_key.revoke", row.id, { partner: row.partner })]);
    forgetApiKeys();
    return view({ ...row, revoked_at: at });
  });
}
