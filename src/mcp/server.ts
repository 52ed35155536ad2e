import { ProtocolError, ProtocolErrorCode, Server, type ServerOptions } from "@modelcontextprotocol/server";
import type { McpEndpoint } from "../http/mcp-endpoints";
import { showsAnswerCard } from "./card/answer-card";
import { serveCompletion } from "./completion";
import { servePrompts } from "./prompts";
import { serveResources } from "./resources";
import { fetchDocument } from "./tools/fetch";
import { listEntities } from "./tools/list-entities";
import { query } from "./tools/query";
import { search } from "./tools/search";
import { searchDocuments } from "./tools/search-documents";
import type { Tool, ToolContext } from "./tools/tool";

export const SERVER_INFO = { name: "hospitality-content", version: "1.0.0" };

/** What each endpoint serves: its tools, in the order tools/list gives them, and how to use them. */
const ENDPOINT_TOOLS: Record<McpEndpoint, { tools: Tool[]; instructions: string }> = {
  "/v1/sse": {
    tools: [query, searchDocuments, listEntities],
    instructions:
      "Answers travellers' questions from a hotel group's content: brands, hotels, destinations and airports, each with FAQs. " +
      "For one hotel or place, call service_query with its name as the user wrote it and the question in the user's words; " +
      "if entity is null, ask which candidate is meant. When the hotel is unknown, or to compare, call service_search_documents. " +
      "Name the entity the FAQs are about. Act on confidence: high, answer from the first FAQ; low, say the content may not " +
      "answer exactly; none, say it is not in the content, never present a listed FAQ as the answer. " +
      "Pass the guest's language as language; translate an FAQ in another. FAQs are also resources: hospitality://entities/{entityId}/faqs.",
  },
  "/v1/chatgpt": {
    tools: [search, fetchDocument],
    instructions:
      "Answers travellers' questions from a hotel group's own content: FAQs of its hotels, brands, destinations and airports. " +
      "Call search with the question in the traveller's words, naming the hotel or city when known; then fetch the ids of the best results " +
      "and answer from their text, citing their url. Each result is one FAQ of one hotel or place: say which. " +
      "No results means the content does not answer it: say so, do not guess. " +
      "Pass the traveller's language as language; metadata.language says the text's, which may be the hotel's own: translate it then.",
  },
};

const TOOLS_BY_NAME = new Map(Object.values(ENDPOINT_TOOLS).flatMap(({ tools }) => tools.map((tool) => [tool.name, tool])));

/** The names of the tools an endpoint serves, in tools/list's order. */
export const endpointToolNames = (endpoint: McpEndpoint): string[] => ENDPOINT_TOOLS[endpoint].tools.map((tool) => tool.name);

/** The tool of that name at any endpoint, for weighing a call before it is served. */
export const toolNamed = (name: unknown): Tool | undefined => (typeof name === "string" ? TOOLS_BY_NAME.get(name) : undefined);

/**
 * Cache hints of the 2026-07-28 revision. The tool list, the prompt and the templates are the same for every caller of
 * an endpoint and change only with a deployment; the resources are the caller's organization's, and a
 * change of content or scope reaches a client that honours the hint within a minute.
 */
const CACHE_HINTS: ServerOptions["cacheHints"] = {
  "server/discover": { ttlMs: 3_600_000, cacheScope: "public" },
  "tools/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "resources/templates/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "prompts/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "resources/list": { ttlMs: 60_000, cacheScope: "private" },
  "resources/read": { ttlMs: 60_000, cacheScope: "private" },
};

/**
 * An MCP server for one request of one organization at one endpoint: JSON-RPC (both protocol eras) is
 * the SDK's, the tools and resources are ours. The same server serves the 2025-era sessions, the
 * HTTP+SSE transport and the 2026-07-28 revision.
 */
export function createMcpServer(ctx: ToolContext, endpoint: McpEndpoint): Server {
  const { tools, instructions } = ENDPOINT_TOOLS[endpoint];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
    instructions,
    cacheHints: CACHE_HINTS,
  });
  server.setRequestHandler("tools/list", () => ({ tools: tools.map((tool) => tool.listing(ctx.protocolVersion)) }));
  server.setRequestHandler("tools/call", async (request) => {
    const tool = byName.get(request.params.name);
    // An unknown tool is a protocol error (the client's mistake, not the model's): JSON-RPC -32602.
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. The tools are ${[...byName.keys()].join(", ")}.`,
      );
    // The 2026-07-28 revision states the client's capabilities with every request (the SDK gives them per request);
    // earlier ones at initialize, kept in the session.
    const showsCard = ctx.showsAnswerCard || showsAnswerCard(server.getClientCapabilities());
    try {
      return await tool.call(request.params.arguments, { ...ctx, showsAnswerCard: showsCard });
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      // The cause goes to the logs; the client gets a JSON-RPC internal error without details.
      console.error(JSON.stringify({ event: "tool_failed", tool: request.params.name, message: String(error) }));
      throw new ProtocolError(ProtocolErrorCode.InternalError, "The tool failed unexpectedly; retry with backoff.");
    }
  });
  serveResources(server, ctx);
  servePrompts(server);
  serveCompletion(server, ctx);
  return server;
}
