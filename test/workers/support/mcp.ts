import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SELF } from "cloudflare:test";
import { beforeAll } from "vitest";

export const BASE = "https://mcp.example.com";
export const TOKEN_URL = `${BASE}/realms/hospitality/protocol/openid-connect/token`;
export const CLIENTS = {
  aurora: ["aurora-assistant", "aurora-secret"],
  boreal: ["boreal-assistant", "boreal-secret"],
  orphan: ["orphan-client", "orphan-secret"],
  kestrel: ["kestrel-assistant", "kestrel-secret"],
} as const;

type FixtureClient = keyof typeof CLIENTS;

/** The form fields of a client_credentials grant. */
export const credentialsGrant = (clientId: string, clientSecret: string): Record<string, string> => ({
  grant_type: "client_credentials",
  client_id: clientId,
  client_secret: clientSecret,
});

/** A form POST to the realm's token endpoint (at `url`, TOKEN_URL by default). */
export const realmTokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}, url = TOKEN_URL): Request =>
  new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });

/** The realm's token endpoint with client credentials in the form. */
export const clientCredentials = (clientId: string, clientSecret: string): Promise<Response> =>
  SELF.fetch(realmTokenRequest(credentialsGrant(clientId, clientSecret)));

export async function tokenOf(clientId: string, clientSecret: string): Promise<string> {
  const res = await clientCredentials(clientId, clientSecret);
  if (res.status !== 200) throw new Error(`token for ${clientId}: ${res.status} ${await res.text()}`);
  return (await res.json<{ access_token: string }>()).access_token;
}

export const tokenFor = (client: FixtureClient): Promise<string> => tokenOf(CLIENTS[client][0], CLIENTS[client][1]);

export const mcpHeaders = (token: string, sessionId?: string): Record<string, string> => ({
  Authorization: `Bearer ${token}`,
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  ...(sessionId ? { "mcp-session-id": sessionId } : {}),
});

export const initializeRequest = (id = 1, protocolVersion = "2025-03-26") => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "vitest", version: "1.0.0" } },
});

/** A POST of `body` as JSON to /v1/sse at `base`, with the token, the session and `headers`. */
export const mcpPost = (token: string, body: unknown, sessionId?: string, headers: Record<string, string> = {}, base = BASE): Request =>
  new Request(`${base}/v1/sse`, { method: "POST", headers: { ...mcpHeaders(token, sessionId), ...headers }, body: JSON.stringify(body) });

/** A GET of /v1/sse for the session's notification stream. */
export const mcpStream = (token: string, sessionId?: string, headers: Record<string, string> = {}): Request =>
  new Request(`${BASE}/v1/sse`, { headers: { ...mcpHeaders(token, sessionId), Accept: "text/event-stream", ...headers } });

/** A DELETE of /v1/sse, which ends the session. */
export const mcpDelete = (token: string, sessionId?: string): Request =>
  new Request(`${BASE}/v1/sse`, { method: "DELETE", headers: mcpHeaders(token, sessionId) });

export function post(token: string, body: unknown, sessionId?: string, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(mcpPost(token, body, sessionId, headers));
}

export async function openSession(token: string, protocolVersion = "2025-03-26"): Promise<string> {
  const res = await post(token, initializeRequest(1, protocolVersion));
  if (res.status !== 200) throw new Error(`initialize: ${res.status} ${await res.text()}`);
  const sessionId = res.headers.get("mcp-session-id");
  if (!sessionId) throw new Error("no mcp-session-id");
  await post(token, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId);
  return sessionId;
}

type RpcReply = { jsonrpc: "2.0"; id: number; result?: any; error?: { code: number; message: string } };

/** A JSON-RPC call on an open session; returns the parsed reply (HTTP must be 200). */
export async function rpc(token: string, sessionId: string, method: string, params?: unknown): Promise<RpcReply> {
  const res = await post(token, { jsonrpc: "2.0", id: 7, method, ...(params === undefined ? {} : { params }) }, sessionId);
  if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status} ${await res.text()}`);
  return await res.json<RpcReply>();
}

/**
 * tools/call returning the result (its JSON text, which every client gets; structuredContent, when
 * the session's protocol has it, must say the same), failing on any error.
 */
export async function callTool(token: string, sessionId: string, name: string, args: Record<string, unknown>): Promise<any> {
  const reply = await rpc(token, sessionId, "tools/call", { name, arguments: args });
  if (reply.error || reply.result?.isError) throw new Error(`${name}: ${JSON.stringify(reply.error ?? reply.result)}`);
  const result = JSON.parse(reply.result.content[0].text);
  if (reply.result.structuredContent !== undefined && JSON.stringify(reply.result.structuredContent) !== JSON.stringify(result)) {
    throw new Error(`${name}: structuredContent differs from the text`);
  }
  return result;
}

export async function expectEnvelope(res: Response, status: number, code: string): Promise<string> {
  if (res.status !== status) throw new Error(`expected HTTP ${status}, got ${res.status}: ${await res.text()}`);
  const body = await res.json<{ error?: { code?: string; message?: string } }>();
  if (body.error?.code !== code || typeof body.error.message !== "string") throw new Error(`bad envelope ${JSON.stringify(body)}`);
  return body.error.message;
}

/**
 * Realm tokens of the fixture's clients, fetched before the file's tests run: `const tokens =
 * realmTokens("aurora", "boreal")`, then `tokens.aurora` inside a test.
 */
export function realmTokens<N extends FixtureClient>(...names: N[]): Record<N, string> {
  const tokens = {} as Record<N, string>;
  beforeAll(async () => {
    await Promise.all(
      names.map(async (name) => {
        tokens[name] = await tokenFor(name);
      }),
    );
  });
  return tokens;
}

export interface Caller {
  token: string;
  session: string;
}

/**
 * For each fixture client, a realm token and an MCP session opened with it before the file's tests
 * run. The callers are filled in place, so `const { aurora } = openCallers("aurora")` may be written at once.
 */
export function openCallers<N extends FixtureClient>(...names: N[]): Record<N, Caller> {
  const callers = Object.fromEntries(names.map((name) => [name, { token: "", session: "" }])) as Record<N, Caller>;
  beforeAll(async () => {
    await Promise.all(
      names.map(async (name) => {
        const token = await tokenFor(name);
        Object.assign(callers[name], { token, session: await openSession(token) });
      }),
    );
  });
  return callers;
}

export type Fetcher = (request: Request) => Response | Promise<Response>;

export interface ClientOptions {
  /** The MCP endpoint (default /v1/sse). */
  endpoint?: string;
  /** The 2025-era versions the client offers, "modern" to pin 2026-07-28, or "auto" to probe and fall back. */
  versions?: string[] | "modern" | "auto";
  fetcher?: Fetcher;
  /** Sees every request the client sends. */
  onRequest?: (request: Request) => void;
}

/** The v2 SDK's own Client, connected with a bearer token through the Worker. */
export async function sdkClient(token: string, options: ClientOptions = {}): Promise<Client> {
  const { endpoint = "/v1/sse", versions = "modern", fetcher = (r: Request) => SELF.fetch(r), onRequest } = options;
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}${endpoint}`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      onRequest?.(request.clone());
      return fetcher(request);
    },
  });
  const info = { name: "vitest", version: "1.0.0" };
  const client =
    versions === "modern" || versions === "auto"
      ? new Client(info, { versionNegotiation: { mode: versions === "modern" ? { pin: "2026-07-28" } : "auto" } })
      : new Client(info, { supportedProtocolVersions: versions });
  await client.connect(transport);
  return client;
}
