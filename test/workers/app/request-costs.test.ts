import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HEALTH_PROBE_CACHE_MS } from "../../../src/health/routes";
import { MAX_BATCH_MESSAGES, MAX_BATCH_SEARCHES, MAX_MCP_BODY_BYTES, SEARCH_COST } from "../../../src/mcp/request-checks";
import { MAX_CLIENT_INFO_LENGTH } from "../../../src/mcp/streamable";
import { API_KEY_MAX_AGE_MS } from "../../../src/catalogue/api-keys";
import { mcpResources } from "../../../src/oauth/server";
import { INVALID_CONNECTOR_TOKEN_CACHE_MS } from "../../../src/oauth/tokens";
import { MAX_TOKEN_BODY_BYTES } from "../../../src/rate-limit/token-requests";
import { adminJson, newApiKey, tokenForNewOrganization } from "../support/admin";
import { counting, fetchWith } from "../support/app";
import { contentRequest, expectErrorResponse, get, insertApiKeyRow } from "../support/content";
import {
  BASE,
  CLIENTS,
  credentialsGrant,
  expectEnvelope,
  initializeRequest,
  mcpHeaders,
  mcpPost,
  post,
  realmTokenRequest,
  TOKEN_URL,
} from "../support/mcp";
import { sessionObject } from "../../../src/mcp/session";
import { GUEST_QUESTION } from "../../../src/mcp/prompts";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A body of exactly `bytes` bytes: `prefix`, padding, `suffix`. */
const padded = (prefix: string, suffix: string, bytes: number) => prefix + "x".repeat(bytes - prefix.length - suffix.length) + suffix;

