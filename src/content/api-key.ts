import { createMiddleware } from "hono/factory";
import { ExpiringCache } from "../cache/expiring-cache";
import { sha256Hex } from "../crypto/hash";
import type { Env } from "../env";
import { apiKeyByHashStatement, type ApiKeyRow } from "../storage/api-keys";
import { contentVersionStatement, readContentVersion, versionTag, type ContentVersion } from "../storage/content-version";
import { contentError, requestPath } from "./errors";

export type ContentEnv = {
  Bindings: Env;
  Variables: { apiKey: ApiKeyRow; contentVersion: string };
};

const AUTH_SCHEME = /^(?:ApiKey|Bearer)\s+(\S+)\s*$/i;

/** The key a partner sent: `X-API-Key`, else `Authorization: ApiKey <key>` or `Authorization: Bearer <key>`. */
export function presentedApiKey(headers: Headers): string | null {
  const direct = headers.get("X-API-Key")?.trim();
  if (direct) return direct;
  return AUTH_SCHEME.exec(headers.get("Authorization") ?? "")?.[1] ?? null;
}

/**
 * Hashes of keys D1 did not know, remembered for 10 s so that a client repeating a made-up or mistyped
 * key costs no D1 query. A key is random and created before anyone sends it, so this delays nothing
 * in practice; at worst a key sent before it was created works 10 s later (README).
 */
export const UNKNOWN_API_KEY_CACHE_MS = 10_000;
const unknownApiKeys = new ExpiringCache<true>(UNKNOWN_API_KEY_CACHE_MS, 10_000);

const unauthorized = (message: string, path: string) =>
  contentError(401, message, path, { "WWW-Authenticate": 'ApiKey header="X-API-Key"' });

/**
 * Resolves the API key and, in the same D1 round trip, the content version that keys the cache.
 * Requests without a valid key stop here, so they are never counted against any limit.
 */
export const apiKeyAuth = createMiddleware<ContentEnv>(async (c, next) => {
  const path = requestPath(c.req.raw);
  const key = presentedApiKey(c.req.raw.headers);
  if (!key) {
    return unauthorized("An API key is required: send it as X-API-Key or as Authorization: ApiKey <key>.", path);
  }
  const keyHash = await sha256Hex(key);
  if (unknownApiKeys.get(keyHash)) return unauthorized("The API key is not valid.", path);
  const db = c.env.DB;
  const [keyResult, versionResult] = await db.batch([apiKeyByHashStatement(db, keyHash), contentVersionStatement(db)]);
  const row = (keyResult as D1Result<ApiKeyRow>).results[0];
  if (!row) {
    unknownApiKeys.set(keyHash, true);
    return unauthorized("The API key is not valid.", path);
  }
  if (row.revoked_at !== null) return unauthorized("The API key has been revoked.", path);
  // Written as "not after now", so an expiry that does not parse (NaN) makes the key invalid, never eternal.
  if (row.expires_at !== null && !(Date.parse(row.expires_at) > Date.now())) {
    return unauthorized("The API key has expired.", path);
  }
  c.set("apiKey", row);
  c.set("contentVersion", versionTag(readContentVersion(versionResult as D1Result<ContentVersion>)));
  await next();
});
