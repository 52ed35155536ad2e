import type { Grant } from "@cloudflare/workers-oauth-provider";
import { createMiddleware } from "hono/factory";
import { toBase64Url } from "../crypto/base64url";
import { sha256, sha256Hex } from "../crypto/hash";
import type { AppEnv, Env } from "../env";
import { requestForm } from "../http/form-body";
import { oauthError } from "../http/surface-errors";
import { CONNECTOR_REFRESH_TOKEN_TTL_S, oauthHelpers } from "./server";
import { forgetValidatedTokens, providerTokenParts } from "./tokens";

/**
 * Guards in front of the provider's `/token` that end a grant when its codes or refresh tokens are
 * misused (RFC 9700 §2.1.1 and §4.14.2). The provider's grant record (`grant:<user>:<grant>` in
 * OAUTH_KV, its documented `Grant` shape) says which code and refresh tokens are current.
 */

/**
 * How long after a refresh token was rotated the same token may be presented again: the client's
 * retry of a request whose response it lost. After this, or once the successor was used, presenting
 * it again is a replay and revokes the grant.
 */
export const REFRESH_RETRY_GRACE_S = 60;

/** A refresh token that was rotated: its hash, as the provider hashes it, keyed in our own prefix. */
const rotatedKey = (tokenHash: string) => `refresh-rotated:${tokenHash}`;

interface Rotation {
  rotatedAt: number;
}

const readGrant = (env: Env, userId: string, grantId: string) => env.OAUTH_KV.get<Grant>(`grant:${userId}:${grantId}`, "json");

async function revokeGrant(env: Env, requestUrl: string, userId: string, grantId: string, reason: string): Promise<void> {
  await oauthHelpers(env, requestUrl).revokeGrant(grantId, userId);
  forgetValidatedTokens();
  console.warn(JSON.stringify({ event: "connector_grant_revoked", reason, userId, grantId }));
}

/** A refresh token presented again after its rotation: the grant ends unless it is the client's prompt retry. */
async function refreshReplay(env: Env, requestUrl: string, refreshToken: string): Promise<Response | null> {
  const owner = providerTokenParts(refreshToken);
  if (!owner) return null;
  const tokenHash = await sha256Hex(refreshToken);
  const rotation = await env.OAUTH_KV.get<Rotation>(rotatedKey(tokenHash), "json");
  if (!rotation) return null;
  const grant = await readGrant(env, owner.userId, owner.grantId);
  if (!grant) return null;
  const retry = grant.previousRefreshTokenId === tokenHash && Date.now() - rotation.rotatedAt <= REFRESH_RETRY_GRACE_S * 1000;
  if (retry) return null;
  await revokeGrant(env, requestUrl, owner.userId, owner.grantId, "refresh_token_replayed");
  return oauthError(400, "invalid_grant", "This refresh token was already used, so the grant has been revoked; authorize again.");
}

/** A wrong PKCE verifier ends the code: a code is good for one attempt, whoever makes it. */
async function wrongVerifier(env: Env, requestUrl: string, code: string, verifier: string | null): Promise<Response | null> {
  const owner = providerTokenParts(code);
  if (!owner || verifier === null) return null;
  const grant = await readGrant(env, owner.userId, owner.grantId);
  if (!grant?.codeChallenge || !grant.authCodeWrappedKey || grant.authCodeId !== (await sha256Hex(code))) return null;
  if (toBase64Url(await sha256(verifier)) === grant.codeChallenge) return null;
  await revokeGrant(env, requestUrl, owner.userId, owner.grantId, "code_verifier_mismatch");
  return oauthError(400, "invalid_grant", "Invalid PKCE code_verifier; the authorization code can no longer be used.");
}

/**
 * A code or refresh token that is none of the provider's is refused before the provider splits it into storage keys;
 * a revocation of one revokes nothing, which RFC 7009 §2.2 answers with 200 like any unknown token.
 */
function foreignToken(grantType: string | null, form: URLSearchParams): Response | null {
  const revoked = grantType === null ? form.get("token") : null;
  if (revoked !== null && !providerTokenParts(revoked)) return new Response(null, { status: 200 });
  const field = grantType === "refresh_token" ? "refresh_token" : grantType === "authorization_code" ? "code" : null;
  const token = field && form.get(field);
  if (!field || token === null || providerTokenParts(token)) return null;
  return oauthError(400, "invalid_grant", `The ${field.replace("_", " ")} is not one this server issued.`);
}

/** The replay and PKCE guards, and the record of each rotation the provider makes. */
export const tokenGrantGuards = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== "POST") return next();
  const form = await requestForm(c.req.raw);
  const grantType = form.get("grant_type");
  const foreign = foreignToken(grantType, form);
  if (foreign) return foreign;
  const refreshToken = grantType === "refresh_token" ? form.get("refresh_token") : null;
  const code = grantType === "authorization_code" ? form.get("code") : null;
  const refusal =
    (refreshToken && (await refreshReplay(c.env, c.req.url, refreshToken))) ||
    (code && (await wrongVerifier(c.env, c.req.url, code, form.get("code_verifier"))));
  if (refusal) return refusal;
  await next();
  if (refreshToken && c.res.status === 200) {
    const key = rotatedKey(await sha256Hex(refreshToken));
    // The first rotation is kept: a retry must not extend the grace period.
    if ((await c.env.OAUTH_KV.get(key)) === null) {
      await c.env.OAUTH_KV.put(key, JSON.stringify({ rotatedAt: Date.now() } satisfies Rotation), {
        expirationTtl: CONNECTOR_REFRESH_TOKEN_TTL_S,
      });
    }
  }
});
