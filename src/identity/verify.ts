import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWK, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { intVar, mcpAudience, realmIssuer, type Env } from "../env";
import { ExpiringCache } from "../cache/expiring-cache";
import { sha256Hex } from "../crypto/hash";
import { REALM_ISSUER_KEY, scopedClientOrganization } from "../storage/identity-clients";
import { publishedJwks, refreshJwks } from "./signing-keys";
import { CLIENT_ID_PATTERN } from "./tokens";

/** Who is calling the MCP server: a client and the organization it is provisioned for. */
export interface Principal {
  clientId: string;
  /** Whose client it is: REALM_ISSUER_KEY, an external issuer's `iss`, or the connector flow's provider. */
  issuer: string;
  organizationId: string;
  /** Only for tokens of the connector flow: the grant they belong to and the user who made it. */
  grant?: { id: string; userId: string; grantedAt: string };
}

/** A bearer token that must be refused with 401 `invalid_token`; the message says why. */
export class TokenRejected extends Error {}

const ALGORITHMS = ["ES256", "RS256"];
const CLOCK_TOLERANCE_S = 30;
const ORGANIZATION_CACHE_MS = 60_000;
const MAX_CACHED_ORGANIZATIONS = 10_000;
const DEFAULT_MAX_TOKEN_LIFETIME_S = 86_400;
// Unknown kids are attacker-controlled: look the keys up again at most this often per issuer, not on every
// such token; per issuer, so a flood of them at one origin cannot delay a rotated key at another.
const JWKS_REFRESH_INTERVAL_MS = 10_000;
const recentJwksRefreshes = new ExpiringCache<true>(JWKS_REFRESH_INTERVAL_MS, 100);

const remoteKeySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
// The realm's JWKS array is cached and shared while unchanged; its key set (with imported keys) follows it.
let localKeySet: { keys: JWK[]; verifyWith: ReturnType<typeof createLocalJWKSet> } | undefined;
/**
 * Tokens this isolate verified (by a hash of the token and the configuration that judged it): a
 * client presenting the same token again is not checked again until the entry's 5 minutes pass,
 * only its expiry. Nothing about a token can change before it expires (its client's organization is
 * looked up every time, from its own cache).
 */
const VERIFIED_TOKEN_CACHE_MS = 300_000;
const verifiedTokens = new ExpiringCache<{ clientId: string; issuerKey: string; exp: number }>(VERIFIED_TOKEN_CACHE_MS, 10_000);

// Client IDs come from tokens anyone may sign at an external issuer: the cache's bound keeps a flood in check.
export const organizationCache = new ExpiringCache<string | null>(ORGANIZATION_CACHE_MS, MAX_CACHED_ORGANIZATIONS);

function remoteKeySet(url: string) {
  let keys = remoteKeySets.get(url);
  if (!keys) remoteKeySets.set(url, (keys = createRemoteJWKSet(new URL(url))));
  return keys;
}

const builtInKeys =
  (env: Env, issuer: string): JWTVerifyGetKey =>
  async (header, input) => {
    let keys = await publishedJwks(env);
    if (header.kid && !keys.some((k) => k.kid === header.kid) && !recentJwksRefreshes.get(issuer)) {
      // A key rotated in on another isolate: look once more before refusing.
      recentJwksRefreshes.set(issuer, true);
      refreshJwks();
      keys = await publishedJwks(env);
    }
    if (localKeySet?.keys !== keys) localKeySet = { keys, verifyWith: createLocalJWKSet({ keys }) };
    return localKeySet.verifyWith(header, input);
  };

function describeFailure(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "The access token has expired.";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === "missing") return `The access token has no ${error.claim} claim.`;
    if (error.claim === "iat") return "The access token's iat claim is in the future.";
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

/**
 * The organization a client of `issuer` (REALM_ISSUER_KEY or the external issuer's `iss`) acts for,
 * or null when it has none or its organization's scope is empty; cached per isolate for up to 60 s.
 */
export async function clientOrganization(env: Env, issuer: string, clientId: string, now = Date.now()): Promise<string | null> {
  const key = `${issuer}\n${clientId}`;
  const cached = organizationCache.get(key, now);
  if (cached !== undefined) return cached;
  const organizationId = await scopedClientOrganization(env.DB, issuer, clientId);
  organizationCache.set(key, organizationId, now);
  return organizationId;
}

const clientIdClaim = (payload: JWTPayload): unknown => payload.client_id ?? payload.clientId ?? payload.azp;

/** The signature and claims of a token of a trusted issuer; what it says of its client. */
async function verifySignedToken(
  env: Env,
  token: string,
  {
    issuer,
    builtIn,
    external,
    audience,
    maxLifetime,
  }: { issuer: string; builtIn: string; external?: string; audience: string; maxLifetime: number },
): Promise<{ clientId: string; issuerKey: string; exp: number }> {
  let payload: JWTPayload;
  try {
    const options = {
      issuer,
      audience,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_S,
      // A token without an end, or minted long ago, is a stolen credential that never stops working.
      requiredClaims: ["exp", "iat"],
      maxTokenAge: maxLifetime,
    };
    ({ payload } =
      issuer === external && env.OIDC_JWKS_URL
        ? await jwtVerify(token, remoteKeySet(env.OIDC_JWKS_URL), options)
        : await jwtVerify(token, builtInKeys(env, issuer), options));
  } catch (error) {
    throw new TokenRejected(describeFailure(error));
  }

  if (payload.exp! - payload.iat! > maxLifetime) {
    throw new TokenRejected(`The access token's lifetime (exp - iat) exceeds ${maxLifetime} s.`);
  }
  const clientId = clientIdClaim(payload);
  if (typeof clientId !== "string" || clientId === "") throw new TokenRejected("The access token carries no client_id claim.");
  if (!CLIENT_ID_PATTERN.test(clientId)) throw new TokenRejected("The access token's client_id is not 1-255 visible characters.");
  // The same client ID at two issuers is two clients: only the pair names a provisioned client.
  return { clientId, issuerKey: issuer === builtIn ? REALM_ISSUER_KEY : issuer, exp: payload.exp! };
}

/**
 * Verifies a bearer token from the built-in realm or the configured external issuer: signature,
 * algorithm, `iss`, `aud`, `exp`, `iat` and `nbf` (30 s leeway), a lifetime (`exp − iat`) within
 * MAX_TOKEN_LIFETIME_SECONDS, then maps the pair (issuer, client) to an organization.
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

  const maxLifetime = intVar(env.MAX_TOKEN_LIFETIME_SECONDS, DEFAULT_MAX_TOKEN_LIFETIME_S);
  const audience = mcpAudience(env);
  const cacheKey = `${issuer}\n${audience}\n${maxLifetime}\n${await sha256Hex(token)}`;
  let verified = verifiedTokens.get(cacheKey);
  if (verified && Date.now() / 1000 > verified.exp + CLOCK_TOLERANCE_S) throw new TokenRejected("The access token has expired.");
  if (!verified) {
    verified = await verifySignedToken(env, token, { issuer, builtIn, external, audience, maxLifetime });
    verifiedTokens.set(cacheKey, verified);
  }
  const { clientId, issuerKey } = verified;
  const organizationId = await clientOrganization(env, issuerKey, clientId);
  if (!organizationId) throw new TokenRejected(`The client ${clientId} has no organization scope.`);
  return { clientId, issuer: issuerKey, organizationId };
}
