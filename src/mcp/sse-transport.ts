import { showsAnswerCard } from "./card/answer-card";
import { isInitializeRequest } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import type { McpEndpoint } from "../http/mcp-endpoints";
import type { McpEnv } from "./context";
import { serveLegacyJsonRpc } from "./serve";
import { sessionObject } from "./session";
import { messageEvent, openSessionStream } from "./streams";
import { callerSession, clientInfoOf, negotiatedVersion, sessionEndpoint, sessionRecord, unknownSession } from "./streamable";

/**
 * The HTTP+SSE transport (protocol 2024-11-05), which clients that pick a transport from a URL ending
 * in /sse speak: GET opens the stream, whose first event names the URL to POST messages to; each POST
 * answers 202 and its JSON-RPC responses arrive on the stream. The session and its stream live in the
 * McpSession object, so any isolate can take the POSTs; the tools are the same.
 */

export const MESSAGES_PATH = "/v1/messages";
export const LEGACY_SSE_PROTOCOL_VERSION = "2024-11-05";

/** GET without a session: a new session of `endpoint` whose stream starts with the `endpoint` event. */
export async function openSseTransport(c: Context<McpEnv>, endpoint: McpEndpoint): Promise<Response> {
  const sessionId = crypto.randomUUID();
  await sessionObject(c.env, sessionId).open(sessionRecord(c, endpoint, LEGACY_SSE_PROTOCOL_VERSION, null));
  return openSessionStream(c, sessionId, `event: endpoint\ndata: ${MESSAGES_PATH}?sessionId=${sessionId}\n\n`);
}

/** POST to the endpoint: served like any JSON-RPC request, the answer delivered on the session's stream. */
export async function postSseMessage(c: Context<McpEnv>, body: unknown): Promise<Response> {
  const sessionId = c.req.query("sessionId") ?? "";
  const session = await callerSession(c, sessionId);
  if (!session) return unknownSession();
  const initialize = isInitializeRequest(body) ? body.params : null;
  const showsCard = initialize ? showsAnswerCard(initialize.capabilities) : (session.showsAnswerCard ?? false);
  const response = await serveLegacyJsonRpc(
    c,
    body,
    initialize?.protocolVersion ?? session.protocolVersion,
    sessionEndpoint(session),
    showsCard,
  );
  if (response.status === 202) return c.text("Accepted", 202);
  if (!response.ok) return response;
  const stub = sessionObject(c.env, sessionId);
  if (initialize) {
    await stub.handshake(c.get("principal"), {
      protocolVersion: await negotiatedVersion(response, initialize.protocolVersion),
      clientInfo: clientInfoOf(initialize),
      showsAnswerCard: showsCard,
    });
  }
  const answer: unknown = await response.json();
  const delivered = await stub.deliver(c.get("principal"), (Array.isArray(answer) ? answer : [answer]).map(messageEvent));
  return delivered ? c.text("Accepted", 202) : unknownSession();
}
