import { createMiddleware } from "hono/factory";
import { apiKeyByHash } from "../catalogue/api-keys";
import { sha256Hex } from "../crypto/hash";
import type { Env } from "../env";
import type { ApiKeyRow } from "../storage/api-keys";
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
  const row = await apiKeyByHash(c.env.DB, keyHash, (p) => c.executionCtx.waitUntil(p));
  if (!row) return unauthorized("The API key is not valid.", path);
  if (row.revoked_at !== null) return unauthorized("The API key has been revoked.", path);
  // Written as "not after now", so an expiry that does not parse (NaN) makes the key invalid, never eternal.
  if (row.expires_at !== null && !(Date.parse(row.expires_at) > Date.now())) {
    return unauthorized("The API key has expired.", path);
  }
  c.set("apiKey", row);
  await next();
});
