import { InitializeRequestSchema, JSONRPCMessageSchema } from "@modelcontextprotocol/core";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import { z } from "zod";
import { envelopeError, type ErrorDetail } from "../http/surface-errors";
import type { McpEnv } from "./context";
import { toolNamed } from "./server";

/**
 * What /v1/sse accepts, checked before the SDK sees a request, so that every refusal is in SPEC's
 * envelope with a message that says what to change (the SDK's own answers to these are JSON-RPC
 * errors or bare statuses).
 */

/** Bodies are read at most this far; a JSON-RPC request to these tools is a few kilobytes. */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;
/** A batch may hold at most this many messages; each request in it counts against the rate limit. */
export const MAX_BATCH_MESSAGES = 50;

/** The POST body parsed as JSON, once per request however many steps read it (rejects when it is not JSON). */
export function jsonBody(c: Context<McpEnv>): Promise<unknown> {
  let body = c.get("jsonBody");
  if (!body) c.set("jsonBody", (body = c.req.json()));
  return body;
}

/**
 * A call that ranks text (a search, a question to rank an entity's FAQs by, a completion, which compares what was
 * typed with hundreds of names) counts this many requests against the organization's limit, and one batch may run
 * at most MAX_BATCH_SEARCHES of them: what one request may make the shared database do is bounded.
 */
export const SEARCH_COST = 2;
export const MAX_BATCH_SEARCHES = 10;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** Whether a message is a request (a method and an id), and whether it ranks text as a search does. */
function classify(message: unknown): { request: boolean; search: boolean } {
  if (!isRecord(message) || typeof message.method !== "string" || !("id" in message)) return { request: false, search: false };
  if (message.method === "completion/complete") return { request: true, search: true };
  const params = isRecord(message.params) ? message.params : {};
  return { request: true, search: message.method === "tools/call" && (toolNamed(params.name)?.searches(params.arguments) ?? false) };
}

const searchesIn = (messages: unknown[]): number => messages.filter((m) => classify(m).search).length;

/**
 * How many requests a POST counts for against the organization's limit: every JSON-RPC request in
 * it, a search or a completion SEARCH_COST (a batch of 50 `service_list_entities` calls is 50), at least 1. A batch
 * refused for its size counts 1: it is refused unread.
 */
export function requestCost(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length > MAX_BATCH_MESSAGES) return 1;
  const kinds = messages.map(classify);
  if (kinds.filter((kind) => kind.search).length > MAX_BATCH_SEARCHES) return 1;
  return Math.max(
    1,
    kinds.reduce((sum, { request, search }) => sum + (search ? SEARCH_COST : request ? 1 : 0), 0),
  );
}

export const MODERN_PROTOCOL_VERSION = "2026-07-28";
export const KNOWN_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/**
 * Whether an Accept header admits every media type in `needed`: no header, `*\/*` and `type/*`
 * admit them as RFC 9110 says (curl and most HTTP libraries send `*\/*`).
 */
export function acceptsAll(header: string | undefined, needed: string[]): boolean {
  if (!header) return true;
  const ranges = header.split(",").map((range) => range.split(";")[0]!.trim().toLowerCase());
  return needed.every((type) => ranges.some((range) => range === type || range === "*/*" || range === `${type.split("/")[0]}/*`));
}

export const notAcceptable = (needed: string[]) =>
  envelopeError(406, `Accept must admit ${needed.join(" and ")} (or */*); send "Accept: ${needed.join(", ")}".`);

export function contentTypeProblem(header: string | undefined): Response | null {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/json") return null;
  return envelopeError(415, `Content-Type must be application/json${type ? `, not ${type}` : ""}.`);
}

const issuesOf = (error: z.ZodError, prefix: string): ErrorDetail[] =>
  error.issues.map((issue) => ({ field: [prefix, ...issue.path].filter((p) => p !== "").join("."), message: issue.message }));

/** A body that is not one JSON-RPC message or a batch of them, or a batch too large. */
export function messagesProblem(body: unknown): Response | null {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return envelopeError(400, "An empty batch is not a JSON-RPC request; send at least one message.");
  if (messages.length > MAX_BATCH_MESSAGES) {
    return envelopeError(413, `A batch holds at most ${MAX_BATCH_MESSAGES} messages; this one has ${messages.length}. Split it.`);
  }
  const searches = searchesIn(messages);
  if (searches > MAX_BATCH_SEARCHES) {
    return envelopeError(
      413,
      `A batch runs at most ${MAX_BATCH_SEARCHES} searches; this one has ${searches} (completions count as searches). Split it.`,
    );
  }
  for (const [index, message] of messages.entries()) {
    const where = Array.isArray(body) ? `[${index}]` : "";
    const parsed = JSONRPCMessageSchema.safeParse(message);
    if (!parsed.success) {
      return envelopeError(
        400,
        `The body${where ? ` (message ${where})` : ""} is not a JSON-RPC 2.0 message: it needs "jsonrpc": "2.0" and a method (with an id for a request).`,
        undefined,
        {
          details: issuesOf(parsed.error, where),
        },
      );
    }
  }
  return null;
}

/**
 * What only the 2025 era refuses before the SDK: an `MCP-Protocol-Version` it does not speak, or an
 * `initialize` whose params are wrong. (The 2026-07-28 revision has no `initialize`, and the SDK answers
 * its version errors in JSON-RPC, as that revision requires.)
 */
export function legacyProblem(header: string | undefined, body: unknown): Response | null {
  if (header !== undefined && !KNOWN_PROTOCOL_VERSIONS.includes(header)) {
    return envelopeError(
      400,
      `Unsupported MCP-Protocol-Version ${JSON.stringify(header)}; this server speaks ${KNOWN_PROTOCOL_VERSIONS.join(", ")}.`,
    );
  }
  for (const [index, message] of (Array.isArray(body) ? body : [body]).entries()) {
    if ((message as { method?: unknown }).method !== "initialize") continue;
    const initialize = InitializeRequestSchema.safeParse(message);
    if (!initialize.success) {
      return envelopeError(
        400,
        "The initialize request is malformed: it needs params.protocolVersion, params.capabilities and params.clientInfo {name, version}.",
        undefined,
        { details: issuesOf(initialize.error, Array.isArray(body) ? `[${index}]` : "") },
      );
    }
  }
  return null;
}

const STATUS_OF_SDK_ERROR: Record<number, 400 | 404 | 405 | 406 | 413 | 415> = { 404: 404, 405: 405, 406: 406, 413: 413, 415: 415 };

/**
 * The SDK's refusal of a 2025-era request (a JSON-RPC error body or a bare status) in SPEC's
 * envelope, keeping the status; successful answers pass through.
 */
export async function inEnvelope(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: { message?: unknown } } | null;
  const message = typeof body?.error?.message === "string" ? body.error.message : `The request was refused (HTTP ${response.status}).`;
  return envelopeError(STATUS_OF_SDK_ERROR[response.status] ?? (response.status >= 500 ? 500 : 400), message);
}
