import { showsAnswerCard } from "./card/answer-card";
import { isInitializeRequest, type InitializeRequest } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import { intVar } from "../env";
import { DEFAULT_MCP_ENDPOINT, type McpEndpoint } from "../http/mcp-endpoints";
import { envelopeError } from "../http/surface-errors";
import { boundedText } from "../http/untrusted-text";
import type { McpEnv } from "./context";
import { sessionObject, type SessionRecord } from "./session";
import { serveLegacyJsonRpc } from "./serve";
import { openSessionStream } from "./streams";

/**
 * SPEC's transport: streamable HTTP with sessions (the 2025 protocol era). `initialize` opens a
 * session held by its McpSession object; every later call names it in `mcp-session-id`.
 */

export const SESSION_HEADER = "mcp-session-id";
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const missingSession = () =>
  envelopeError(400, "The mcp-session-id header is required on every call except initialize; send the ID that initialize returned.");
export const unknownSession = () =>
  envelopeError(404, "No such session: it is unknown, ended or expired. Send initialize to open a new one.");

/** The session if it exists and belongs to the caller, recording the activity; else null. */
export async function callerSession(c: Context<McpEnv>, sessionId: string): Promise<SessionRecord | null> {
  // A token of another client gets the same 404 as a session that never existed: sessions never leak across tenants.
  return UUID.test(sessionId) ? sessionObject(c.env, sessionId).touch(c.get("principal")) : null;
}

/** The endpoint a session was opened at. */
export const sessionEndpoint = (record: SessionRecord): McpEndpoint => record.endpoint ?? DEFAULT_MCP_ENDPOINT;

/** The live session named by the header, opened at `endpoint`, touched; or the 400/404 response to send instead. */
async function requireSession(c: Context<McpEnv>, endpoint: McpEndpoint): Promise<{ sessionId: string; record: SessionRecord } | Response> {
  const sessionId = c.req.header(SESSION_HEADER);
  if (!sessionId) return missingSession();
  const record = await callerSession(c, sessionId);
  // A session serves the tools of the endpoint that opened it; at another endpoint it does not exist.
  return record && sessionEndpoint(record) === endpoint ? { sessionId, record } : unknownSession();
}

function withSessionHeader(response: Response, sessionId: string): Response {
  const copy = new Response(response.body, response);
  copy.headers.set(SESSION_HEADER, sessionId);
  return copy;
}

/** A new session's record: the caller, the endpoint, what its handshake negotiated, and the configured expiry. */
export function sessionRecord(
  c: Context<McpEnv>,
  endpoint: McpEndpoint,
  protocolVersion: string,
  clientInfo: SessionRecord["clientInfo"],
  showsCard = false,
): SessionRecord {
  const now = Date.now();
  return {
    ...c.get("principal"),
    endpoint,
    protocolVersion,
    clientInfo,
    showsAnswerCard: showsCard,
    createdAt: now,
    lastSeenAt: now,
    idleMs: intVar(c.env.SESSION_IDLE_SECONDS, 1800) * 1000,
    maxMs: intVar(c.env.SESSION_MAX_SECONDS, 86_400) * 1000,
  };
}

/** Longest client name or version kept in a session record; a client chooses them freely. */
export const MAX_CLIENT_INFO_LENGTH = 200;

export const clientInfoOf = (params: InitializeRequest["params"]): SessionRecord["clientInfo"] => ({
  name: boundedText(params.clientInfo.name, MAX_CLIENT_INFO_LENGTH),
  version: boundedText(params.clientInfo.version, MAX_CLIENT_INFO_LENGTH),
});

/** The protocol version the SDK agreed to in its answer to `initialize`. */
export async function negotiatedVersion(response: Response, requested: string): Promise<string> {
  const answer = (await response
    .clone()
    .json()
    .catch(() => null)) as { result?: { protocolVersion?: unknown } } | null;
  return typeof answer?.result?.protocolVersion === "string" ? answer.result.protocolVersion : requested;
}

/** POST of the 2025 era: `initialize` opens a session; anything else needs one. */
export async function postLegacy(c: Context<McpEnv>, body: unknown, endpoint: McpEndpoint): Promise<Response> {
  const messages = Array.isArray(body) ? body : [body];
  if (!messages.some(isInitializeRequest)) {
    const session = await requireSession(c, endpoint);
    return session instanceof Response
      ? session
      : serveLegacyJsonRpc(c, body, session.record.protocolVersion, endpoint, session.record.showsAnswerCard ?? false);
  }
  if (c.req.header(SESSION_HEADER)) return envelopeError(400, "initialize opens a new session: send it without mcp-session-id.");
  if (messages.length > 1) return envelopeError(400, "initialize must be sent alone, not in a batch.");

  const { params } = messages[0] as InitializeRequest;
  const showsCard = showsAnswerCard(params.capabilities);
  const response = await serveLegacyJsonRpc(c, body, params.protocolVersion, endpoint, showsCard);
  if (!response.ok) return response;
  const sessionId = crypto.randomUUID();
  const negotiated = await negotiatedVersion(response, params.protocolVersion);
  await sessionObject(c.env, sessionId).open(sessionRecord(c, endpoint, negotiated, clientInfoOf(params), showsCard));
  return withSessionHeader(response, sessionId);
}

/** GET with a session: the notification stream of that session. */
export async function notificationStream(c: Context<McpEnv>, endpoint: McpEndpoint): Promise<Response> {
  const session = await requireSession(c, endpoint);
  if (session instanceof Response) return session;
  const stream = await openSessionStream(c, session.sessionId, ": stream open\n\n");
  return stream.ok ? withSessionHeader(stream, session.sessionId) : unknownSession();
}

/** DELETE: ends the session (204); later calls with it get 404. */
export async function deleteSession(c: Context<McpEnv>, endpoint: McpEndpoint): Promise<Response> {
  const session = await requireSession(c, endpoint);
  if (session instanceof Response) return session;
  const ended = await sessionObject(c.env, session.sessionId).terminate(c.get("principal"));
  return ended ? c.body(null, 204) : unknownSession();
}
