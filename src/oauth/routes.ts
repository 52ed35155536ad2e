import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { publicCors } from "../http/public-cors";
import { showAuthorization, submitAuthorization } from "./authorize";
import { AUTHORIZE_PATH, authorizationServer, REGISTER_PATH, TOKEN_PATH } from "./server";

// Hono's ExecutionContext type lags the runtime's; the object is the runtime's own.
const serveByProvider = (c: Context<AppEnv>) =>
  authorizationServer(c.env, c.req.url).fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);

/**
 * The connector flow on the MCP origin (DESIGN §6): RFC 8414 metadata, the token endpoint (codes,
 * refresh, revocation) and dynamic registration are the provider's; `/authorize` is our page.
 */
export const oauthRoutes = new Hono<AppEnv>()
  .use("/.well-known/oauth-authorization-server", publicCors)
  .on(["GET", "HEAD", "OPTIONS"], "/.well-known/oauth-authorization-server", serveByProvider)
  .all(TOKEN_PATH, serveByProvider)
  .all(REGISTER_PATH, serveByProvider)
  .get(AUTHORIZE_PATH, showAuthorization)
  .post(AUTHORIZE_PATH, submitAuthorization);
