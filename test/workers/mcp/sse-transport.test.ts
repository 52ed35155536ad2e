import { env, runDurableObjectAlarm, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tokenForNewOrganization } from "../support/admin";
import { fetchWith } from "../support/app";
import { BASE, expectEnvelope, initializeRequest, realmTokens, tokenFor } from "../support/mcp";
import { EventReader } from "../support/sse";

/** The HTTP+SSE transport (2024-11-05) at SPEC's URL: GET without a session, then POSTs to the endpoint it names. */

const tokens = realmTokens("aurora", "boreal");
afterEach(() => vi.useRealTimers());

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function openTransport(token: string, fetcher: (r: Request) => Response | Promise<Response> = (r) => SELF.fetch(r)) {
  const res = await fetcher(new Request(`${BASE}/v1/sse`, { headers: { ...auth(token), Accept: "text/event-stream" } }));
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/event-stream");
  const events = new EventReader(res.body!);
  const endpoint = await events.next();
  expect(endpoint?.event).toBe("endpoint");
  expect(endpoint?.data).toMatch(/^\/v1\/messages\?sessionId=[0-9a-f-]{36}$/);
  return { events, endpoint: endpoint!.data!, sessionId: endpoint!.data!.split("=")[1]! };
}

const send = (token: string, endpoint: string, message: unknown) =>
  SELF.fetch(`${BASE}${endpoint}`, {
    method: "POST",
    headers: { ...auth(token), "Content-Type": "application/json" },
    body: JSON.stringify(message),
  });

const legacyInitialize = { ...initializeRequest(), params: { ...initializeRequest().params, protocolVersion: "2024-11-05" } };