/** A body with no Content-Length: the bytes arrive as a stream, as a chunked upload does. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += 64 * 1024) controller.enqueue(bytes.slice(offset, offset + 64 * 1024));
      controller.close();
    },
  });
}

describe("request bodies are capped before they are parsed, counting the bytes as they arrive", () => {
  const mcpBody = (token: string, body: BodyInit) => SELF.fetch(`${BASE}/v1/sse`, { method: "POST", headers: mcpHeaders(token), body });
  const ping = (bytes: number) => padded('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"', '"}}}', bytes);

  it(`MCP: ${MAX_MCP_BODY_BYTES} bytes are read, one more is 413 in the envelope, with or without Content-Length`, async () => {
    const token = await tokenForNewOrganization("org-body-cap", ["DMO-LIS"]);
    const atLimit = await mcpBody(token, ping(MAX_MCP_BODY_BYTES));
    expect(atLimit.status).not.toBe(413);
    expect(await expectEnvelope(await mcpBody(token, ping(MAX_MCP_BODY_BYTES + 1)), 413, "payload_too_large")).toMatch(
      /larger than 1048576 bytes/,
    );
    await expectEnvelope(await mcpBody(token, streamed(ping(MAX_MCP_BODY_BYTES + 1))), 413, "payload_too_large");
    expect((await mcpBody(token, streamed(ping(MAX_MCP_BODY_BYTES)))).status).not.toBe(413);
  });

  it(`realm token endpoint: ${MAX_TOKEN_BODY_BYTES} bytes are read, one more is 413 in OAuth JSON, with or without Content-Length`, async () => {
    const form = (bytes: number) =>
      padded("grant_type=client_credentials&client_id=aurora-assistant&client_secret=aurora-secret&pad=", "", bytes);
    const post = (body: BodyInit) =>
      SELF.fetch(TOKEN_URL, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
    expect((await post(form(MAX_TOKEN_BODY_BYTES))).status).toBe(200);
    for (const body of [form(MAX_TOKEN_BODY_BYTES + 1), streamed(form(MAX_TOKEN_BODY_BYTES + 1))]) {
      const res = await post(body);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: "invalid_request", error_description: "The request body is larger than 16384 bytes." });
    }
    expect((await post(streamed(form(MAX_TOKEN_BODY_BYTES)))).status).toBe(200);
  });

  it.each(["/token", "/register", "/realms/hospitality/protocol/openid-connect/token", "/v1/sse", "/admin/v1/organizations"])(
    "GET %s with a Content-Length (so a body stream) is answered, never a 500",
    async (path) => {
      for (const length of ["0", "-1"]) {
        const res = await SELF.fetch(`${BASE}${path}`, {
          headers: { "Content-Length": length, Authorization: `Bearer ${env.ADMIN_TOKEN}` },
        });
        expect(res.status).toBeLessThan(500);
      }
    },
  );

  it.each(["/token", "/register"])("connector %s: one byte past 16 KiB is 413 in OAuth JSON", async (path) => {
    const type = path === "/token" ? "application/x-www-form-urlencoded" : "application/json";
    const body =
      path === "/token"
        ? padded("grant_type=refresh_token&pad=", "", MAX_TOKEN_BODY_BYTES + 1)
        : padded('{"redirect_uris":["', '"]}', MAX_TOKEN_BODY_BYTES + 1);
    const res = await SELF.fetch(`${BASE}${path}`, { method: "POST", headers: { "Content-Type": type }, body: streamed(body) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
    const atLimit = await SELF.fetch(`${BASE}${path}`, { method: "POST", headers: { "Content-Type": type }, body: body.slice(1) });
    expect(atLimit.status).not.toBe(413);
  });
});

describe("a JSON-RPC batch counts every request in it against the organization's limit", () => {
  const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "service_list_entities", arguments: {} } });
  const batch = (size: number, from = 1) => Array.from({ length: size }, (_, i) => call(from + i));

  it("counts 6 calls as 6, refuses a batch that does not fit whole (counting none of it), and admits one that does", async () => {
    const token = await tokenForNewOrganization("org-batch-cost", ["DMO-LIS"]);
    const vars = { MCP_RATE_LIMIT: "10" };
    const send = (body: unknown, sessionId?: string) => fetchWith(mcpPost(token, body, sessionId), vars);

    const opened = await send(initializeRequest()); // 1 of 10
    const sessionId = opened.headers.get("mcp-session-id")!;
    const six = await send(batch(6), sessionId); // 7 of 10
    expect(six.status).toBe(200);
    expect((await six.json<unknown[]>()).length).toBe(6);

    const four = await send(batch(4, 10), sessionId);
    expect(await expectEnvelope(four, 429, "rate_limited")).toMatch(/This batch counts 4 requests and only 3 .* are left/);
    expect(four.headers.get("X-RateLimit-Remaining")).toBe("3");

    const three = await send(batch(3, 20), sessionId); // 10 of 10: the refused batch counted nothing
    expect(three.status).toBe(200);
    await expectEnvelope(await send(call(30), sessionId), 429, "rate_limited");
  });

  it(`refuses a batch of more than ${MAX_BATCH_MESSAGES} messages with 413, counting it once`, async () => {
    const token = await tokenForNewOrganization("org-batch-size", ["DMO-LIS"]);
    const vars = { MCP_RATE_LIMIT: "3" };
    const send = (body: unknown) => fetchWith(mcpPost(token, body), vars);
    expect(await expectEnvelope(await send(batch(MAX_BATCH_MESSAGES + 1)), 413, "payload_too_large")).toMatch(
      /at most 50 messages; this one has 51/,
    );
    // The refused batch used one of three: two more are admitted, then 429.
    expect((await send(initializeRequest())).status).toBe(200);
    expect((await send(initializeRequest())).status).toBe(200);
    await expectEnvelope(await send(initializeRequest()), 429, "rate_limited");
  });
});

describe("concurrent requests against a limit", () => {
  it("admit exactly 5 of 20 concurrent content requests on a 5/h key", async () => {
    const { key } = await newApiKey({ partner: "Concurrent", hourlyLimit: 5 });
    const responses = await Promise.all(Array.from({ length: 20 }, () => get("/api/v3/content/HO-AUR/properties", key)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const remaining = responses
      .filter((r) => r.status === 200)
      .map((r) => r.headers.get("X-RateLimit-Remaining"))
      .sort();
    expect(remaining).toEqual(["0", "1", "2", "3", "4"]);
  });

  it("admit exactly 3 of 12 concurrent token requests from one address with a limit of 3", async () => {
    const request = () => realmTokenRequest(credentialsGrant(...CLIENTS.aurora), { "CF-Connecting-IP": "198.51.100.23" });
    const responses = await Promise.all(Array.from({ length: 12 }, () => fetchWith(request(), { TOKEN_RATE_LIMIT_PER_ADDRESS: "3" })));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(9);
  });
});

describe("a search weighs more than a lookup, and a batch runs a bounded number of searches", () => {
  const tool = (id: number, name: string, args: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });
  const searchCall = (id: number) => tool(id, "service_search_documents", { query: "tourist tax" });

  it(`counts a search and a question to rank as ${SEARCH_COST} requests, a lookup as 1`, async () => {
    const token = await tokenForNewOrganization("org-search-cost", ["DMO-LIS"]);
    const send = (body: unknown, sessionId?: string) => fetchWith(mcpPost(token, body, sessionId), { MCP_RATE_LIMIT: "7" });
    const sessionId = (await send(initializeRequest())).headers.get("mcp-session-id")!; // 1 of 7
    expect((await send(searchCall(2), sessionId)).status).toBe(200); // 3
    expect((await send(tool(3, "service_query", { entity: "DMO-LIS", question: "tourist tax" }), sessionId)).status).toBe(200); // 5
    expect((await send(tool(4, "service_query", { entity: "DMO-LIS" }), sessionId)).status).toBe(200); // 6
    const refused = await send(searchCall(5), sessionId);
    expect(await expectEnvelope(refused, 429, "rate_limited")).toMatch(/counts 2 requests and only 1/);
    expect((await send(tool(6, "service_list_entities", {}), sessionId)).status).toBe(200); // 7
  });

  it(`runs a batch of ${MAX_BATCH_SEARCHES} searches, refuses ${MAX_BATCH_SEARCHES + 1} with 413 counting it once`, async () => {
    const token = await tokenForNewOrganization("org-batch-searches", ["DMO-LIS"]);
    const send = (body: unknown, sessionId?: string) => fetchWith(mcpPost(token, body, sessionId), { MCP_RATE_LIMIT: "30" });
    const sessionId = (await send(initializeRequest())).headers.get("mcp-session-id")!; // 1 of 30
    const searches = (n: number, from: number) => Array.from({ length: n }, (_, i) => searchCall(from + i));
    const ten = await send(searches(MAX_BATCH_SEARCHES, 10), sessionId); // 21
    expect(ten.status).toBe(200);
    expect((await ten.json<unknown[]>()).length).toBe(MAX_BATCH_SEARCHES);
    const eleven = await send(searches(MAX_BATCH_SEARCHES + 1, 30), sessionId); // 22
    expect(await expectEnvelope(eleven, 413, "payload_too_large")).toMatch(/at most 10 searches; this one has 11/);
    expect(await expectEnvelope(await send(searches(5, 50), sessionId), 429, "rate_limited")).toMatch(/counts 10 requests and only 8/);
  });
});

describe("a completion weighs as a search, and counts towards a batch's searches", () => {
  const completion = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "completion/complete",
    params: { ref: { type: "ref/prompt", name: GUEST_QUESTION.name }, argument: { name: "entity", value: "aurora lisb" } },
  });
  const searchCall = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "service_search_documents", arguments: { query: "tourist tax" } },
  });
  const mixed = (completions: number, searches: number, from: number) => [
    ...Array.from({ length: completions }, (_, i) => completion(from + i)),
    ...Array.from({ length: searches }, (_, i) => searchCall(from + completions + i)),
  ];

  it(`counts a completion as ${SEARCH_COST}, runs ${MAX_BATCH_SEARCHES} completions and searches in a batch, refuses one more counting it once`, async () => {
    const token = await tokenForNewOrganization("org-completion-cost", ["HO-AUR"]);
    const send = (body: unknown, sessionId?: string) => fetchWith(mcpPost(token, body, sessionId), { MCP_RATE_LIMIT: "32" });
    const sessionId = (await send(initializeRequest())).headers.get("mcp-session-id")!; // 1 of 32
    expect((await send(completion(2), sessionId)).status).toBe(200); // 3
    const ten = await send(mixed(6, MAX_BATCH_SEARCHES - 6, 10), sessionId); // 23
    expect(ten.status).toBe(200);
    expect((await ten.json<unknown[]>()).length).toBe(MAX_BATCH_SEARCHES);
    const eleven = await send(mixed(MAX_BATCH_SEARCHES + 1, 0, 30), sessionId); // 24
    expect(await expectEnvelope(eleven, 413, "payload_too_large")).toMatch(/at most 10 searches; this one has 11 \(completions/);
    expect(await expectEnvelope(await send(mixed(3, 2, 50), sessionId), 429, "rate_limited")).toMatch(/counts 10 requests and only 8/);
  });
});

describe("token endpoints are rate limited per address and per client", () => {
  const realm = (clientId: string, secret: string, address: string) =>
    realmTokenRequest(credentialsGrant(clientId, secret), { "CF-Connecting-IP": address });

  it("counts wrong secrets too, answers 429 with Retry-After, and keeps other addresses apart (an IPv6 /64 is one address)", async () => {
    const vars = { TOKEN_RATE_LIMIT_PER_ADDRESS: "2" };
    expect((await fetchWith(realm("aurora-assistant", "wrong", "2001:db8:aa:1::1"), vars)).status).toBe(401);
    expect((await fetchWith(realm("aurora-assistant", "aurora-secret", "2001:db8:aa:1:ffff::2"), vars)).status).toBe(200);
    const limited = await fetchWith(realm("aurora-assistant", "aurora-secret", "2001:0db8:00aa:0001:1234:5678:9abc:def0"), vars);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      error: "temporarily_unavailable",
      error_description: expect.stringMatching(/at most 2 an hour; retry after \d+ s/),
    });
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await fetchWith(realm("aurora-assistant", "aurora-secret", "2001:db8:aa:2::1"), vars)).status).toBe(200);
  });

  it("never lets wrong secrets spend the client's hour: failures count per client and address", async () => {
    const vars = { TOKEN_RATE_LIMIT_PER_CLIENT: "2", TOKEN_FAILURES_PER_CLIENT_ADDRESS: "2" };
    const bot = await adminJson("POST", "/identity-clients", { clientId: "limited-bot", organizationId: "org-boreal" }, 201);
    expect((await fetchWith(realm("limited-bot", "guess-1", "192.0.2.1"), vars)).status).toBe(401);
    expect((await fetchWith(realm("limited-bot", "guess-2", "192.0.2.1"), vars)).status).toBe(401);
    const throttled = await fetchWith(realm("limited-bot", bot.clientSecret, "192.0.2.1"), vars);
    expect(throttled.status).toBe(429);
    expect((await throttled.json<{ error_description: string }>()).error_description).toMatch(/failed attempts .* at most 2 an hour/);
    // The right secret from elsewhere is served, exactly the client's hour, then refused.
    expect((await fetchWith(realm("limited-bot", bot.clientSecret, "192.0.2.2"), vars)).status).toBe(200);
    expect((await fetchWith(realm("limited-bot", bot.clientSecret, "192.0.2.3"), vars)).status).toBe(200);
    expect((await fetchWith(realm("limited-bot", bot.clientSecret, "192.0.2.4"), vars)).status).toBe(429);
    expect((await fetchWith(realm("boreal-assistant", "boreal-secret", "192.0.2.4"), vars)).status).toBe(200);
  });

  it("issues exactly the client's hour to concurrent requests with the right secret, whatever failed before", async () => {
    const vars = { TOKEN_RATE_LIMIT_PER_CLIENT: "3", TOKEN_FAILURES_PER_CLIENT_ADDRESS: "3" };
    const bot = await adminJson("POST", "/identity-clients", { clientId: "busy-bot", organizationId: "org-boreal" }, 201);
    await Promise.all(Array.from({ length: 10 }, (_, i) => fetchWith(realm("busy-bot", `guess-${i}`, "198.51.100.66"), vars)));
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => fetchWith(realm("busy-bot", bot.clientSecret, `203.0.113.${i}`), vars)),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(9);
  });

  it("limits the connector flow's /token per client and per address, and /register per address", async () => {
    const connectorToken = (address: string, clientId = "demo-connector") =>
      new Request(`${BASE}/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": address },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "a:b:c", client_id: clientId }),
      });
    const failures = { TOKEN_FAILURES_PER_CLIENT_ADDRESS: "1", TOKEN_RATE_LIMIT_PER_CLIENT: "1" };
    expect((await fetchWith(connectorToken("192.0.2.10", "rate-client"), failures)).status).toBe(401);
    expect((await fetchWith(connectorToken("192.0.2.10", "rate-client"), failures)).status).toBe(429);
    expect((await fetchWith(connectorToken("192.0.2.11", "rate-client"), failures)).status).toBe(401);

    const perAddress = { TOKEN_RATE_LIMIT_PER_ADDRESS: "1" };
    expect((await fetchWith(connectorToken("192.0.2.20"), perAddress)).status).not.toBe(429);
    expect((await fetchWith(connectorToken("192.0.2.20"), perAddress)).status).toBe(429);
    const register = () =>
      new Request(`${BASE}/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.30" },
        body: JSON.stringify({ redirect_uris: ["https://evil.example/cb"] }),
      });
    expect((await fetchWith(register(), perAddress)).status).not.toBe(429);
    const refused = await fetchWith(register(), perAddress);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  it("refuses a client ID with control characters or of more than 255 characters with 400, never a 500", async () => {
    for (const clientId of ["bot\r\nX-Injected: 1", "a".repeat(256)]) {
      const res = await SELF.fetch(realmTokenRequest(credentialsGrant(clientId, "x")));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_request" });
    }
    const basic = await SELF.fetch(
      realmTokenRequest({ grant_type: "client_credentials" }, { Authorization: `Basic ${btoa("bot%0D%0Ainjected:secret")}` }),
    );
    expect(basic.status).toBe(400);
  });
});

describe("a flood of made-up credentials costs no storage query each", () => {
  it(`remembers an unknown API key for ${API_KEY_MAX_AGE_MS / 1000} s: one D1 query for a repeated key, and a key created meanwhile works after that`, async () => {
    const db = counting(env.DB, ["batch", "prepare"]);
    const made = `made-up-${crypto.randomUUID()}`;
    const request = () => contentRequest("/api/v3/content/HO-AUR/properties", made);
    for (let i = 0; i < 20; i++)
      await expectErrorResponse(await fetchWith(request(), { DB: db.binding }), 401, "Unauthorized", "/api/v3/content/HO-AUR/properties");
    expect(db.calls()).toBe(1); // the first request's lookup only

    await insertApiKeyRow(made, { hourlyLimit: 10 });
    expect((await fetchWith(request())).status).toBe(401);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + API_KEY_MAX_AGE_MS);
    expect((await fetchWith(request())).status).toBe(200);
  });

  it(`remembers a refused connector token for ${INVALID_CONNECTOR_TOKEN_CACHE_MS / 1000} s: one lookup for a repeated made-up token`, async () => {
    const kv = counting(env.OAUTH_KV, ["get"]);
    const made = `user-x:${crypto.randomUUID()}:secret`;
    const attempt = async () => {
      const res = await fetchWith(mcpPost(made, initializeRequest()), { OAUTH_KV: kv.binding });
      await expectEnvelope(res, 401, "unauthorized");
    };
    for (let i = 0; i < 20; i++) await attempt();
    const lookups = kv.calls();
    expect(lookups).toBeGreaterThan(0);
    expect(lookups).toBeLessThanOrEqual(mcpResources("https://mcp.example.com").length); // the provider looks once per accepted resource
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + INVALID_CONNECTOR_TOKEN_CACHE_MS);
    await attempt();
    expect(kv.calls()).toBe(2 * lookups);
  });
});

describe("/health under a flood", () => {
  it(`probes D1 and the Durable Objects at most once per ${HEALTH_PROBE_CACHE_MS / 1000} s per isolate, however many ask`, async () => {
    const db = counting({ prepare: (sql: string) => env.DB.prepare(sql) } as D1Database, ["prepare"]);
    const responses = await Promise.all(Array.from({ length: 200 }, () => fetchWith(new Request(`${BASE}/health`), { DB: db.binding })));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(db.calls()).toBe(1);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + HEALTH_PROBE_CACHE_MS);
    expect((await fetchWith(new Request(`${BASE}/health`), { DB: db.binding })).status).toBe(200);
    expect(db.calls()).toBe(2);
  });
});

describe("client-chosen strings kept in a session", () => {
  it(`keep at most ${MAX_CLIENT_INFO_LENGTH} characters of clientInfo, without control characters`, async () => {
    const token = await tokenForNewOrganization("org-client-info", ["DMO-LIS"]);
    const request = initializeRequest();
    request.params.clientInfo = { name: `evil\r\n${"n".repeat(100_000)}`, version: "v".repeat(5_000) };
    const res = await post(token, request);
    expect(res.status).toBe(200);
    const sessionId = res.headers.get("mcp-session-id")!;
    const stored = await sessionObject(env, sessionId).touch({
      clientId: (await clientOf("org-client-info"))!,
      issuer: "realm",
      organizationId: "org-client-info",
    });
    expect(stored!.clientInfo!.name).toHaveLength(MAX_CLIENT_INFO_LENGTH);
    expect(stored!.clientInfo!.name).toMatch(/^evilnnn/);
    expect(stored!.clientInfo!.version).toHaveLength(MAX_CLIENT_INFO_LENGTH);
  });
});

async function clientOf(organizationId: string): Promise<string | undefined> {
  const row = await env.DB.prepare("SELECT client_id FROM identity_clients WHERE organization_id = ?")
    .bind(organizationId)
    .first<{ client_id: string }>();
  return row?.client_id;
}
