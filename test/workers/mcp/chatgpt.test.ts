import type { Client } from "@modelcontextprotocol/client";
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dayOf } from "../../../src/search/unanswered";
import { tokenForNewOrganization } from "../support/admin";
import { fetchWith } from "../support/app";
import { BASE, expectEnvelope, initializeRequest, mcpHeaders, realmTokens, sdkClient } from "../support/mcp";

/** /v1/chatgpt: `search` and `fetch` in the shape OpenAI documents for ChatGPT, on the same scope, limits and retrieval. */

const tokens = realmTokens("aurora", "boreal", "kestrel");
const CHATGPT = "/v1/chatgpt";

type Content = { type: string; text?: string }[];

/** A tool's one text item, parsed, after checking there is exactly one and that structuredContent says the same. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Content;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  const parsed = JSON.parse(content[0]!.text!) as Record<string, unknown>;
  if (result.structuredContent !== undefined) expect(result.structuredContent).toEqual(parsed);
  return { parsed, isError: result.isError === true, text: content[0]!.text! };
}

const versions = [["2025-03-26"], ["2025-06-18"], ["2025-11-25"], ["modern"]] as const;

describe("search and fetch for ChatGPT", () => {
  it.each(versions)("lists exactly search and fetch, read-only, at /v1/chatgpt (%s), and /v1/sse keeps SPEC's three", async (version) => {
    const chatgpt = await sdkClient(tokens.aurora, { endpoint: CHATGPT, versions: version === "modern" ? "modern" : [version] });
    const { tools } = await chatgpt.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search", "fetch"]);
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(tools[0]!.inputSchema).toMatchObject({ type: "object", properties: { query: { type: "string" } }, required: ["query"] });
    expect(tools[1]!.inputSchema).toMatchObject({ type: "object", properties: { id: { type: "string" } }, required: ["id"] });
    await chatgpt.close();
    const spec = await sdkClient(tokens.aurora, { versions: version === "modern" ? "modern" : [version] });
    expect((await spec.listTools()).tools.map((t) => t.name)).toEqual([
      "service_query",
      "service_search_documents",
      "service_list_entities",
    ]);
    await spec.close();
  });

  it("search returns one text item whose JSON is {results: [{id, title, url}]}, field by field", async () => {
    const client = await sdkClient(tokens.aurora, { endpoint: CHATGPT, versions: ["2025-06-18"] });
    const { parsed } = await call(client, "search", { query: "Can I bring my dog to the Aurora Seville Riverside?" });
    expect(Object.keys(parsed)).toEqual(["results"]);
    const results = parsed.results as Record<string, string>[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(10);
    for (const result of results) {
      expect(Object.keys(result)).toEqual(["id", "title", "url"]);
      expect(result.id).toMatch(/^(HO-AUR|DMO-LIS|AIR-LIS)[A-Za-z0-9.-]*\/[\p{L}\p{N}-]+$/u);
      expect(result.title!.length).toBeGreaterThan(0);
      expect(new URL(result.url!).protocol).toBe("https:");
    }
    // The hotel named is searched, and its own page is what is cited.
    expect(results[0]).toEqual({
      id: "HO-AUR-0004/are-pets-allowed-at-aurora-seville-riverside",
      title: "Aurora Seville Riverside: Are pets allowed at Aurora Seville Riverside?",
      url: "https://aurora-hotels.example/hotels/ho-aur-0004",
    });
    await client.close();
  });

  it("fetch returns one text item whose JSON is {id, title, text, url, metadata} for an id search returned", async () => {
    const client = await sdkClient(tokens.aurora, { endpoint: CHATGPT });
    const found = (await call(client, "search", { query: "pets allowed at Aurora Seville Riverside?" })).parsed.results as Record<
      string,
      string
    >[];
    const { parsed } = await call(client, "fetch", { id: found[0]!.id });
    expect(Object.keys(parsed)).toEqual(["id", "title", "text", "url", "metadata"]);
    expect(parsed).toMatchObject({ id: found[0]!.id, title: found[0]!.title, url: found[0]!.url });
    expect(parsed.text).toMatch(/\?\n\n.+/s);
    expect(parsed.metadata).toEqual({
      entityId: "HO-AUR-0004",
      entityName: "Aurora Seville Riverside",
      entityKind: "property",
      brandId: "HO-AUR",
      category: "Pets",
      language: "en",
    });
    await client.close();
  });

  it("cites the FAQ feed at the question for an entity without a page of its own", async () => {
    const client = await sdkClient(tokens.boreal, { endpoint: CHATGPT });
    const [first] = (await call(client, "search", { query: "is there parking?" })).parsed.results as { id: string; url: string }[];
    const [entityId, slug] = first!.id.split("/") as [string, string];
    expect(first!.url).toBe(`${BASE}/api/v3/content/${entityId}/faq.json#${slug}`);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    await client.close();
  });

  it("searches the hotel a query names, and only that hotel: nothing about pets at a hotel without a pets FAQ", async () => {
    const client = await sdkClient(tokens.aurora, { endpoint: CHATGPT });
    const search = async (query: string) => (await call(client, "search", { query })).parsed.results as { id: string }[];
    expect(await search("Can I bring my dog to the Aurora Lisbon Riverside?")).toEqual([]); // HO-AUR-0001 has no Pets FAQ
    const named = await search("Aurora Lisbon Riverside");
    expect(named.length).toBeGreaterThan(0);
    for (const r of named) expect(r.id).toMatch(/^HO-AUR-0001\//);
    const anywhere = await search("can I bring my dog");
    expect(new Set(anywhere.map((r) => r.id.split("/")[0])).size).toBeGreaterThan(1);
    await client.close();
  });

  it("returns no results when nothing in the content answers, and the right FAQ among several alike when it does", async () => {
    const client = await sdkClient(tokens.kestrel, { endpoint: CHATGPT });
    const search = async (query: string) => (await call(client, "search", { query })).parsed.results as { id: string }[];
    expect(await search("can we bring our dog to the Kestrel Praia Dourada Resort & Spa?")).toEqual([]);
    expect((await search("is the adults-only pool at the Kestrel Praia Dourada Resort & Spa heated?"))[0]!.id).toMatch(
      /^HO-KES-0002\/is-the-adults-only-pool/,
    );
    await client.close();
  });

  it("ranks like service_search_documents: the retrieval of the guest's words", async () => {
    const client = await sdkClient(tokens.aurora, { endpoint: CHATGPT });
    const { parsed } = await call(client, "fetch", {
      id: ((await call(client, "search", { query: "can I work out at Aurora Seville Riverside" })).parsed.results as { id: string }[])[0]!
        .id,
    });
    expect((parsed.metadata as { category: string }).category).toBe("Amenities");
    await client.close();
  });

  it("never finds nor fetches another organization's documents, from both sides", async () => {
    const aurora = await sdkClient(tokens.aurora, { endpoint: CHATGPT });
    const boreal = await sdkClient(tokens.boreal, { endpoint: CHATGPT });
    const auroraIds = ((await call(aurora, "search", { query: "parking" })).parsed.results as { id: string }[]).map((r) => r.id);
    const borealIds = ((await call(boreal, "search", { query: "parking" })).parsed.results as { id: string }[]).map((r) => r.id);
    for (const id of auroraIds) expect(id).toMatch(/^(HO-AUR|DMO-LIS|AIR-LIS)/);
    for (const id of borealIds) expect(id).toMatch(/^HO-BOR/);
    expect((await boreal.callTool({ name: "fetch", arguments: { id: auroraIds[0] } })).isError).toBe(true);
    expect((await aurora.callTool({ name: "fetch", arguments: { id: borealIds[0] } })).isError).toBe(true);
    await aurora.close();
    await boreal.close();
  });

  it.each([["nonsense"], ["HO-AUR-0001/"], ["/is-there-parking"], ["HO-AUR-0001/no-such-question"], ["HO-NOPE/is-there-parking"]])(
    "answers fetch of %j with a tool error naming what to pass",
    async (id) => {
      const client = await sdkClient(tokens.aurora, { endpoint: CHATGPT });
      const result = await client.callTool({ name: "fetch", arguments: { id } });
      expect(result.isError).toBe(true);
      expect((result.content as Content)[0]!.text).toMatch(/an id that search returned/);
      await client.close();
    },
  );

  it("refuses arguments outside the documented shape with a tool error", async () => {
    const client = await sdkClient(tokens.aurora, { endpoint: CHATGPT });
    for (const [name, args] of [
      ["search", {}],
      ["search", { query: "" }],
      ["search", { query: "x", limit: 3 }],
      ["fetch", { id: 7 }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
    }
    await expect(client.callTool({ name: "service_query", arguments: { entity: "HO-AUR" } })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  it("counts a search the content does not answer, as search, for the organization", async () => {
    const client = await sdkClient(tokens.boreal, { endpoint: CHATGPT });
    await call(client, "search", { query: "do you rent submarines?" });
    const row = await env.DB.prepare(
      "SELECT tool FROM unanswered_questions WHERE organization_id = 'org-boreal' AND question = ? AND day = ?",
    )
      .bind("do you rent submarines", dayOf(new Date()))
      .first<{ tool: string }>();
    expect(row?.tool).toBe("search");
    await client.close();
  });

  it("counts it with the hotel the query names and the language its words show", async () => {
    const client = await sdkClient(tokens.aurora, { endpoint: CHATGPT });
    await call(client, "search", { query: "Aurora Lisbon Riverside: do you rent submarines?" });
    const row = await env.DB.prepare(
      "SELECT entity_id, language FROM unanswered_questions WHERE organization_id = 'org-aurora' AND tool = 'search' AND question LIKE '%submarines' AND day = ?",
    )
      .bind(dayOf(new Date()))
      .first<{ entity_id: string | null; language: string | null }>();
    expect(row).toEqual({ entity_id: "HO-AUR-0001", language: "en" });
    await client.close();
  });
});

describe("/v1/chatgpt as an endpoint", () => {
  const post = (path: string, token: string, body: unknown, sessionId?: string) =>
    SELF.fetch(`${BASE}${path}`, { method: "POST", headers: mcpHeaders(token, sessionId), body: JSON.stringify(body) });

  it("keeps a session to the endpoint that opened it: elsewhere it does not exist", async () => {
    const opened = await post(CHATGPT, tokens.aurora, initializeRequest());
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get("mcp-session-id")!;
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    expect((await post(CHATGPT, tokens.aurora, list, sessionId)).status).toBe(200);
    await expectEnvelope(await post("/v1/sse", tokens.aurora, list, sessionId), 404, "not_found");
    const spec = (await post("/v1/sse", tokens.aurora, initializeRequest())).headers.get("mcp-session-id")!;
    await expectEnvelope(await post(CHATGPT, tokens.aurora, list, spec), 404, "not_found");
    await expectEnvelope(
      await SELF.fetch(`${BASE}/v1/sse`, { method: "DELETE", headers: mcpHeaders(tokens.aurora, sessionId) }),
      404,
      "not_found",
    );
    expect((await SELF.fetch(`${BASE}${CHATGPT}`, { method: "DELETE", headers: mcpHeaders(tokens.aurora, sessionId) })).status).toBe(204);
  });

  it("serves the HTTP+SSE transport too, its session keeping search and fetch", async () => {
    const res = await SELF.fetch(`${BASE}${CHATGPT}`, {
      headers: { Authorization: `Bearer ${tokens.aurora}`, Accept: "text/event-stream" },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(first)![1]!;
    expect(endpoint).toMatch(/^\/v1\/messages\?sessionId=/);
    const send = (message: unknown) => post(endpoint, tokens.aurora, message);
    expect((await send({ ...initializeRequest(), params: { ...initializeRequest().params, protocolVersion: "2024-11-05" } })).status).toBe(
      202,
    );
    expect((await send({ jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(202);
    let events = "";
    while (!events.includes('"id":2')) events += new TextDecoder().decode((await reader.read()).value);
    expect(events).toMatch(/"name":"search".*"name":"fetch"/s);
    await reader.cancel();
  });

  it("requires a token, and answers without one with the same challenge", async () => {
    const res = await SELF.fetch(`${BASE}${CHATGPT}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe(`Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource"`);
  });

  it("publishes its own protected-resource metadata", async () => {
    const res = await SELF.fetch(`${BASE}/.well-known/oauth-protected-resource/v1/chatgpt`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ resource: `${BASE}/v1/chatgpt`, authorization_servers: expect.arrayContaining([BASE]) });
  });

  it("counts against the organization's one hourly limit with /v1/sse", async () => {
    const token = await tokenForNewOrganization("org-chatgpt-limit", ["DMO-LIS"]);
    const limited = (r: Request) => fetchWith(r, { MCP_RATE_LIMIT: "4" });
    const chatgpt = await sdkClient(token, { endpoint: CHATGPT, fetcher: limited }); // 1: server/discover
    await chatgpt.callTool({ name: "search", arguments: { query: "tourist tax" } }); // 3: a search counts 2
    const spec = await sdkClient(token, { fetcher: limited }); // 4
    await expect(spec.callTool({ name: "service_list_entities", arguments: {} })).rejects.toThrow(/429|rate|limit/i);
  });
});
