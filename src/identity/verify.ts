import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWK, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { mcpAudience, realmIssuer, type Env } from "../env";
import { findIdentityClient } from "../storage/identity-clients";
import { publishedJwks, refreshJwks } from "./signing-keys";

/** Who is calling the MCP server: a client and the organization it is provisioned for. */
export interface Principal {
  clientId: string;
  organizationId: string;
  /** Only for tokens of the connector flow: the grant they belong to and the user who made it. */
  grant?: { id: string; userId: string; grantedAt: string };
}

/** A bearer token that must be refused with 401 `invalid_token`; the message says why. */
export class TokenRejected extends Error {}

const ALGORITHMS = ["ES256", "RS256"];
const CLOCK_TOLERANCE_S = 30;
const ORGANIZATION_CACHE_MS = 60_000;
// Unknown kids are attacker-controlled: look the keys up again at most this often, not on every such token.
const JWKS_REFRESH_INTERVAL_MS = 10_000;
let lastJwksRefresh = 0;

const remoteKeySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
// The realm's JWKS array is cached and shared while unchanged; its key set (with imported keys) follows it.
let localKeySet: { keys: JWK[]; verifyWith: ReturnType<typeof createLocalJWKSet> } | undefined;
const organizationCache = new Map<string, { organizationId: string | null; until: number }>();

function remoteKeySet(url: string) {
  let keys = remoteKeySets.get(url);
  if (!keys) remoteKeySets.set(url, (keys = createRemoteJWKSet(new URL(url))));
  return keys;
}

const builtInKeys =
  (env: Env): JWTVerifyGetKey =>
  async (header, input) => {
    let keys = await publishedJwks(env);
    const now = Date.now();
    if (header.kid && !keys.some((k) => k.kid === header.kid) && now - lastJwksRefresh >= JWKS_REFRESH_INTERVAL_MS) {
      // A key rotated in on another isolate: look once more before refusing.
      lastJwksRefresh = now;
      refreshJwks();
      keys = await publishedJwks(env);
    }
    if (localKeySet?.keys !== keys) localKeySet = { keys, verifyWith: createLocalJWKSet({ keys }) };
    return localKeySet.verifyWith(header, input);
  };

function describeFailure(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "The access token has expired.";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "The access token was issued for another audience.";
    if (error.claim === "iss") return "The access token was issued by an untrusted issuer.";
    if (error.claim === "nbf") return "The access token is not valid yet.";
    return `The access token's ${error.claim} claim is invalid.`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "The access token's signing algorithm is not accepted.";
  if (error instanceof errors.JWKSNoMatchingKey) return "The access token was signed with an unknown key.";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "The access token's signature is invalid.";
  return "The access token is malformed.";
}

/** The organization a realm client is provisioned for (cached per isolate for up to 60 s). */
export async function clientOrganization(env: Env, clientId: string, now = Date.now()): Promise<string | null> {
  const cached = organizationCache.get(clientId);
  if (cached && cached.until > now) return cached.organizationId;
  const organizationId = (await findIdentityClient(env.DB, clientId))?.organization_id ?? null;
  organizationCache.set(clientId, { organizationId, until: now + ORGANIZATION_CACHE_MS });
  return organizationId;
}

const clientIdClaim = (payload: JWTPayload): unknown => payload.client_id ?? payload.clientId ?? payload.azp;

/**
 * Verifies a bearer token from the built-in realm or the configured external issuer: signature,
 * algorithm, `iss`, `aud`, `exp` and `nbf` (30 s leeway), then maps its client to an organization.
 */
export async function verifyAccessToken(env: Env, requestUrl: string, token: string): Promise<Principal> {
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    throw new TokenRejected("The access token is malformed.");
  }
  const builtIn = realmIssuer(env, requestUrl);
  const external = env.OIDC_ISSUER && env.OIDC_JWKS_URL ? env.OIDC_ISSUER : undefined;
  // Pinning the issuer before verifying decides which keys may vouch for the token.
  if (typeof issuer !== "string" || (issuer !== builtIn && issuer !== external)) {
    throw new TokenRejected("The access token was issued by an untrusted issuer.");
  }

  let payload: JWTPayload;
  try {
    const options = { issuer, audience: mcpAudience(env), algorithms: ALGORITHMS, clockTolerance: CLOCK_TOLERANCE_S };
    ({ payload } =
      issuer === external && env.OIDC_JWKS_URL
        ? await jwtVerify(token, remoteKeySet(env.OIDC_JWKS_URL), options)
        : await jwtVerify(token, builtInKeys(env), options));
  } catch (error) {
    throw new TokenRejected(describeFailure(error));
  }

  const clientId = clientIdClaim(payload);
  if (typeof clientId !== "string" || clientId === "") throw new TokenRejected("The access token carries no client_id claim.");
  const organizationId = await clientOrganization(env, clientId);
  if (!organizationId) throw new TokenRejected(`The client ${clientId} has no organization scope.`);
  return { clientId, organizationId };
}
