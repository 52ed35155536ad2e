import type { ValidatedAccessToken } from "@cloudflare/workers-oauth-provider";
import { ExpiringCache } from "../cache/expiring-cache";
import { sha256Hex } from "../crypto/hash";
import { surfaceOrigin, type Env } from "../env";
import { CLIENT_ID_PATTERN } from "../identity/tokens";
import { TokenRejected, type Principal } from "../identity/verify";
import { CONNECTOR_ACCESS_CACHE_MS, connectorAccessDenial, type ConnectorProps } from "./access";
import { authorizationServer, mcpResources } from "./server";

/** The issuer key of connector-flow principals (their clients live in the provider's store, not in identity_clients). */
export const CONNECTOR_ISSUER_KEY = "connector";

const INVALID = "The access token is invalid, expired or revoked.";
/**
 * Hashes of connector tokens the provider refused, remembered for 10 s: a client repeating a made-up,
 * expired or revoked token costs no storage read. A token is never valid after being refused, except
 * one presented at a location its KV record had not reached yet, which then works 10 s later.
 */
export const INVALID_CONNECTOR_TOKEN_CACHE_MS = 10_000;
const invalidTokens = new ExpiringCache<true>(INVALID_CONNECTOR_TOKEN_CACHE_MS, 10_000);
/**
 * What the provider said of a valid token, remembered for 4 s (never past the token's expiry): a
 * token revoked at the provider stops within that time, like a disabled user or a deleted client.
 */
const validTokens = new ExpiringCache<ValidatedAccessToken<ConnectorProps>>(CONNECTOR_ACCESS_CACHE_MS, 10_000);

/** Access withdrawn through this isolate is refused by it at once; other isolates follow within 4 s. */
export const forgetValidatedTokens = (): void => validTokens.clear();

/** Tokens of the connector flow are `<userId>:<grantId>:<secret>`; realm JWTs never contain a colon. */
export const isConnectorToken = (token: string): boolean => token.split(":").length === 3;

/**
 * The user and grant a token or code of the connector flow names (`<userId>:<grantId>:<secret>`), or null when it is
 * none. The provider looks one up by its parts, in OAUTH_KV keys of at most 512 bytes, so one of more than 255
 * visible characters, like a client ID (ours are under 100), is none of ours and is never looked up.
 */
export function providerTokenParts(token: string): { userId: string; grantId: string } | null {
  if (!CLIENT_ID_PATTERN.test(token)) return null;
  const [userId, grantId, secret, ...rest] = token.split(":");
  return userId && grantId && secret && rest.length === 0 ? { userId, grantId } : null;
}

/**
 * Verifies an access token of the connector flow: the provider checks it (stored hash, expiry,
 * audience = one of the MCP resources), then the user and client must still have access.
 */
export async function verifyConnectorToken(env: Env, requestUrl: string, token: string): Promise<Principal> {
  const parts = providerTokenParts(token);
  if (!parts) throw new TokenRejected(INVALID);
  const origin = surfaceOrigin(env.BASE_URL, requestUrl);
  const tokenHash = `${origin}\n${await sha256Hex(token)}`;
  if (invalidTokens.get(tokenHash)) throw new TokenRejected(INVALID);
  let validated = validTokens.get(tokenHash);
  if (validated && validated.expiresAt * 1000 <= Date.now()) validated = undefined;
  if (!validated) {
    const server = authorizationServer(env, requestUrl);
    for (const resource of mcpResources(origin)) {
      validated = (await server.validateToken<ConnectorProps>(resource, token, env)) ?? undefined;
      if (validated) break;
    }
    if (!validated) {
      invalidTokens.set(tokenHash, true);
      throw new TokenRejected(INVALID);
    }
    validTokens.set(tokenHash, validated);
  }
  const props = validated.props;
  const denial = await connectorAccessDenial(env, validated.clientId, props);
  if (denial) throw new TokenRejected(denial);
  return {
    clientId: validated.clientId,
    issuer: CONNECTOR_ISSUER_KEY,
    organizationId: props.organizationId,
    grant: { id: parts.grantId, userId: props.userId, grantedAt: props.grantedAt },
  };
}
