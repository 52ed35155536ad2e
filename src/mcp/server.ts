import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { listEntities } from "./tools/list-entities";
import { query } from "./tools/query";
import { searchDocuments } from "./tools/search-documents";
import type { Tool, ToolContext } from "./tools/tool";

const TOOLS: Tool[] = [query, searchDocuments, listEntities];
const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

export const SERVER_INFO = { name: "hospitality-content", version: "1.0.0" };

const INSTRUCTIONS =
  "Hotel group content: brands, their hotels, destinations and airports, each with FAQs. " +
  "Find IDs and exact names with service_list_entities, answer about one entity with service_query, " +
  "and search across everything with service_search_documents.";

/**
 * An MCP server for one request of one organization: JSON-RPC (both protocol eras) is the SDK's,
 * the tools are ours. The same server serves the 2025-era sessions, the HTTP+SSE transport and
 * the 2026-07-28 revision.
 */
export function createMcpServer(ctx: ToolContext): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler("tools/list", () => ({ tools: TOOLS.map((tool) => tool.listing(ctx.protocolVersion)) }));
  server.setRequestHandler("tools/call", async (request) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    // An unknown tool is a protocol error (the client's mistake, not the model's): JSON-RPC -32602.
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. The tools are ${[...TOOLS_BY_NAME.keys()].join(", ")}.`,
      );
    try {
      return await tool.call(request.params.arguments, ctx);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      // The cause goes to the logs; the client gets a JSON-RPC internal error without details.
      console.error(JSON.stringify({ event: "tool_failed", tool: request.params.name, message: String(error) }));
      throw new ProtocolError(ProtocolErrorCode.InternalError, "The tool failed unexpectedly; retry with backoff.");
    }
  });
  return server;
}
