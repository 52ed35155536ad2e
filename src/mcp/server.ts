import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { listEntities } from "./tools/list-entities";
import { query } from "./tools/query";
import { searchDocuments } from "./tools/search-documents";
import type { Tool, ToolContext } from "./tools/tool";

const TOOLS: Tool[] = [query, searchDocuments, listEntities];
const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.listing.name, tool]));
const LISTING = { tools: TOOLS.map((tool) => tool.listing) };

export const SERVER_INFO = { name: "hospitality-content", version: "1.0.0" };

/** An MCP server for one request of one organization: JSON-RPC is the SDK's, the tools are ours. */
export function createMcpServer(ctx: ToolContext): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      "Hotel group content: brands, their hotels, destinations and airports, each with FAQs. " +
      "Find IDs and exact names with service_list_entities, answer about one entity with service_query, " +
      "and search across everything with service_search_documents.",
    // Ajv compiles schemas with eval, which Workers forbid.
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => LISTING);
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      return await tool.call(request.params.arguments, ctx);
    } catch (error) {
      if (error instanceof McpError) throw error;
      // The cause goes to the logs; the client gets a JSON-RPC internal error without details.
      console.error(JSON.stringify({ event: "tool_failed", tool: request.params.name, message: String(error) }));
      throw new McpError(ErrorCode.InternalError, "The tool failed unexpectedly; retry with backoff.");
    }
  });
  return server;
}
