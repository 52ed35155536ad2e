import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  ApiKeyCreate,
  ApiKeyPatch,
  changeApiKeyTerms,
  findApiKey,
  issueApiKey,
  overQuotaMessage,
  revokeApiKey,
  type KeyChangeOutcome,
  type OverQuota,
} from "../catalogue/api-keys";
import { listApiKeys, type ApiKeyListing } from "../storage/api-keys";
import type { AdminEnv } from "./auth";
import { adminError, IdParam, OrganizationId, Timestamp } from "./openapi";
import { resource } from "./operation";

const ApiKey = z
  .object({
    id: z.string().openapi({ example: "key_3f9a1c2b7d4e" }),
    partner: z.string(),
    hourlyLimit: z.number().int(),
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    organizationId: OrganizationId.nullable().openapi({
      description: "The organization whose administrators manage the key in the console; null: the operator's alone.",
    }),
    createdAt: Timestamp,
  })
  .openapi("ApiKey");
const ApiKeyWithSecret = ApiKey.extend({
  key: z.string().openapi({ description: "The key itself, shown once: only its SHA-256 is stored." }),
}).openapi("ApiKeyWithSecret");

const ApiKeyIssue = ApiKeyCreate.extend({
  organizationId: OrganizationId.optional().openapi({
    description: "Issue the key for this organization; the operator's alone when omitted.",
  }),
});

const view = (row: ApiKeyListing) => ({
  id: row.id,
  partner: row.partner,
  hourlyLimit: row.hourly_limit,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  organizationId: row.organization_id,
  createdAt: row.created_at,
});

const operatorOf = (c: Context<AdminEnv>) => ({ name: c.get("operator") });

/** 409: the change would pass the organization's quota; the operator raises it with PATCH /organizations/{id}. */
const overQuota = (c: Context<AdminEnv>, outcome: OverQuota) =>
  adminError(c, 409, `The hourly limit ${overQuotaMessage(outcome)}. Raise the organization's apiKeyQuota first; nothing was changed.`, [
    { field: "hourlyLimit", message: overQuotaMessage(outcome) },
  ]);

export function apiKeyRoutes(app: OpenAPIHono<AdminEnv>): void {
  const keys = resource(app, {
    tag: "API keys",
    path: "/api-keys",
    noun: "API key",
    params: IdParam,
    item: ApiKey,
    load: (c, { params }) => findApiKey(c.env.DB, params.id),
    view,
  });

  const answer = (c: Context<AdminEnv>, outcome: KeyChangeOutcome, refusal: (at: string) => string) =>
    outcome.outcome === "saved"
      ? view(outcome.key)
      : outcome.outcome === "over_quota"
        ? overQuota(c, outcome)
        : adminError(c, 409, refusal(outcome.revokedAt));

  keys.list("apiKeys", { summary: "List content API keys (never the keys themselves)", description: "Newest first." }, (c) =>
    listApiKeys(c.env.DB),
  );
  keys.get("One API key", "The key's record.");

  keys.create(
    {
      summary: "Issue an API key for a partner; the key is shown once",
      description: "Issued.",
      body: ApiKeyIssue,
      schema: ApiKeyWithSecret,
    },
    async (c, { organizationId, ...input }) => {
      const issued = await issueApiKey(c.env.DB, input, organizationId ?? null, operatorOf(c));
      if (issued.outcome === "no_organization")
        return adminError(c, 400, `No organization ${organizationId}.`, [
          { field: "organizationId", message: `no organization ${organizationId}` },
        ]);
      if (issued.outcome === "over_quota") return overQuota(c, issued);
      return { ...view(issued.key), key: issued.secret };
    },
  );

  keys.on(
    {
      method: "patch",
      body: ApiKeyPatch,
      summary: "Change an API key's hourly limit or expiry",
      description: "The key's record with its new terms.",
    },
    async (c, row, { body }) =>
      answer(
        c,
        await changeApiKeyTerms(c.env.DB, row, body, operatorOf(c)),
        (at) => `API key ${row.id} was revoked at ${at}; issue a new one.`,
      ),
  );

  keys.on({ method: "post", path: "/revoke", summary: "Revoke an API key", description: "Revoked." }, async (c, row) =>
    answer(c, await revokeApiKey(c.env.DB, row, operatorOf(c)), (at) => `API key ${row.id} was already revoked at ${at}.`),
  );
}
