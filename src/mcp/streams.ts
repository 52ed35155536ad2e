import type { Context } from "hono";
import { intVar } from "../env";
import type { McpEnv } from "./context";
import { sessionObject, type StreamRequest } from "./session";

/** The session's server-sent event stream, served by its McpSession object; 404 when the session is not the caller's. */
export function openSessionStream(c: Context<McpEnv>, sessionId: string, first: string): Promise<Response> {
  const body: StreamRequest = {
    owner: c.get("principal"),
    first,
    keepAliveMs: intVar(c.env.SSE_KEEP_ALIVE_SECONDS, 25) * 1000,
  };
  return sessionObject(c.env, sessionId).fetch("https://session.internal/stream", { method: "POST", body: JSON.stringify(body) });
}

/** One JSON-RPC message as a server-sent `message` event. */
export const messageEvent = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
