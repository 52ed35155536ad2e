import type { Env } from "../env";
import type { McpEndpoint } from "../http/mcp-endpoints";
import type { Principal } from "../identity/verify";

/**
 * What every MCP handler sees: the bindings, the verified caller, the POST body once parsed, and the
 * endpoint the request came to (absent at /v1/messages, whose session names it).
 */
export type McpEnv = { Bindings: Env; Variables: { principal: Principal; jsonBody?: Promise<unknown>; endpoint?: McpEndpoint } };
