import { ExpiringCache } from "../cache/expiring-cache";
import { sha256Hex } from "../crypto/hash";
import { surfaceOrigin, type Env } from "../env";
import { TokenRejected, type Principal } from "../identity/verify";
import { connectorAccessDenial, type ConnectorProps } from "./access";
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

/** Tokens of the connector flow are `<userId>:<grantId>:<secret>`; realm JWTs never contain a colon. */
export const isConnectorToken = (token: string): boolean => token.split(":").length === 3;

/**
 * Verifies an access token of the connector flow: the provider checks it (stored hash, expiry,
 * audience = one of the MCP resources), then the user and client must still have access.
 */
export async function verifyConnectorToken(env: Env, requestUrl: string, token: string): Promise<Principal> {
  const tokenHash = await sha256Hex(token);
  if (invalidTokens.get(tokenHash)) throw new TokenRejected(INVALID);
  const server = authorizationServer(env, requestUrl);
  let validated = null;
  for (const resource of mcpResources(surfaceOrigin(env.BASE_URL, requestUrl))) {
    validated = await server.validateToken<ConnectorProps>(resource, token, env);
    if (validated) break;
  }
  if (!validated) {
    invalidTokens.set(tokenHash, true);
    throw new TokenRejected(INVALID);
  }
  const props = validated.props;
  const denial = await connectorAccessDenial(env, validated.clientId, props);
  if (denial) throw new TokenRejected(denial);
  return {
    clientId: validated.clientId,
    issuer: CONNECTOR_ISSUER_KEY,
    organizationId: props.organizationId,
    grant: { id: token.split(":")[1]!, userId: props.userId, grantedAt: props.grantedAt },
  };
}
