import { z } from "@hono/zod-openapi";
import { RefreshingCache } from "../cache/refreshing-cache";
import { sha256Hex } from "../crypto/hash";
import { randomId, randomSecret } from "../crypto/random";
import type { Env } from "../env";
import { counterNames, usedThisHour } from "../rate-limit/rate-counter";
import { insertAudit } from "../storage/admin-audit";
import {
  apiKeyByHashStatement,
  apiKeyQuotaOf,
  withinApiKeyQuota,
  insertApiKey,
  listApiKeys,
  revokeApiKey as revokeApiKeyRow,
  updateApiKeyTerms,
  type ApiKeyListing,
  type ApiKeyRow,
} from "../storage/api-keys";
import { findOrganization } from "../storage/organizations";
import type { Actor } from "./people";

/**
 * Partners' content API keys: issue, change terms, revoke, and what each used this hour. The operator API
 * (admin/api-keys.ts) and the console's access page (console/keys.tsx) both call these, so a change from either is
 * checked and audited the same way, in one D1 batch with its audit row. A key may belong to an organization, whose
 * administrators then manage it; `organizationId` in a lookup limits it to that organization's keys (another
 * organization's key is "not found", exactly as one that does not exist). The operator passes none and reaches all.
 * An organization's keys add up to at most its quota, which only the operator sets (admin/organizations.ts): a
 * change past it is refused from the console and the operator API alike, and writes nothing.
 */

export const DEFAULT_HOURLY_LIMIT = 1000;
const MAX_HOURLY_LIMIT = 1_000_000_000;

const limitMessage = `must be a whole number from 1 to ${MAX_HOURLY_LIMIT.toLocaleString("en")}`;
const HourlyLimit = z
  .number({ error: limitMessage })
  .int(limitMessage)
  .min(1, limitMessage)
  .max(MAX_HOURLY_LIMIT, limitMessage)
  .openapi({ description: "Requests per UTC clock hour." });
const FutureTime = z.iso
  .datetime({ offset: true, error: "must be a date and time, like 2027-01-31T00:00:00Z" })
  .refine((value) => Date.parse(value) > Date.now(), "must be in the future");

/** The messages read "<field label> <message>." in the console and "<field> <message>." in the operator API. */
export const ApiKeyCreate = z.strictObject({
  partner: z.string().trim().min(1, "is needed").max(200, "is too long (200 characters at most)"),
  hourlyLimit: HourlyLimit.default(DEFAULT_HOURLY_LIMIT),
  expiresAt: FutureTime.optional().openapi({ description: "When the key stops working, a time in the future; never when omitted." }),
});
export type ApiKeyCreateInput = z.output<typeof ApiKeyCreate>;

export const ApiKeyPatch = z
  .strictObject({
    hourlyLimit: HourlyLimit.optional(),
    expiresAt: FutureTime.nullable().optional().openapi({ description: "When the key stops working, a time in the future; null: never." }),
  })
  .refine((patch) => patch.hourlyLimit !== undefined || patch.expiresAt !== undefined, "give hourlyLimit, expiresAt or both")
  .openapi({ anyOf: [{ required: ["hourlyLimit"] }, { required: ["expiresAt"] }] });
export type ApiKeyPatchInput = z.output<typeof ApiKeyPatch>;

/**
 * What D1 says of a key hash (its row, or null when no key has it), per isolate: at most 4 s old,
 * reloaded in the background after 2 s, so a partner's steady traffic never waits for it. A revoked
 * key is therefore refused within 4 s everywhere (at once in the isolate that revoked it); an expiry
 * is checked on every request; a key sent before it was created works within 4 s of its creation.
 * Unknown keys are remembered like known ones, so a repeated made-up key costs no D1 query either.
 */
export const API_KEY_MAX_AGE_MS = 4_000;
const knownKeys = new RefreshingCache<ApiKeyRow | null>(API_KEY_MAX_AGE_MS / 2, API_KEY_MAX_AGE_MS, 10_000);

