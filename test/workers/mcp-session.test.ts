import { createExecutionContext, env, evictDurableObject, runDurableObjectAlarm, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { BASE, expectEnvelope, initializeRequest, mcpHeaders, openSession, post, rpc, tokenFor } from "./mcp-helpers";

let aurora: string;
let boreal: string;
beforeAll(async () => {
  [aurora, boreal] = await Promise.all([tokenFor("aurora"), tokenFor("boreal")]);
});
afterEach(() => vi.useRealTimers());

const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" };
const sessionStub = (id: string) => env.MCP_SESSION.get(env.MCP_SESSION.idFromName(id));

describe("MCP session states (SPEC)", () => {
  it("none → open: initialize without mcp-session-id returns a UUID session ID and negotiates 2025-03-26", async () => {
    const res = await post(aurora, initializeRequest());
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const body = (await res.json()) as { id: number; result: { protocolVersion: string; capabilities: { tools?: object } } };
    expect(body.id).toBe(1);
    expect(body.result.protocolVersion).toBe("2025-03-26");
    expect(body.result.capabilities.tools).toBeDefined();
  });

  it("open → open: calls that echo the session ID are served", async () => {
    const sessionId = await openSession(aurora);
    const reply = await rpc(aurora, sessionId, "tools/list");
    expect(reply.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(["service_list_entities", "service_query", "service_search_documents"]);
  });

  it("none → none: a non-initialize call without mcp-session-id is 400 bad_request", async () => {
    await openSession(aurora);
    const message = await expectEnvelope(await post(aurora, listTools), 400, "bad_request");
    expect(message).toMatch(/mcp-session-id/);
  });

  it("open → terminated: DELETE ends the session (204); later calls and a second DELETE get 404 not_found", async () => {
    const sessionId = await openSession(aurora);
    const del = await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: mcpHeaders(aurora, sessionId) });
    expect(del.status).toBe(204);
    await expectEnvelope(await post(aurora, listTools, sessionId), 404, "not_found");
    await expectEnvelope(await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: mcpHeaders(aurora, sessionId) }), 404, "not_found");
  });

  it("DELETE needs a valid bearer token and the session header", async () => {
    const sessionId = await openSession(aurora);
    await expectEnvelope(await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: { "mcp-session-id": sessionId } }), 401, "unauthorized");
    await expectEnvelope(await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: mcpHeaders(aurora) }), 400, "bad_request");
    expect((await post(aurora, listTools, sessionId)).status).toBe(200);
  });

  it("answers 404 to an unknown session ID, well-formed or not", async () => {
    await expectEnvelope(await post(aurora, listTools, crypto.randomUUID()), 404, "not_found");
    await expectEnvelope(await post(aurora, listTools, "not-a-uuid"), 404, "not_found");
  });

  it("binds a session to its client: another organization's token gets 404, from both sides, and cannot end it", async () => {
    const auroraSession = await openSession(aurora);
    const borealSession = await openSession(boreal);
    await expectEnvelope(await post(boreal, listTools, auroraSession), 404, "not_found");
    await expectEnvelope(await post(aurora, listTools, borealSession), 404, "not_found");
    await expectEnvelope(await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: mcpHeaders(boreal, auroraSession) }), 404, "not_found");
    expect((await post(aurora, listTools, auroraSession)).status).toBe(200);
    expect((await post(boreal, listTools, borealSession)).status).toBe(200);
  });

  it("refuses initialize with a session header, initialize in a batch, and serves batches of other calls", async () => {
    const sessionId = await openSession(aurora);
    await expectEnvelope(await post(aurora, initializeRequest(), sessionId), 400, "bad_request");
    await expectEnvelope(await post(aurora, [initializeRequest(), listTools]), 400, "bad_request");
    const batch = await post(aurora, [listTools, { ...listTools, id: 3 }], sessionId);
    expect(batch.status).toBe(200);
    const replies = (await batch.json()) as { id: number }[];
    expect(replies.map((r) => r.id).sort()).toEqual([2, 3]);
  });

  it.each([
    ["malformed JSON", "{not json", {}],
    ["a wrong Content-Type", JSON.stringify(listTools), { "Content-Type": "text/plain" }],
    ["an Accept without text/event-stream", JSON.stringify(listTools), { Accept: "application/json" }],
    ["an empty batch", "[]", {}],
  ])("answers %s with 400 bad_request", async (_, body, headers) => {
    const sessionId = await openSession(aurora);
    const res = await SELF.fetch(`${BASE}/v1/sse`, { method: "POST", headers: { ...mcpHeaders(aurora, sessionId), ...headers }, body });
    await expectEnvelope(res, 400, "bad_request");
  });

  it("answers a JSON-RPC request that is not valid JSON-RPC with a JSON-RPC error, never a 500", async () => {
    const sessionId = await openSession(aurora);
    const res = await post(aurora, { jsonrpc: "2.0", id: 9, method: "no/such/method" }, sessionId);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32601);
    const junk = await post(aurora, { hello: "world" }, sessionId);
    expect(junk.status).toBeLessThan(500);
  });

  it("expires an idle session (30 min) by alarm, and at once when a late call finds it past expiry", async () => {
    const sessionId = await openSession(aurora);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    expect(await runDurableObjectAlarm(sessionStub(sessionId))).toBe(true);
    // Tokens live 5 minutes: the later calls use a token issued at the later time.
    await expectEnvelope(await post(await tokenFor("aurora"), listTools, sessionId), 404, "not_found");

    vi.useRealTimers();
    const other = await openSession(aurora);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    await expectEnvelope(await post(await tokenFor("aurora"), listTools, other), 404, "not_found");
  });

  it("keeps an active session past 30 minutes but ends it at the 24-hour absolute limit", async () => {
    const sessionId = await openSession(aurora);
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
    const sessionId = await openSession(aurora);
    await evictDurableObject(sessionStub(sessionId));
    expect((await post(aurora, listTools, sessionId)).status).toBe(200);
  });

  it("GET opens the notification stream of a live session; for an unknown one it is 404", async () => {
    const sessionId = await openSession(aurora);
    const res = await SELF.fetch(`${BASE}/v1/sse`, { headers: { ...mcpHeaders(aurora, sessionId), Accept: "text/event-stream" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^: /);
    await reader.cancel();

    await expectEnvelope(await SELF.fetch(`${BASE}/v1/sse`, { headers: { ...mcpHeaders(aurora, crypto.randomUUID()), Accept: "text/event-stream" } }), 404, "not_found");
    await expectEnvelope(await SELF.fetch(`${BASE}/v1/sse`, { headers: { ...mcpHeaders(aurora, sessionId), Accept: "application/json" } }), 400, "bad_request");
  });
});

