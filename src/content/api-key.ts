import { createMiddleware } from "hono/factory";
import { RefreshingCache } from "../cache/refreshing-cache";
import { sha256Hex } from "../crypto/hash";
import type { Env } from "../env";
import { apiKeyByHashStatement, type ApiKeyRow } from "../storage/api-keys";
import { contentError, requestPath } from "./errors";

export type ContentEnv = {
  Bindings: Env;
  Variables: { apiKey: ApiKeyRow };
};

const AUTH_SCHEME = /^(?:ApiKey|Bearer)\s+(\S+)\s*$/i;

/** The key a partner sent: `X-API-Key`, else `Authorization: ApiKey <key>` or `Authorization: Bearer <key>`. */
export function presentedApiKey(headers: Headers): string | null {
  const direct = headers.get("X-API-Key")?.trim();
  if (direct) return direct;
  return AUTH_SCHEME.exec(headers.get("Authorization") ?? "")?.[1] ?? null;
}

/**
 * What D1 says of a key hash (its row, or null when no key has it), per isolate: at most 4 s old,
 * reloaded in the background after 2 s, so a partner's steady traffic never waits for it. A revoked
 * key is therefore refused within 4 s everywhere (at once in the isolate that revoked it); an expiry
 * is checked on every request; a key sent before it was created works within 4 s of its creation.
 * Unknown keys are remembered like known ones, so a repeated made-up key costs no D1 query either.
 */
export const API_KEY_MAX_AGE_MS = 4_000;
const apiKeys = new RefreshingCache<ApiKeyRow | null>(API_KEY_MAX_AGE_MS / 2, API_KEY_MAX_AGE_MS, 10_000);

/** Forgets every key this isolate remembers: a key changed through the operator API here is seen at once. */
export const forgetApiKeys = (): void => apiKeys.clear();

const unauthorized = (message: string, path: string) =>
  contentError(401, message, path, { "WWW-Authenticate": 'ApiKey header="X-API-Key"' });

/** Resolves the API key; requests without a valid key stop here, so they are never counted against any limit. */
export const apiKeyAuth = createMiddleware<ContentEnv>(async (c, next) => {
  const path = requestPath(c.req.raw);
  const key = presentedApiKey(c.req.raw.headers);
  if (!key) {
    return unauthorized("An API key is required: send it as X-API-Key or as Authorization: ApiKey <key>.", path);
  }
  const keyHash = await sha256Hex(key);
  const row = await apiKeys.get(
    keyHash,
    () => apiKeyByHashStatement(c.env.DB, keyHash).first<ApiKeyRow>(),
    (p) => c.executionCtx.waitUntil(p),
  );
  if (!row) return unauthorized("The API key is not valid.", path);
  if (row.revoked_at !== null) return unauthorized("The API key has been revoked.", path);
  // Written as "not after now", so an expiry that does not parse (NaN) makes the key invalid, never eternal.
  if (row.expires_at !== null && !(Date.parse(row.expires_at) > Date.now())) {
    return unauthorized("The API key has expired.", path);
  }
  c.set("apiKey", row);
  await next();
});
