import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { intVar, isDevelopment, type AppEnv, type Env } from "../env";
import { oauthError } from "../http/surface-errors";
import { basicCredentials } from "../http/basic-credentials";
import { requestForm } from "../http/form-body";
import { publicCors } from "../http/public-cors";
import { CLIENT_ID_PATTERN } from "../identity/tokens";
import { rateCounter } from "../rate-limit/rate-counter";
import {
  addressTokenLimit,
  callerAddress,
  clientTokenRefusal,
  countIssuedToken,
  countTokenFailure,
  registrationLimit,
  tokenBodyLimit,
} from "../rate-limit/token-requests";
import { showAuthorization, submitAuthorization } from "./authorize";
import { branding } from "./branding";
import { tokenGrantGuards } from "./grant-guards";
import { isNonPublicMetadataUrl } from "./metadata-hosts";
import { errorPage, htmlResponse, policyPage } from "./pages";
import { POLICY_PATHS, policyBlocks, policyText, type PolicyKind } from "./policies";
import { AUTHORIZE_PATH, authorizationServer, REGISTER_PATH, TOKEN_PATH } from "./server";

// Hono's ExecutionContext type lags the runtime's; the object is the runtime's own.
const serveByProvider = (c: Context<AppEnv>) =>
  authorizationServer(c.env, c.req.url).fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);

/** The client a token request names: HTTP Basic's user part, else the form's `client_id`. */
async function requestedClientId(request: Request): Promise<string | undefined> {
  const basic = basicCredentials(request.headers.get("Authorization") ?? undefined);
  if (basic === "malformed") return undefined;
  return basic?.clientId ?? (await requestForm(request)).get("client_id") ?? undefined;
}

/** Per-address and per-client limits in front of the provider's token endpoint, and the address limit on registration. */
const tokenRequestLimits = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== "POST") return next();
  const addressRefusal = await addressTokenLimit(c.env, c.req.raw);
  if (addressRefusal) return addressRefusal;
  if (c.req.path === REGISTER_PATH) return (await registrationLimit(c.env, c.req.raw)) ?? next();
  const clientId = await requestedClientId(c.req.raw);
  if (clientId === undefined) return next();
  // The provider keys storage by the client ID: one no client could have is refused before it becomes a key.
  if (!CLIENT_ID_PATTERN.test(clientId)) return oauthError(400, "invalid_request", "client_id must be 1-255 visible characters.");
  if (!isDevelopment(c.env) && isNonPublicMetadataUrl(clientId)) {
    return oauthError(401, "invalid_client", "The client ID names a private or local address, which this server does not fetch.");
  }
  const clientRefusal = await clientTokenRefusal(c.env, clientId, c.req.raw);
  if (clientRefusal) return clientRefusal;
  await next();
  // The provider authenticates and issues in one step, so its outcome is counted after it: the
  // client's hour may be passed by the requests in flight when it runs out.
  if (c.res.status === 401) await countTokenFailure(c.env, clientId, c.req.raw);
  else if (c.res.status === 200) await countIssuedToken(c.env, clientId);
});

/**
 * Requests to `/authorize` per calling address and hour, pages and forms alike: each may cost a
 * metadata-document fetch, a stored handle and a password hash, so one address cannot spend them freely.
 */
export const DEFAULT_AUTHORIZE_REQUESTS_PER_ADDRESS = 300;

const authorizeRequestLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limit = intVar(c.env.AUTHORIZE_REQUESTS_PER_ADDRESS, DEFAULT_AUTHORIZE_REQUESTS_PER_ADDRESS);
  const decision = await rateCounter(c.env, `authorize-address:${callerAddress(c.req.raw, c.env)}`).hit(limit);
  if (decision.allowed) return next();
  const page = errorPage(
    branding(c.env),
    "Too many attempts",
    `Too many sign-in requests from here. Try again in ${Math.ceil(decision.resetSeconds / 60)} minutes.`,
  );
  return htmlResponse(page, 429, [], new Headers({ "Retry-After": String(decision.resetSeconds) }));
});

/** A policy page: the same for everyone, so caches may keep it for an hour. */
async function showPolicy(env: Env, kind: PolicyKind): Promise<Response> {
  const brand = branding(env);
  const response = await htmlResponse(policyPage(brand, kind, policyBlocks(policyText(env, kind), brand.name)), 200);
  response.headers.set("Cache-Control", "public, max-age=3600");
  return response;
}

/**
 * The connector flow on the MCP origin (DESIGN §6): RFC 8414 metadata, the token endpoint (codes,
 * refresh, revocation) and dynamic registration are the provider's; `/authorize` is our page.
 */
export const oauthRoutes = new Hono<AppEnv>()
  .use("/.well-known/oauth-authorization-server", publicCors)
  .on(["GET", "HEAD", "OPTIONS"], "/.well-known/oauth-authorization-server", serveByProvider)
  .all(TOKEN_PATH, tokenBodyLimit, tokenRequestLimits, tokenGrantGuards, serveByProvider)
  .all(REGISTER_PATH, tokenBodyLimit, tokenRequestLimits, serveByProvider)
  .get(AUTHORIZE_PATH, authorizeRequestLimit, showAuthorization)
  .post(AUTHORIZE_PATH, authorizeRequestLimit, submitAuthorization)
  .get(POLICY_PATHS.privacy, (c) => showPolicy(c.env, "privacy"))
  .get(POLICY_PATHS.terms, (c) => showPolicy(c.env, "terms"));