describe("the GET notification stream", () => {
  it("sends keep-alives while the session lives, and ends when the session ends", async () => {
    const sessionId = await openSession(aurora);
    const vars = { ...env, SSE_KEEP_ALIVE_SECONDS: "1" };
    const res = await createApp().fetch(
      new Request(`${BASE}/v1/sse`, { headers: { ...mcpHeaders(aurora, sessionId), Accept: "text/event-stream" } }),
      vars,
      createExecutionContext(),
    );
    const reader = res.body!.getReader();
    const text = async () => new TextDecoder().decode((await reader.read()).value);
    expect(await text()).toBe(": stream open\n\n");
    expect(await text()).toBe(": keep-alive\n\n");

    expect((await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: mcpHeaders(aurora, sessionId) })).status).toBe(204);
    expect((await reader.read()).done).toBe(true);
  });
});

describe("MCP host protections", () => {
  it("refuses a request from an origin that is not allow-listed with 403, and allows its own origin", async () => {
    await expectEnvelope(await post(aurora, initializeRequest(), undefined, { Origin: "https://evil.example.com" }), 403, "forbidden");
    const own = await post(aurora, initializeRequest(), undefined, { Origin: BASE });
    expect(own.status).toBe(200);
    expect(own.headers.get("Access-Control-Allow-Origin")).toBe(BASE);
    expect(own.headers.get("Access-Control-Expose-Headers")).toMatch(/mcp-session-id/);
  });

  it("allows loopback origins in development only", async () => {
    const call = (ENVIRONMENT: string) =>
      createApp().fetch(
        new Request(`${BASE}/v1/sse`, { method: "POST", headers: { ...mcpHeaders(aurora), Origin: "http://localhost:6274" }, body: JSON.stringify(initializeRequest()) }),
        { ...env, ENVIRONMENT },
        createExecutionContext(),
      );
    expect((await call("development")).status).toBe(200);
    await expectEnvelope(await call("production"), 403, "forbidden");
  });

  it("allows origins listed in ALLOWED_ORIGINS", async () => {
    const res = await createApp().fetch(
      new Request(`${BASE}/v1/sse`, { method: "POST", headers: { ...mcpHeaders(aurora), Origin: "https://console.partner.example" }, body: JSON.stringify(initializeRequest()) }),
      { ...env, ALLOWED_ORIGINS: "https://other.example, https://console.partner.example" },
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
  });

  it("answers CORS preflight before authentication, exposing mcp-session-id and WWW-Authenticate", async () => {
    const res = await SELF.fetch(`${BASE}/v1/sse`, {
      method: "OPTIONS",
      headers: { Origin: BASE, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, mcp-session-id" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(BASE);
    expect(res.headers.get("Access-Control-Allow-Headers")).toMatch(/mcp-session-id/i);
    expect(res.headers.get("Access-Control-Allow-Methods")).toMatch(/DELETE/);
  });

  it("refuses plain HTTP outside loopback with the MCP envelope", async () => {
    await expectEnvelope(await SELF.fetch("http://mcp.example.com/v1/sse", { method: "POST" }), 403, "forbidden");
  });

  it("limits requests per organization per hour with 429 rate_limited, retry_after and Retry-After", async () => {
    const app = createApp();
    const call = () =>
      app.fetch(
        new Request(`${BASE}/v1/sse`, { method: "POST", headers: mcpHeaders(boreal), body: JSON.stringify(initializeRequest()) }),
        { ...env, MCP_RATE_LIMIT: "3" },
        createExecutionContext(),
      );
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 10 && !limited; i++) {
      const res = await call();
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited).toBeDefined();
    const body = (await limited!.json()) as { error: { code: string; message: string; retry_after: number } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.retry_after).toBeGreaterThan(0);
    expect(limited!.headers.get("Retry-After")).toBe(String(body.error.retry_after));
    // Another organization is not affected.
    expect((await post(aurora, initializeRequest())).status).toBe(200);
  });

  it("serves the protected-resource metadata publicly: the origin at the root, the endpoint at its path (RFC 9728 §3.1)", async () => {
    for (const [path, resource] of [["/.well-known/oauth-protected-resource", BASE], ["/.well-known/oauth-protected-resource/v1/sse", `${BASE}/v1/sse`]]) {
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