/** The stored key with this hash, or null. */
export const apiKeyByHash = (db: D1Database, keyHash: string, waitUntil: (promise: Promise<unknown>) => void) =>
  knownKeys.get(keyHash, () => apiKeyByHashStatement(db, keyHash).first<ApiKeyRow>(), waitUntil);

/** Forgets every key this isolate remembers: a key changed here is seen at once in this isolate. */
const forgetApiKeys = (): void => knownKeys.clear();

const audit = (db: D1Database, actor: Actor, action: string, key: Pick<ApiKeyListing, "id" | "organization_id">, detail: object) =>
  insertAudit(db, {
    at: new Date().toISOString(),
    actor: actor.name,
    action,
    target: key.id,
    detail: { ...(key.organization_id === null ? {} : { organizationId: key.organization_id }), ...detail },
  });

/** One key, or null when there is none (in `organizationId`, when given). */
export async function findApiKey(db: D1Database, id: string, organizationId?: string): Promise<ApiKeyListing | null> {
  const [row] = await listApiKeys(db, { id });
  return row && (organizationId === undefined || row.organization_id === organizationId) ? row : null;
}

/** An organization's keys would add up to more than its quota: what they add up to without the change, and the quota. */
export type OverQuota = { outcome: "over_quota"; used: number; quota: number };

export type IssueOutcome = { outcome: "issued"; key: ApiKeyListing; secret: string } | { outcome: "no_organization" } | OverQuota;

/** What a key adds to its organization's total now: its hourly limit while it is neither revoked nor expired. */
const countedLimit = (hourlyLimit: number, expiresAt: string | null, revokedAt: string | null): number =>
  revokedAt === null && (expiresAt === null || expiresAt > new Date().toISOString()) ? hourlyLimit : 0;

/**
 * Runs `writes` with the quota check of `organizationId` (none: no check) last in the same batch: nothing is written when the
 * organization's keys would then add up to more than its quota. The writes make a key of `limit` requests an hour
 * count (a key issued, or `replaced` with new terms); a refusal reports what the others add up to.
 */
async function withinQuota(
  db: D1Database,
  organizationId: string | null,
  writes: D1PreparedStatement[],
  limit: number,
  replaced?: ApiKeyListing,
): Promise<OverQuota | null> {
  if (organizationId === null) {
    await db.batch(writes);
    return null;
  }
  const now = new Date().toISOString();
  try {
    await db.batch([...writes, withinApiKeyQuota(db, organizationId, now)]);
    return null;
  } catch (error) {
    // The batch wrote nothing; whether the quota refused it is read again rather than from D1's message.
    const state = await apiKeyQuotaOf(db, organizationId, now);
    const counted = replaced && replaced.revoked_at === null && (replaced.expires_at === null || replaced.expires_at > now);
    const used = (state?.used ?? 0) - (counted ? replaced.hourly_limit : 0);
    if (!state || used + limit <= state.quota) throw error;
    return { outcome: "over_quota", used, quota: state.quota };
  }
}

/** Issues a key for a partner (of `organizationId`, when given); the key itself is returned once and stored as SHA-256. */
export async function issueApiKey(
  db: D1Database,
  input: ApiKeyCreateInput,
  organizationId: string | null,
  actor: Actor,
): Promise<IssueOutcome> {
  if (organizationId !== null && !(await findOrganization(db, organizationId))) return { outcome: "no_organization" };
  // 256 random bits; the prefix lets a leaked key be recognized in logs and secret scanners.
  const secret = `hck_${randomSecret()}`;
  const key: ApiKeyListing = {
    id: randomId("key_"),
    partner: input.partner,
    hourly_limit: input.hourlyLimit,
    expires_at: input.expiresAt === undefined ? null : new Date(input.expiresAt).toISOString(),
    revoked_at: null,
    organization_id: organizationId,
    created_at: new Date().toISOString(),
  };
  const over = await withinQuota(
    db,
    organizationId,
    [
      insertApiKey(db, { ...key, key_hash: await sha256Hex(secret) }),
      audit(db, actor, "api_key.create", key, { partner: key.partner, hourlyLimit: key.hourly_limit, expiresAt: key.expires_at }),
    ],
    key.hourly_limit,
  );
  if (over) return over;
  forgetApiKeys();
  return { outcome: "issued", key, secret };
}

