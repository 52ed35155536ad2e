import { createMcpHandler, WebStandardStreamableHTTPServerTransport, type AuthInfo } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import { MCP_SCOPE } from "../identity/tokens";
import type { McpEnv } from "./auth";
import { createMcpServer } from "./server";
import type { ToolContext } from "./tools/tool";

/**
 * Serving JSON-RPC with the SDK. Every request gets a fresh server for its organization; the
 * sessions of the 2025-era transports live in McpSession objects, never in this isolate's memory.
 */

const toolContext = (c: Context<McpEnv>): ToolContext => ({ db: c.env.DB, organizationId: c.get("principal").organizationId });

/** The 2025 era, one request: a stateless SDK transport answering in JSON. */
export async function serveLegacyJsonRpc(c: Context<McpEnv>, request: Request, body: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await createMcpServer(toolContext(c)).connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}

// The verified caller reaches the SDK's per-request factory as pass-through auth information.
const modern = createMcpHandler(({ authInfo }) => createMcpServer(authInfo?.extra as unknown as ToolContext), {
  legacy: "reject",
  responseMode: "json",
});

/** The 2026-07-28 revision: stateless by design, every request carries its own protocol envelope. */
export function serveModernJsonRpc(c: Context<McpEnv>, body: unknown): Promise<Response> {
  const principal = c.get("principal");
  const authInfo: AuthInfo = { token: "", clientId: principal.clientId, scopes: [MCP_SCOPE], extra: { ...toolContext(c) } };
  return modern.fetch(c.req.raw, { authInfo, parsedBody: body });
}
