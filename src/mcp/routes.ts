import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type InitializeRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { intVar, realmIssuer, surfaceOrigin } from "../env";
import { envelopeError } from "../http/surface-errors";
import { MCP_SCOPE } from "../identity/tokens";
import { bearerAuth, organizationRateLimit, stillAuthorized, type McpEnv } from "./auth";
import { isAllowedOrigin } from "./origins";
import { createMcpServer } from "./server";
import { mcpResources } from "../oauth/server";

const SESSION_HEADER = "mcp-session-id";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sessionStub = (c: Context<McpEnv>, sessionId: string) => c.env.MCP_SESSION.get(c.env.MCP_SESSION.idFromName(sessionId));

const missingSession = () =>
  envelopeError(400, "The mcp-session-id header is required on every call except initialize; send the ID that initialize returned.");
const unknownSession = () => envelopeError(404, "No such session: it is unknown, ended or expired. Send initialize to open a new one.");

/** The live session named by the header, touched; or the 400/404 response to send instead. */
async function requireSession(c: Context<McpEnv>): Promise<string | Response> {
  const sessionId = c.req.header(SESSION_HEADER);
  if (!sessionId) return missingSession();
  // A token of another client gets the same 404 as a session that never existed: sessions never leak across tenants.
  if (!UUID.test(sessionId) || !(await sessionStub(c, sessionId).touch(c.get("principal")))) return unknownSession();
  return sessionId;
}

/** One stateless SDK transport per request: session state lives in the McpSession object, not in memory. */
async function serveJsonRpc(c: Context<McpEnv>, body: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await createMcpServer({ db: c.env.DB, organizationId: c.get("principal").organizationId }).connect(transport);
  return transport.handleRequest(c.req.raw, { parsedBody: body });
}

function withSessionHeader(response: Response, sessionId: string): Response {
  const copy = new Response(response.body, response);
  copy.headers.set(SESSION_HEADER, sessionId);
  return copy;
}

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

export const mcpRoutes = new Hono<McpEnv>();

mcpRoutes.use(
  "/v1/sse",
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
);

mcpRoutes.post("/v1/sse", async (c) => {
  if (!c.req.header("Content-Type")?.toLowerCase().startsWith("application/json")) {
    return envelopeError(400, "Content-Type must be application/json.");
  }
  if (!accepts(c, "application/json", "text/event-stream")) {
    return envelopeError(400, "Accept must include application/json and text/event-stream.");
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return envelopeError(400, "The body is not valid JSON.");
  }
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return envelopeError(400, "An empty batch is not a JSON-RPC request.");

  if (!messages.some(isInitializeRequest)) {
    const session = await requireSession(c);
    return session instanceof Response ? session : serveJsonRpc(c, body);
  }
  if (c.req.header(SESSION_HEADER)) return envelopeError(400, "initialize opens a new session: send it without mcp-session-id.");
  if (messages.length > 1) return envelopeError(400, "initialize must be sent alone, not in a batch.");

  const response = await serveJsonRpc(c, body);
  if (!response.ok) return response;
  const { params } = messages[0] as InitializeRequest;
  const sessionId = crypto.randomUUID();
  const now = Date.now();
  await sessionStub(c, sessionId).open({
    ...c.get("principal"),
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION,
    clientInfo: { name: params.clientInfo.name, version: params.clientInfo.version },
    createdAt: now,
    lastSeenAt: now,
    idleMs: intVar(c.env.SESSION_IDLE_SECONDS, 1800) * 1000,
    maxMs: intVar(c.env.SESSION_MAX_SECONDS, 86_400) * 1000,
  });
  return withSessionHeader(response, sessionId);
});

mcpRoutes.delete("/v1/sse", async (c) => {
  const sessionId = c.req.header(SESSION_HEADER);
  if (!sessionId) return missingSession();
  const ended = UUID.test(sessionId) && (await sessionStub(c, sessionId).terminate(c.get("principal")));
  return ended ? c.body(null, 204) : unknownSession();
});

mcpRoutes.get("/v1/sse", async (c) => {
  if (!accepts(c, "text/event-stream")) return envelopeError(400, "Accept must include text/event-stream to open the notification stream.");
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const stub = sessionStub(c, session);
  const owner = c.get("principal");
  const encoder = new TextEncoder();
  let timer: number | null = null;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(": stream open\n\n"));
      // Each keep-alive also checks the session and the caller's access, so the stream ends with either
      // (DELETE, expiry, a disabled user, a deleted client); access withdrawn also ends the session.
      timer = setInterval(async () => {
        try {
          const authorized = await stillAuthorized(c.env, owner);
          if (!authorized) await stub.terminate(owner);
          if (authorized && (await stub.touch(owner))) controller.enqueue(encoder.encode(": keep-alive\n\n"));
          else {
            clearInterval(timer);
            controller.close();
          }
        } catch {
          clearInterval(timer);
        }
      }, intVar(c.env.SSE_KEEP_ALIVE_SECONDS, 25) * 1000);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(stream, {
    headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", [SESSION_HEADER]: session },
  });
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
