import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACTIVITY_WRITE_INTERVAL_MS } from "../../../src/mcp/session";
import { adminJson, tokenForNewOrganization } from "../support/admin";
import { fetchWith } from "../support/app";
import { keepAliveStream } from "../support/sse";
import {
  BASE,
  expectEnvelope,
  initializeRequest,
  mcpDelete,
  mcpHeaders,
  mcpPost,
  mcpStream,
  openSession,
  post,
  realmTokens,
  rpc,
  tokenFor,
  tokenOf,
} from "../support/mcp";

const tokens = realmTokens("aurora", "boreal");
afterEach(() => vi.useRealTimers());

const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" };
const sessionStub = (id: string) => env.MCP_SESSION.get(env.MCP_SESSION.idFromName(id));

describe("MCP session states (SPEC)", () => {
  it("none → open: initialize without mcp-session-id returns a UUID session ID and negotiates 2025-03-26", async () => {
    const res = await post(tokens.aurora, initializeRequest());
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const body = await res.json<{ id: number; result: { protocolVersion: string; capabilities: { tools?: object } } }>();
    expect(body.id).toBe(1);
    expect(body.result.protocolVersion).toBe("2025-03-26");
    expect(body.result.capabilities.tools).toBeDefined();
  });

  it("open → open: calls that echo the session ID are served", async () => {
    const sessionId = await openSession(tokens.aurora);
    const reply = await rpc(tokens.aurora, sessionId, "tools/list");
    expect(reply.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      "service_list_entities",
      "service_query",
      "service_search_documents",
    ]);
  });

  it("none → none: a non-initialize call without mcp-session-id is 400 bad_request", async () => {
    await openSession(tokens.aurora);
    const message = await expectEnvelope(await post(tokens.aurora, listTools), 400, "bad_request");
    expect(message).toMatch(/mcp-session-id/);
  });

  it("open → terminated: DELETE ends the session (204); later calls and a second DELETE get 404 not_found", async () => {
    const sessionId = await openSession(tokens.aurora);
    const del = await SELF.fetch(mcpDelete(tokens.aurora, sessionId));
    expect(del.status).toBe(204);
    await expectEnvelope(await post(tokens.aurora, listTools, sessionId), 404, "not_found");
    await expectEnvelope(await SELF.fetch(mcpDelete(tokens.aurora, sessionId)), 404, "not_found");
  });

  it("DELETE needs a valid bearer token and the session header", async () => {
    const sessionId = await openSession(tokens.aurora);
    await expectEnvelope(
      await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: { "mcp-session-id": sessionId } }),
      401,
      "unauthorized",
    );
    await expectEnvelope(await SELF.fetch(mcpDelete(tokens.aurora)), 400, "bad_request");
    expect((await post(tokens.aurora, listTools, sessionId)).status).toBe(200);
  });

  it("answers 404 to an unknown session ID, well-formed or not", async () => {
    await expectEnvelope(await post(tokens.aurora, listTools, crypto.randomUUID()), 404, "not_found");
    await expectEnvelope(await post(tokens.aurora, listTools, "not-a-uuid"), 404, "not_found");
  });

  it("binds a session to its client: another organization's token gets 404, from both sides, and cannot end it", async () => {
    const auroraSession = await openSession(tokens.aurora);
    const borealSession = await openSession(tokens.boreal);
    await expectEnvelope(await post(tokens.boreal, listTools, auroraSession), 404, "not_found");
    await expectEnvelope(await post(tokens.aurora, listTools, borealSession), 404, "not_found");
    await expectEnvelope(await SELF.fetch(mcpDelete(tokens.boreal, auroraSession)), 404, "not_found");
    expect((await post(tokens.aurora, listTools, auroraSession)).status).toBe(200);
    expect((await post(tokens.boreal, listTools, borealSession)).status).toBe(200);
  });

  it("refuses initialize with a session header, initialize in a batch, and serves batches of other calls", async () => {
    const sessionId = await openSession(tokens.aurora);
    await expectEnvelope(await post(tokens.aurora, initializeRequest(), sessionId), 400, "bad_request");
    await expectEnvelope(await post(tokens.aurora, [initializeRequest(), listTools]), 400, "bad_request");
    const batch = await post(tokens.aurora, [listTools, { ...listTools, id: 3 }], sessionId);
    expect(batch.status).toBe(200);
    const replies = await batch.json<{ id: number }[]>();
    expect(replies.map((r) => r.id).sort()).toEqual([2, 3]);
  });

  it.each([
    ["malformed JSON", "{not json", {}, 400, "bad_request", /not valid JSON/],
    ["an empty batch", "[]", {}, 400, "bad_request", /empty batch/],
    [
      "another Content-Type",
      JSON.stringify(listTools),
      { "Content-Type": "application/json-patch+json" },
      415,
      "unsupported_media_type",
      /must be application\/json, not application\/json-patch\+json/,
    ],
    ["text/plain", JSON.stringify(listTools), { "Content-Type": "text/plain" }, 415, "unsupported_media_type", /must be application\/json/],
    [
      "an Accept without text/event-stream",
      JSON.stringify(listTools),
      { Accept: "application/json" },
      406,
      "not_acceptable",
      /Accept must admit application\/json and text\/event-stream/,
    ],
    [
      "an unsupported MCP-Protocol-Version",
      JSON.stringify(listTools),
      { "MCP-Protocol-Version": "1999-01-01" },
      400,
      "bad_request",
      /Unsupported MCP-Protocol-Version "1999-01-01"; this server speaks 2026-07-28, 2025-11-25/,
    ],
    ["a body that is not JSON-RPC", JSON.stringify({ hello: "world" }), {}, 400, "bad_request", /not a JSON-RPC 2\.0 message/],
    [
      "a batch of 51",
      JSON.stringify(Array.from({ length: 51 }, (_, i) => ({ ...listTools, id: i }))),
      {},
      413,
      "payload_too_large",
      /at most 50 messages/,
    ],
  ])("answers %s in SPEC's envelope with a message that says what to change", async (_, body, headers, status, code, message) => {
    const sessionId = await openSession(tokens.aurora);
    const res = await SELF.fetch(`${BASE}/v1/sse`, {
      method: "POST",
      headers: { ...mcpHeaders(tokens.aurora, sessionId), ...headers },
      body,
    });
    expect(await expectEnvelope(res, status, code)).toMatch(message);
  });

  it("answers a malformed initialize with what is wrong, not with 'session id required'", async () => {
    const res = await post(tokens.aurora, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26" } });
    expect(await expectEnvelope(res, 400, "bad_request")).toMatch(/initialize request is malformed/);
    const body = await (
      await post(tokens.aurora, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} })
    ).json<{
      error: { details: { field: string }[] };
    }>();
    expect(body.error.details.map((d) => d.field)).toEqual(expect.arrayContaining(["params.protocolVersion", "params.clientInfo"]));
  });

  it("serves Accept: */* (curl's default) and a request without Accept", async () => {
    const res = await post(tokens.aurora, initializeRequest(), undefined, { Accept: "*/*" });
    expect(res.status).toBe(200);
    const sessionId = res.headers.get("mcp-session-id")!;
    const bare = await SELF.fetch(`${BASE}/v1/sse`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.aurora}`, "Content-Type": "application/json", "mcp-session-id": sessionId },
      body: JSON.stringify(listTools),
    });
    expect(bare.status).toBe(200);
  });

  it("answers an unknown method with a JSON-RPC error (-32601), never a 500", async () => {
    const sessionId = await openSession(tokens.aurora);
    const res = await post(tokens.aurora, { jsonrpc: "2.0", id: 9, method: "no/such/method" }, sessionId);
    expect(res.status).toBe(200);
    expect((await res.json<{ error: { code: number } }>()).error.code).toBe(-32601);
  });

  it("expires an idle session (30 min) by alarm, and at once when a late call finds it past expiry", async () => {
    const sessionId = await openSession(tokens.aurora);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    expect(await runDurableObjectAlarm(sessionStub(sessionId))).toBe(true);
    // Tokens live 5 minutes: the later calls use a token issued at the later time.
    await expectEnvelope(await post(await tokenFor("aurora"), listTools, sessionId), 404, "not_found");

    vi.useRealTimers();
    const other = await openSession(tokens.aurora);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    await expectEnvelope(await post(await tokenFor("aurora"), listTools, other), 404, "not_found");
  });

  it(`writes activity at most every ${ACTIVITY_WRITE_INTERVAL_MS / 1000} s: idle expiry counts from the last call, or after an eviction from the last write`, async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    const at = async (ms: number, sessionId: string) => {
      vi.setSystemTime(start + ms);
      return (await post(await tokenFor("aurora"), listTools, sessionId)).status;
    };
    const kept = await openSession(tokens.aurora);
    expect(await at(20_000, kept)).toBe(200); // in memory only
    expect(await at(20_000 + 30 * 60_000 - 1, kept)).toBe(200); // idle 30 min from the last call, less 1 ms

    vi.setSystemTime(start);
    const evicted = await openSession(tokens.aurora);
    expect(await at(20_000, evicted)).toBe(200);
    await evictDurableObject(sessionStub(evicted));
    expect(await at(30 * 60_000, evicted)).toBe(404); // the write at open is the last it knows: up to 30 s early
  });

  it("keeps an active session past 30 minutes but ends it at the 24-hour absolute limit", async () => {
    const sessionId = await openSession(tokens.aurora);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let minutes = 25; minutes < 24 * 60; minutes += 25) {
      vi.setSystemTime(start + minutes * 60_000);
      expect((await post(await tokenFor("aurora"), listTools, sessionId)).status).toBe(200);
    }
    vi.setSystemTime(start + 24 * 60 * 60_000 + 1);
    await expectEnvelope(await post(await tokenFor("aurora"), listTools, sessionId), 404, "not_found");
  });

  it("survives the session object being evicted from memory", async () => {
    const sessionId = await openSession(tokens.aurora);
    await evictDurableObject(sessionStub(sessionId));
    expect((await post(tokens.aurora, listTools, sessionId)).status).toBe(200);
  });

  it("GET opens the notification stream of a live session; for an unknown one it is 404", async () => {
    const sessionId = await openSession(tokens.aurora);
    const res = await SELF.fetch(mcpStream(tokens.aurora, sessionId));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^: /);
    await reader.cancel();

    await expectEnvelope(await SELF.fetch(mcpStream(tokens.aurora, crypto.randomUUID())), 404, "not_found");
    await expectEnvelope(await SELF.fetch(mcpStream(tokens.aurora, sessionId, { Accept: "application/json" })), 406, "not_acceptable");
  });
});

describe("the GET notification stream", () => {
  it("sends keep-alives while the session lives, and ends when the session ends", async () => {
    const sessionId = await openSession(tokens.aurora);
    const stream = await keepAliveStream(tokens.aurora, sessionId);
    expect(await stream.next()).toBe(": stream open\n\n");
    expect(await stream.next()).toBe(": keep-alive\n\n");

    expect((await SELF.fetch(mcpDelete(tokens.aurora, sessionId))).status).toBe(204);
    expect(await stream.ended()).toBe(true);
  });
});

describe("the GET notification stream, when things go wrong", () => {
  it("ends cleanly, instead of hanging, when the session's storage starts failing", async () => {
    const sessionId = await openSession(tokens.aurora);
    const stream = await keepAliveStream(tokens.aurora, sessionId);
    expect(await stream.next()).toBe(": stream open\n\n");
    await runInDurableObject(sessionStub(sessionId), (_, state) => {
      vi.spyOn(state.storage, "get").mockRejectedValue(new Error("storage is gone"));
      vi.spyOn(state.storage, "put").mockRejectedValue(new Error("storage is gone"));
    });
    // The next keep-alive that writes the session's activity (at most ACTIVITY_WRITE_INTERVAL_MS apart) fails and closes the stream.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + ACTIVITY_WRITE_INTERVAL_MS);
    expect(await stream.ended()).toBe(true);
  });

  it.each(["HEAD", "PUT", "PATCH"])("answers %s /v1/sse with 405 and Allow, opening no stream", async (method) => {
    const res = await SELF.fetch(new Request(mcpStream(tokens.aurora), { method }));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, POST, DELETE, OPTIONS");
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    if (method !== "HEAD")
      expect(await expectEnvelope(res, 405, "method_not_allowed")).toMatch(
        new RegExp(`${method} is not served at /v1/sse; use GET, POST, DELETE`),
      );
  });

  it("answers GET /v1/messages with 405 and Allow: POST", async () => {
    const res = await SELF.fetch(`${BASE}/v1/messages?sessionId=x`, { headers: mcpHeaders(tokens.aurora) });
    expect(res.headers.get("Allow")).toBe("POST, OPTIONS");
    await expectEnvelope(res, 405, "method_not_allowed");
  });
});

describe("MCP host protections", () => {
  const configured = (request: Request) => fetchWith(request, { BASE_URL: BASE });

  it("refuses a request from an origin that is not allow-listed with 403, and allows its configured origin", async () => {
    await expectEnvelope(
      await post(tokens.aurora, initializeRequest(), undefined, { Origin: "https://evil.example.com" }),
      403,
      "forbidden",
    );
    const own = await configured(mcpPost(tokens.aurora, initializeRequest(), undefined, { Origin: BASE }));
    expect(own.status).toBe(200);
    expect(own.headers.get("Access-Control-Allow-Origin")).toBe(BASE);
    expect(own.headers.get("Access-Control-Expose-Headers")).toMatch(/mcp-session-id/);
  });

  it("takes the allowed origins from configuration, never from the request's Host (a rebound name agrees with itself)", async () => {
    const rebound = "https://rebound.attacker.example";
    const asked = (vars: Partial<typeof env>) =>
      fetchWith(mcpPost(tokens.aurora, initializeRequest(), undefined, { Origin: rebound }, rebound), vars);
    await expectEnvelope(await asked({}), 403, "forbidden");
    await expectEnvelope(await asked({ BASE_URL: BASE }), 403, "forbidden");
    // Without BASE_URL even the service's real name is only allowed once configured.
    await expectEnvelope(await post(tokens.aurora, initializeRequest(), undefined, { Origin: BASE }), 403, "forbidden");
  });

  it("allows loopback origins in development only", async () => {
    const call = (ENVIRONMENT: string) =>
      fetchWith(mcpPost(tokens.aurora, initializeRequest(), undefined, { Origin: "http://localhost:6274" }), { ENVIRONMENT });
    expect((await call("development")).status).toBe(200);
    await expectEnvelope(await call("production"), 403, "forbidden");
  });

  it("allows origins listed in ALLOWED_ORIGINS", async () => {
    const res = await fetchWith(mcpPost(tokens.aurora, initializeRequest(), undefined, { Origin: "https://console.partner.example" }), {
      ALLOWED_ORIGINS: "https://other.example, https://console.partner.example",
    });
    expect(res.status).toBe(200);
  });

  it("answers CORS preflight before authentication, exposing mcp-session-id and WWW-Authenticate", async () => {
    const res = await configured(
      new Request(`${BASE}/v1/sse`, {
        method: "OPTIONS",
        headers: {
          Origin: BASE,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "authorization, mcp-session-id",
        },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(BASE);
    expect(res.headers.get("Access-Control-Allow-Headers")).toMatch(/mcp-session-id/i);
    expect(res.headers.get("Access-Control-Allow-Methods")).toMatch(/DELETE/);
  });

  it("refuses plain HTTP outside loopback with the MCP envelope", async () => {
    await expectEnvelope(await SELF.fetch("http://mcp.example.com/v1/sse", { method: "POST" }), 403, "forbidden");
  });

  it("admits exactly the organization's hourly limit, then 429 rate_limited with retry_after and Retry-After", async () => {
    const token = await tokenForNewOrganization("org-limit-exact", ["DMO-LIS"]);
    const call = () => fetchWith(mcpPost(token, initializeRequest()), { MCP_RATE_LIMIT: "3" });
    const responses = [await call(), await call(), await call(), await call()];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const limited = responses[3]!;
    const body = await limited.json<{ error: { code: string; message: string; retry_after: number } }>();
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.retry_after).toBeGreaterThan(0);
    expect(limited.headers.get("Retry-After")).toBe(String(body.error.retry_after));
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
  });

  it("keeps organizations' limits apart under concurrent load: each admits exactly its limit", async () => {
    const [tokenA, tokenB] = await Promise.all([
      tokenForNewOrganization("org-load-a", ["DMO-LIS"]),
      tokenForNewOrganization("org-load-b", ["AIR-LIS"]),
    ]);
    const call = (token: string) => fetchWith(mcpPost(token, initializeRequest()), { MCP_RATE_LIMIT: "5" });
    const responses = await Promise.all([
      ...Array.from({ length: 20 }, () => call(tokenA)),
      ...Array.from({ length: 20 }, () => call(tokenB)),
    ]);
    const admitted = (from: number) => responses.slice(from, from + 20).filter((r) => r.status === 200).length;
    expect([admitted(0), admitted(20)]).toEqual([5, 5]);
    expect(responses.every((r) => r.status === 200 || r.status === 429)).toBe(true);
  });

  it("binds a session to its client, not only its organization: another client of the same organization gets 404", async () => {
    const other = await adminJson("POST", "/identity-clients", { organizationId: "org-aurora" }, 201);
    const sibling = await tokenOf(other.clientId, other.clientSecret);
    const sessionId = await openSession(tokens.aurora);
    await expectEnvelope(await post(sibling, listTools, sessionId), 404, "not_found");
    expect((await post(tokens.aurora, listTools, sessionId)).status).toBe(200);
  });

  it("serves the protected-resource metadata publicly: the origin at the root, the endpoint at its path (RFC 9728 §3.1)", async () => {
    for (const [path, resource] of [
      ["/.well-known/oauth-protected-resource", BASE],
      ["/.well-known/oauth-protected-resource/v1/sse", `${BASE}/v1/sse`],
    ]) {
      const res = await SELF.fetch(`${BASE}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        resource,
        authorization_servers: [BASE, `${BASE}/realms/hospitality`],
        bearer_methods_supported: ["header"],
      });
    }
  });
});