export type KeyChangeOutcome = { outcome: "saved"; key: ApiKeyListing } | { outcome: "revoked"; revokedAt: string } | OverQuota;

/** Changes a key's hourly limit or expiry; a revoked key keeps its terms. */
export async function changeApiKeyTerms(
  db: D1Database,
  key: ApiKeyListing,
  patch: ApiKeyPatchInput,
  actor: Actor,
): Promise<KeyChangeOutcome> {
  if (key.revoked_at !== null) return { outcome: "revoked", revokedAt: key.revoked_at };
  const hourlyLimit = patch.hourlyLimit ?? key.hourly_limit;
  const expiresAt = patch.expiresAt === undefined ? key.expires_at : patch.expiresAt && new Date(patch.expiresAt).toISOString();
  // Only a change that raises what the organization's keys add up to is checked against its quota: lowering a limit
  // or shortening a key's life is always possible, also for an organization its operator has put over its quota.
  const raises = countedLimit(hourlyLimit, expiresAt, key.revoked_at) > countedLimit(key.hourly_limit, key.expires_at, key.revoked_at);
  const over = await withinQuota(
    db,
    raises ? key.organization_id : null,
    [
      updateApiKeyTerms(db, key.id, hourlyLimit, expiresAt),
      audit(db, actor, "api_key.update", key, {
        hourlyLimit: { from: key.hourly_limit, to: hourlyLimit },
        expiresAt: { from: key.expires_at, to: expiresAt },
      }),
    ],
    hourlyLimit,
    key,
  );
  if (over) return over;
  forgetApiKeys();
  return { outcome: "saved", key: { ...key, hourly_limit: hourlyLimit, expires_at: expiresAt } };
}

/** Revokes a key: refused everywhere within API_KEY_MAX_AGE_MS. */
export async function revokeApiKey(db: D1Database, key: ApiKeyListing, actor: Actor): Promise<Exclude<KeyChangeOutcome, OverQuota>> {
  if (key.revoked_at !== null) return { outcome: "revoked", revokedAt: key.revoked_at };
  const at = new Date().toISOString();
  await db.batch([revokeApiKeyRow(db, key.id, at), audit(db, actor, "api_key.revoke", key, { partner: key.partner })]);
  forgetApiKeys();
  return { outcome: "saved", key: { ...key, revoked_at: at } };
}

export interface ApiKeyUse extends ApiKeyListing {
  /** Requests counted in the current UTC hour; isolates count in blocks of up to 1% of the limit ahead of serving them. */
  used_this_hour: number;
}

/** An organization's keys, newest first, each with its use this hour (one counter read per key). */
export async function apiKeysWithUse(env: Pick<Env, "DB" | "RATE_COUNTER">, organizationId: string): Promise<ApiKeyUse[]> {
  const keys = await listApiKeys(env.DB, { organizationId });
  return Promise.all(
    keys.map(async (key) => ({ ...key, used_this_hour: await usedThisHour(env, counterNames.apiKey(key.id), key.hourly_limit) })),
  );
}

/** A refusal for keys past their organization's quota, in words for the console and the operator API alike. */
export const overQuotaMessage = ({ used, quota }: OverQuota): string =>
  `would take the organization's keys past ${quota.toLocaleString("en")} requests an hour, the most its operator allows; its other keys add up to ${used.toLocaleString("en")}, so this key may have at most ${Math.max(0, quota - used).toLocaleString("en")}`;
