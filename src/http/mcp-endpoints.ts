/**
 * The MCP endpoints of the MCP origin. Each serves every transport with the same authentication, rate
 * limit, sessions, resources and completions; they differ in their tools: SPEC's three at `/v1/sse`, and at
 * `/v1/chatgpt` the `search` and `fetch` that ChatGPT requires of a data-only server. The connector flow
 * binds tokens to them (oauth/), the MCP surface serves them (mcp/).
 */
export const MCP_ENDPOINTS = ["/v1/sse", "/v1/chatgpt"] as const;
export type McpEndpoint = (typeof MCP_ENDPOINTS)[number];

/** Sessions opened before there was more than one endpoint belong to SPEC's. */
export const DEFAULT_MCP_ENDPOINT: McpEndpoint = "/v1/sse";