describe("HTTP+SSE transport", () => {
  it("names the endpoint, answers POSTs with 202 and delivers their responses on the stream", async () => {
    const { events, endpoint } = await openTransport(tokens.aurora);
    const accepted = await send(tokens.aurora, endpoint, legacyInitialize);
    expect(accepted.status).toBe(202);
    const init = await events.message();
    expect(init).toMatchObject({ id: 1, result: { protocolVersion: "2024-11-05", serverInfo: { name: "hospitality-content" } } });
    expect((await send(tokens.aurora, endpoint, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);

    await send(tokens.aurora, endpoint, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    const list = await events.message();
    expect(list.id).toBe(2);
    expect(list.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      "service_list_entities",
      "service_query",
      "service_search_documents",
    ]);

    await send(tokens.aurora, endpoint, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "service_list_entities", arguments: { kind: "brand" } },
    });
    const call = await events.message();
    // 2024-11-05 has no structuredContent: every field is in the text.
    expect(call.result.structuredContent).toBeUndefined();
    expect(JSON.parse(call.result.content[0].text)).toEqual({
      entities: [{ id: "HO-AUR", name: "Aurora Hotels & Resorts", kind: "brand" }],
    });
    await events.cancel();
  });

  it("binds the session to its owner: another organization's token gets 404, from both sides", async () => {
    const a = await openTransport(tokens.aurora);
    const b = await openTransport(tokens.boreal);
    await expectEnvelope(await send(tokens.boreal, a.endpoint, legacyInitialize), 404, "not_found");
    await expectEnvelope(await send(tokens.aurora, b.endpoint, legacyInitialize), 404, "not_found");
    expect((await send(tokens.aurora, a.endpoint, legacyInitialize)).status).toBe(202);
    expect((await a.events.message()).result.protocolVersion).toBe("2024-11-05");
    await Promise.all([a.events.cancel(), b.events.cancel()]);
  });

  it("needs a bearer token for the stream and for every message, and refuses foreign origins", async () => {
    await expectEnvelope(await SELF.fetch(`${BASE}/v1/sse`, { headers: { Accept: "text/event-stream" } }), 401, "unauthorized");
    const { events, endpoint } = await openTransport(tokens.aurora);
    const anonymous = await SELF.fetch(`${BASE}${endpoint}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(legacyInitialize),
    });
    await expectEnvelope(anonymous, 401, "unauthorized");
    await expectEnvelope(
      await SELF.fetch(`${BASE}/v1/sse`, {
        headers: { ...auth(tokens.aurora), Accept: "text/event-stream", Origin: "https://evil.example.com" },
      }),
      403,
      "forbidden",
    );
    await expectEnvelope(
      await SELF.fetch(`${BASE}${endpoint}`, {
        method: "POST",
        headers: { ...auth(tokens.aurora), "Content-Type": "application/json", Origin: "https://evil.example.com" },
        body: "{}",
      }),
      403,
      "forbidden",
    );
    await events.cancel();
  });

  it("answers 404 for unknown or malformed session IDs and 400 for a body that is not JSON", async () => {
    await expectEnvelope(await send(tokens.aurora, `/v1/messages?sessionId=${crypto.randomUUID()}`, legacyInitialize), 404, "not_found");
    await expectEnvelope(await send(tokens.aurora, "/v1/messages?sessionId=nope", legacyInitialize), 404, "not_found");
    await expectEnvelope(await send(tokens.aurora, "/v1/messages", legacyInitialize), 404, "not_found");
    const { events, endpoint } = await openTransport(tokens.aurora);
    const junk = await SELF.fetch(`${BASE}${endpoint}`, {
      method: "POST",
      headers: { ...auth(tokens.aurora), "Content-Type": "application/json" },
      body: "{not json",
    });
    await expectEnvelope(junk, 400, "bad_request");
    await events.cancel();
  });

  it("ends the stream and the session on DELETE; later messages get 404", async () => {
    const { events, endpoint, sessionId } = await openTransport(tokens.aurora);
    const del = await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: { ...auth(tokens.aurora), "mcp-session-id": sessionId } });
    expect(del.status).toBe(204);
    expect(await events.next()).toBeNull();
    await expectEnvelope(await send(tokens.aurora, endpoint, legacyInitialize), 404, "not_found");
  });

  it("expires an idle session without DELETE, like a streamable session", async () => {
    const { events, endpoint, sessionId } = await openTransport(tokens.aurora);
    await events.cancel();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    expect(await runDurableObjectAlarm(env.MCP_SESSION.get(env.MCP_SESSION.idFromName(sessionId)))).toBe(true);
    await expectEnvelope(await send(await tokenFor("aurora"), endpoint, legacyInitialize), 404, "not_found");
  });

  it("never holds a POST for a client that stops reading; past 1 MiB unread the stream is closed", async () => {
    const { events, endpoint } = await openTransport(tokens.aurora);
    const search = {
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "service_search_documents", arguments: { query: "parking breakfast pets wifi", limit: 50 } },
    };
    const statuses: number[] = [];
    for (let i = 0; i < 120 && !statuses.includes(404); i++) statuses.push((await send(tokens.aurora, endpoint, search)).status);
    expect(statuses[0]).toBe(202);
    expect(statuses.at(-1)).toBe(404);
    let delivered = 0;
    while ((await events.next()) !== null) delivered += 1;
    expect(delivered).toBeGreaterThan(10);
  });

  it("sends keep-alives on the stream", async () => {
    const { events } = await openTransport(tokens.aurora, (r) => fetchWith(r, { SSE_KEEP_ALIVE_SECONDS: "1" }));
    expect(await events.next()).toEqual({ comment: "keep-alive" });
    await events.cancel();
  });

  it("counts the stream and each message against the organization's hourly limit, exactly", async () => {
    const token = await tokenForNewOrganization("org-sse-limit", ["DMO-LIS"]);
    const call = (r: Request) => fetchWith(r, { MCP_RATE_LIMIT: "3" });
    const { events, endpoint } = await openTransport(token, call);
    const post = async () =>
      (
        await call(
          new Request(`${BASE}${endpoint}`, {
            method: "POST",
            headers: { ...auth(token), "Content-Type": "application/json" },
            body: JSON.stringify(legacyInitialize),
          }),
        )
      ).status;
    expect([await post(), await post(), await post()]).toEqual([202, 202, 429]);
    await events.cancel();
  });
});
