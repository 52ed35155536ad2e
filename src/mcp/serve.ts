import { createMcpHandler, WebStandardStreamableHTTPServerTransport, type AuthInfo } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import { surfaceOrigin } from "../env";
import type { McpEndpoint } from "../http/mcp-endpoints";
import { MCP_SCOPE } from "../identity/tokens";
import { dayOf, unansweredKey } from "../search/unanswered";
import { countUnanswered } from "../storage/unanswered-questions";
import type { McpEnv } from "./context";
import { inEnvelope, MODERN_PROTOCOL_VERSION } from "./request-checks";
import { createMcpServer } from "./server";
import type { ToolContext } from "./tools/tool";

/**
 * Serving JSON-RPC with the SDK. Every request gets a fresh server for its organization; the
 * sessions of the 2025-era transports live in McpSession objects, never in this isolate's memory.
 */

const toolContext = (c: Context<McpEnv>, protocolVersion: string, showsAnswerCard: boolean): ToolContext => ({
  contentOrigin: surfaceOrigin(c.env.API_URL, c.req.url),
  showsAnswerCard,
  // Scope and content reads only; with read replication they are served near the caller (README).
  db: c.env.DB.withSession("first-unconstrained"),
  organizationId: c.get("principal").organizationId,
  protocolVersion,
  waitUntil: (promise) => c.executionCtx.waitUntil(promise),
  countUnanswered: (question, tool, { entityId, language }) => {
    const key = unansweredKey(question);
    if (key === null) return;
    const at = new Date();
    const row = {
      organizationId: c.get("principal").organizationId,
      day: dayOf(at),
      question: key,
      tool,
      entityId,
      language,
      at: at.toISOString(),
    };
    // A count that fails is logged and lost: it must never fail the answer.
    const counted = Promise.resolve()
      .then(() => countUnanswered(c.env.DB, row).run())
      .catch((error: unknown) => console.error(JSON.stringify({ event: "unanswered_count_failed", message: String(error) })));
    c.executionCtx.waitUntil(counted);
  },
});

/**
 * The request as the SDK's transports want it. The body was read and checked already; what a client
 * may send that they would refuse (`Accept: *\/*`, the HTTP+SSE transport's bare POST) is normalized.
 */
function sdkRequest(c: Context<McpEnv>): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set("Accept", "application/json, text/event-stream");
  headers.set("Content-Type", "application/json");
  return new Request(c.req.url, { method: "POST", headers });
}

/**
 * The 2025 era, one request: a stateless SDK transport answering in JSON, its refusals in SPEC's
 * envelope; `protocolVersion` is what the session negotiated.
 */
export async function serveLegacyJsonRpc(
  c: Context<McpEnv>,
  body: unknown,
  protocolVersion: string,
  endpoint: McpEndpoint,
  showsAnswerCard: boolean,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await createMcpServer(toolContext(c, protocolVersion, showsAnswerCard), endpoint).connect(transport);
  return inEnvelope(await transport.handleRequest(sdkRequest(c), { parsedBody: body }));
}

/** What the SDK's per-request factory needs, passed through its auth information. */
interface ModernRequest {
  tools: ToolContext;
  endpoint: McpEndpoint;
}

const modern = createMcpHandler(
  ({ authInfo }) => {
    const { tools, endpoint } = authInfo?.extra as unknown as ModernRequest;
    return createMcpServer(tools, endpoint);
  },
  { legacy: "reject", responseMode: "json" },
);

/** The 2026-07-28 revision: stateless by design, every request carries its own protocol envelope. */
export function serveModernJsonRpc(c: Context<McpEnv>, body: unknown, endpoint: McpEndpoint): Promise<Response> {
  const principal = c.get("principal");
  // The 2026-07-28 revision states the client's capabilities with each request: the tools read them per call.
  const request: ModernRequest = { tools: toolContext(c, MODERN_PROTOCOL_VERSION, false), endpoint };
  const authInfo: AuthInfo = {
    token: "",
    clientId: principal.clientId,
    scopes: [MCP_SCOPE],
    extra: { ...request },
  };
  return modern.fetch(sdkRequest(c), { authInfo, parsedBody: body });
}
