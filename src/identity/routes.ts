import { Hono, type Context } from "hono";
import { z } from "zod";
import { constantTimeEqual, sha256Hex } from "../crypto/hash";
import { DEFAULT_REALM, realmIssuer, type AppEnv } from "../env";
import { publicCors } from "../http/public-cors";
import { basicCredentials } from "../http/basic-credentials";
import { oauthError } from "../http/surface-errors";
import { addressTokenLimit, clientTokenRefusal, countIssuedToken, countTokenFailure, tokenBodyLimit } from "../rate-limit/token-requests";
import { findIdentityClient, REALM_ISSUER_KEY } from "../storage/identity-clients";
import { publishedJwks, SIGNING_ALG } from "./signing-keys";
import { CLIENT_ID_PATTERN, issueAccessToken, MCP_SCOPE } from "./tokens";

const TokenForm = z.object({
  grant_type: z.string().min(1),
  client_id: z.string().min(1).optional(),
  client_secret: z.string().optional(),
  scope: z.string().optional(),
});

const invalidClient = (basic: boolean) =>
  oauthError(401, "invalid_client", "Client authentication failed.", basic ? { "WWW-Authenticate": 'Basic realm="token"' } : undefined);

/** The built-in identity provider (DESIGN §5), one realm. */
export const identityRoutes = new Hono<AppEnv>().basePath("/realms/:realm");

identityRoutes.use("*", async (c, next) => {
  if (c.req.param("realm") !== (c.env.REALM ?? DEFAULT_REALM)) return oauthError(404, "invalid_request", "Realm does not exist.");
  await next();
});

identityRoutes.post("/protocol/openid-connect/token", tokenBodyLimit, async (c) => {
  if (!c.req.header("Content-Type")?.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    return oauthError(400, "invalid_request", "The token request must be application/x-www-form-urlencoded.");
  }
  const addressRefusal = await addressTokenLimit(c.env, c.req.raw);
  if (addressRefusal) return addressRefusal;
  const parsed = TokenForm.safeParse(await c.req.parseBody());
  if (!parsed.success) return oauthError(400, "invalid_request", "grant_type is required.");
  const form = parsed.data;
  if (form.grant_type !== "client_credentials") {
    return oauthError(400, "unsupported_grant_type", "Only the client_credentials grant is supported here.");
  }

  const basic = basicCredentials(c.req.header("Authorization"));
  if (basic === "malformed") return oauthError(400, "invalid_request", "The Basic credentials are malformed.");
  if (basic && (form.client_secret !== undefined || (form.client_id !== undefined && form.client_id !== basic.clientId))) {
    return oauthError(400, "invalid_request", "Use one client authentication method, not both.");
  }
  const clientId = basic?.clientId ?? form.client_id;
  const secret = basic?.secret ?? form.client_secret;
  if (!clientId || secret === undefined) return invalidClient(basic !== null);
  if (!CLIENT_ID_PATTERN.test(clientId)) return oauthError(400, "invalid_request", "client_id must be 1-255 visible characters.");
  if (form.scope !== undefined && !form.scope.split(" ").every((s) => s === "" || s === MCP_SCOPE)) {
    return oauthError(400, "invalid_scope", `The only scope is ${MCP_SCOPE}.`);
  }

  const clientRefusal = await clientTokenRefusal(c.env, clientId, c.req.raw);
  if (clientRefusal) return clientRefusal;

  const client = await findIdentityClient(c.env.DB, REALM_ISSUER_KEY, clientId);
  // Hash and compare even for unknown clients, so response timing does not reveal which client IDs exist.
  const presented = await sha256Hex(secret);
  const matches = await constantTimeEqual(presented, client?.secret_hash ?? "0".repeat(64));
  if (!client || !matches) {
    await countTokenFailure(c.env, clientId, c.req.raw);
    return invalidClient(basic !== null);
  }
  const issuedRefusal = await countIssuedToken(c.env, clientId);
  if (issuedRefusal) return issuedRefusal;

  return c.json(await issueAccessToken(c.env, c.req.url, client.client_id), 200, { "Cache-Control": "no-store", Pragma: "no-cache" });
});

identityRoutes.use("/protocol/openid-connect/certs", publicCors);
identityRoutes.use("/.well-known/openid-configuration", publicCors);

identityRoutes.get("/protocol/openid-connect/certs", async (c) =>
  c.json({ keys: await publishedJwks(c.env) }, 200, { "Cache-Control": "public, max-age=60" }),
);

/** The realm's discovery document: OpenID Connect Discovery and RFC 8414 metadata alike. */
const realmMetadata = (c: Context<AppEnv>) => {
  if (c.req.param("realm") !== (c.env.REALM ?? DEFAULT_REALM)) return oauthError(404, "invalid_request", "Realm does not exist.");
  const issuer = realmIssuer(c.env, c.req.url);
  return c.json({
    issuer,
    token_endpoint: `${issuer}/protocol/openid-connect/token`,
    jwks_uri: `${issuer}/protocol/openid-connect/certs`,
    grant_types_supported: ["client_credentials"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    response_types_supported: ["token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [SIGNING_ALG],
    scopes_supported: [MCP_SCOPE],
    claims_supported: ["iss", "aud", "sub", "azp", "client_id", "iat", "exp", "jti", "scope"],
  });
};

identityRoutes.get("/.well-known/openid-configuration", realmMetadata);

/**
 * The same document where RFC 8414 §3 (and OpenID Connect clients that follow it) look for an issuer with
 * a path: the well-known segment inserted before the path.
 */
export const realmDiscoveryRoutes = new Hono<AppEnv>()
  .use("/.well-known/oauth-authorization-server/realms/*", publicCors)
  .use("/.well-known/openid-configuration/realms/*", publicCors)
  .get("/.well-known/oauth-authorization-server/realms/:realm", realmMetadata)
  .get("/.well-known/openid-configuration/realms/:realm", realmMetadata);
