import { isLegacyRequest } from "@modelcontextprotocol/server";
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { realmIssuer, surfaceOrigin } from "../env";
import { bodyLimit } from "../http/body";
import { MCP_ENDPOINTS } from "../http/mcp-endpoints";
import { publicCors } from "../http/public-cors";
import { envelopeError } from "../http/surface-errors";
import { MCP_SCOPE } from "../identity/tokens";
import { bearerAuth, organizationRateLimit } from "./auth";
import type { McpEnv } from "./context";
import { isAllowedOrigin } from "./origins";
import {
  acceptsAll,
  contentTypeProblem,
  jsonBody,
  MAX_MCP_BODY_BYTES,
  legacyProblem,
  messagesProblem,
  notAcceptable,
} from "./request-checks";
import { serveModernJsonRpc } from "./serve";
import { SERVER_CARD_PATH, serverCard } from "./server-card";
import { MESSAGES_PATH, openSseTransport, postSseMessage } from "./sse-transport";
import { deleteSession, notificationStream, postLegacy, SESSION_HEADER } from "./streamable";

/**
 * Each MCP endpoint (http/mcp-endpoints.ts) serves every MCP transport a client may pick at its URL:
 * SPEC's sessionful streamable HTTP (the 2025 era), the 2026-07-28 revision (stateless; the SDK's own
 * era classification routes each POST), and the older HTTP+SSE transport (GET without a session, then
 * POSTs to /v1/messages). All of them share the Origin check, bearer authentication and the
 * organization's rate limit.
 */

/** Rejects cross-origin browser requests from origins that are not allow-listed (DNS rebinding). */
const originCheck = createMiddleware<McpEnv>(async (c, next) => {
  const origin = c.req.header("Origin");
  if (origin && !isAllowedOrigin(origin, c.env)) return envelopeError(403, `Origin ${origin} is not allowed.`);
  await next();
});

/** The JSON-RPC message(s) of a POST, or the refusal to answer instead. */
async function readMessages(c: Context<McpEnv>): Promise<{ body: unknown } | Response> {
  const refusal = contentTypeProblem(c.req.header("Content-Type"));
  if (refusal) return refusal;
  let body: unknown;
  try {
    body = await jsonBody(c);
  } catch {
    return envelopeError(400, "The body is not valid JSON.");
  }
  return messagesProblem(body) ?? { body };
}

/**
 * Methods each path serves; any other is 405 with `Allow`, before authentication. HEAD in particular:
 * Hono would answer it with the GET handler, opening a stream (and an HTTP+SSE session) nobody reads.
 */
const allowedMethods = (methods: string[]) =>
  createMiddleware<McpEnv>(async (c, next) => {
    if (methods.includes(c.req.method)) return next();
    return envelopeError(405, `${c.req.method} is not served at ${c.req.path}; use ${methods.filter((m) => m !== "OPTIONS").join(", ")}.`, {
      Allow: methods.join(", "),
    });
  });

const STREAMABLE_ACCEPT = ["application/json", "text/event-stream"];

export const mcpRoutes = new Hono<McpEnv>();

const protections = [
  // Preflight is answered before authentication; scripts may read the session ID and the auth challenge.
  cors({
    origin: (origin, c: Context<McpEnv>) => (isAllowedOrigin(origin, c.env) ? origin : null),
    allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowHeaders: [
      "Authorization",
      "Content-Type",
      "Accept",
      SESSION_HEADER,
      "mcp-protocol-version",
      "Mcp-Method",
      "Mcp-Name",
      "Last-Event-ID",
    ],
    exposeHeaders: [SESSION_HEADER, "WWW-Authenticate"],
    maxAge: 600,
  }),
  originCheck,
  // The token first: an anonymous caller must not make the server read up to a megabyte of body.
  bearerAuth,
  bodyLimit(
    () => MAX_MCP_BODY_BYTES,
    () => envelopeError(413, `The body is larger than ${MAX_MCP_BODY_BYTES} bytes.`),
  ),
  organizationRateLimit,
] as const;
for (const endpoint of MCP_ENDPOINTS) {
  mcpRoutes.use(
    endpoint,
    allowedMethods(["GET", "POST", "DELETE", "OPTIONS"]),
    ...protections,
    createMiddleware<McpEnv>(async (c, next) => {
      c.set("endpoint", endpoint);
      await next();
    }),
  );

  mcpRoutes.post(endpoint, async (c) => {
    if (!acceptsAll(c.req.header("Accept"), STREAMABLE_ACCEPT)) return notAcceptable(STREAMABLE_ACCEPT);
    const parsed = await readMessages(c);
    if (parsed instanceof Response) return parsed;
    if (!(await isLegacyRequest(c.req.raw, parsed.body))) return serveModernJsonRpc(c, parsed.body, endpoint);
    return legacyProblem(c.req.header("MCP-Protocol-Version"), parsed.body) ?? postLegacy(c, parsed.body, endpoint);
  });

  mcpRoutes.get(endpoint, async (c) => {
    if (!acceptsAll(c.req.header("Accept"), ["text/event-stream"])) return notAcceptable(["text/event-stream"]);
    return c.req.header(SESSION_HEADER) ? notificationStream(c, endpoint) : openSseTransport(c, endpoint);
  });

  mcpRoutes.delete(endpoint, (c) => deleteSession(c, endpoint));
}
mcpRoutes.use(MESSAGES_PATH, allowedMethods(["POST", "OPTIONS"]), ...protections);

mcpRoutes.post(MESSAGES_PATH, async (c) => {
  const parsed = await readMessages(c);
  if (parsed instanceof Response) return parsed;
  return legacyProblem(c.req.header("MCP-Protocol-Version"), parsed.body) ?? postSseMessage(c, parsed.body);
});

/**
 * RFC 9728 protected-resource metadata: at the root for the MCP origin, and at the path of the MCP
 * endpoint for the endpoint itself (§3.1). The connector flow's authorization server (this origin)
 * comes first, then the realm and any external issuer.
 */
mcpRoutes.use("/.well-known/oauth-protected-resource", publicCors);
mcpRoutes.use("/.well-known/oauth-protected-resource/*", publicCors);
const METADATA_PATH = "/.well-known/oauth-protected-resource";
mcpRoutes.on("GET", [METADATA_PATH, ...MCP_ENDPOINTS.map((endpoint) => `${METADATA_PATH}${endpoint}`)], (c) => {
  const base = surfaceOrigin(c.env.BASE_URL, c.req.url);
  return c.json({
    resource: `${base}${c.req.path.slice(METADATA_PATH.length)}`,
    authorization_servers: [base, realmIssuer(c.env, c.req.url), ...(c.env.OIDC_ISSUER ? [c.env.OIDC_ISSUER] : [])],
    bearer_methods_supported: ["header"],
    scopes_supported: [MCP_SCOPE],
    resource_name: "Hospitality Content MCP server",
  });
});

/**
 * The server card (server-card.ts): public, the same for every caller, changing only with the deployment. Served
 * where clients look for it today, and where the Server Cards extension reserves one: `<streamable-http-url>/server-card`.
 */
for (const path of [SERVER_CARD_PATH, ...MCP_ENDPOINTS.map((endpoint) => `${endpoint}/server-card`)]) {
  mcpRoutes.use(path, publicCors);
  mcpRoutes.get(path, (c) => c.json(serverCard(c.env, c.req.url), 200, { "Cache-Control": "public, max-age=3600" }));
}
