import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { basicCredentials } from "../http/basic-credentials";
import { publicCors } from "../http/public-cors";
import { CLIENT_ID_PATTERN } from "../identity/tokens";
import { addressTokenLimit, clientTokenLimit, tokenBodyLimit } from "../rate-limit/token-requests";
import { showAuthorization, submitAuthorization } from "./authorize";
import { AUTHORIZE_PATH, authorizationServer, REGISTER_PATH, TOKEN_PATH } from "./server";

// Hono's ExecutionContext type lags the runtime's; the object is the runtime's own.
const serveByProvider = (c: Context<AppEnv>) =>
  authorizationServer(c.env, c.req.url).fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);

/** The client a token request names: HTTP Basic's user part, else the form's `client_id`. */
async function requestedClientId(request: Request): Promise<string | undefined> {
  const basic = basicCredentials(request.headers.get("Authorization") ?? undefined);
  if (basic === "malformed") return undefined;
  return (
    basic?.clientId ?? new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer())).get("client_id") ?? undefined
  );
}

/** Per-address and per-client limits in front of the provider's token endpoint, and the address limit on registration. */
const tokenRequestLimits = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== "POST") return next();
  const addressRefusal = await addressTokenLimit(c.env, c.req.raw);
  if (addressRefusal) return addressRefusal;
  const clientId = c.req.path === TOKEN_PATH ? await requestedClientId(c.req.raw) : undefined;
  // An implausible ID is not counted per client (the provider refuses it); the address limit still holds.
  if (clientId !== undefined && CLIENT_ID_PATTERN.test(clientId)) {
    const clientRefusal = await clientTokenLimit(c.env, clientId);
    if (clientRefusal) return clientRefusal;
  }
  await next();
});

/**
 * The connector flow on the MCP origin (DESIGN §6): RFC 8414 metadata, the token endpoint (codes,
 * refresh, revocation) and dynamic registration are the provider's; `/authorize` is our page.
 */
export const oauthRoutes = new Hono<AppEnv>()
  .use("/.well-known/oauth-authorization-server", publicCors)
  .on(["GET", "HEAD", "OPTIONS"], "/.well-known/oauth-authorization-server", serveByProvider)
  .all(TOKEN_PATH, tokenBodyLimit, tokenRequestLimits, serveByProvider)
  .all(REGISTER_PATH, tokenBodyLimit, tokenRequestLimits, serveByProvider)
  .get(AUTHORIZE_PATH, showAuthorization)
  .post(AUTHORIZE_PATH, submitAuthorization);
