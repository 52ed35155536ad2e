import { isLegacyRequest } from "@modelcontextprotocol/server";
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { realmIssuer, surfaceOrigin } from "../env";
import { envelopeError } from "../http/surface-errors";
import { MCP_SCOPE } from "../identity/tokens";
import { mcpResources } from "../oauth/server";
import { bearerAuth, organizationRateLimit, type McpEnv } from "./auth";
import { isAllowedOrigin } from "./origins";
import { serveModernJsonRpc } from "./serve";
import { MESSAGES_PATH, openSseTransport, postSseMessage } from "./sse-transport";
import { deleteSession, notificationStream, postLegacy, SESSION_HEADER } from "./streamable";

/**
 * /v1/sse serves every MCP transport a client may pick at that URL: SPEC's sessionful streamable
 * HTTP (the 2025 era), the 2026-07-28 revision (stateless; the SDK's own era classification routes
 * each POST), and the older HTTP+SSE transport (GET without a session, then POSTs to /v1/messages).
 * All of them share the Origin check, bearer authentication and the organization's rate limit.
 */

/** Rejects cross-origin browser requests from origins that are not allow-listed (DNS rebinding). */
const originCheck = createMiddleware<McpEnv>(async (c, next) => {
  const origin = c.req.header("Origin");
  if (origin && !isAllowedOrigin(origin, c.env, c.req.url)) return envelopeError(403, `Origin ${origin} is not allowed.`);
  await next();
});

const accepts = (c: Context, ...types: string[]) => {
  const accept = c.req.header("Accept") ?? "";
  return types.every((type) => accept.includes(type) || accept.includes("*/*"));
};

/** The JSON body of a POST, or the 400 to answer instead. */
async function jsonBody(c: Context<McpEnv>): Promise<{ body: unknown } | Response> {
  if (!c.req.header("Content-Type")?.toLowerCase().startsWith("application/json")) {
    return envelopeError(400, "Content-Type must be application/json.");
  }
  try {
    const body: unknown = await c.req.json();
    if (Array.isArray(body) && body.length === 0) return envelopeError(400, "An empty batch is not a JSON-RPC request.");
    return { body };
  } catch {
    return envelopeError(400, "The body is not valid JSON.");
  }
}

export const mcpRoutes = new Hono<McpEnv>();

const protections = [
  // Preflight is answered before authentication; scripts may read the session ID and the auth challenge.
  cors({
    origin: (origin, c) => (isAllowedOrigin(origin, c.env, c.req.url) ? origin : null),
    allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Accept", SESSION_HEADER, "mcp-protocol-version", "Last-Event-ID"],
    exposeHeaders: [SESSION_HEADER, "WWW-Authenticate"],
    maxAge: 600,
  }),
  originCheck,
  bearerAuth,
  organizationRateLimit,
] as const;
mcpRoutes.use("/v1/sse", ...protections);
mcpRoutes.use(MESSAGES_PATH, ...protections);

mcpRoutes.post("/v1/sse", async (c) => {
  const parsed = await jsonBody(c);
  if (parsed instanceof Response) return parsed;
  if (!accepts(c, "application/json", "text/event-stream")) {
    return envelopeError(400, "Accept must include application/json and text/event-stream.");
  }
  return (await isLegacyRequest(c.req.raw, parsed.body)) ? postLegacy(c, parsed.body) : serveModernJsonRpc(c, parsed.body);
});

mcpRoutes.get("/v1/sse", async (c) => {
  if (!accepts(c, "text/event-stream")) return envelopeError(400, "Accept must include text/event-stream to open a stream.");
  return c.req.header(SESSION_HEADER) ? notificationStream(c) : openSseTransport(c);
});

mcpRoutes.delete("/v1/sse", deleteSession);

mcpRoutes.post(MESSAGES_PATH, async (c) => {
  const parsed = await jsonBody(c);
  return parsed instanceof Response ? parsed : postSseMessage(c, parsed.body);
});

/**
 * RFC 9728 protected-resource metadata: at the root for the MCP origin, and at the path of the MCP
 * endpoint for the endpoint itself (§3.1). The connector flow's authorization server (this origin)
 * comes first, then the realm and any external issuer.
 */
mcpRoutes.on("GET", ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/v1/sse"], (c) => {
  const base = surfaceOrigin(c.env.BASE_URL, c.req.url);
  const [origin, endpoint] = mcpResources(base);
  return c.json({
    resource: c.req.path.endsWith("/v1/sse") ? endpoint : origin,
    authorization_servers: [base, realmIssuer(c.env, c.req.url), ...(c.env.OIDC_ISSUER ? [c.env.OIDC_ISSUER] : [])],
    bearer_methods_supported: ["header"],
    scopes_supported: [MCP_SCOPE],
    resource_name: "Hospitality Content MCP server",
  });
});
