import type { Client } from "@modelcontextprotocol/client";
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_REFERENCE_LENGTH } from "../../../src/search/resolve";
import { BASE, realmTokens, sdkClient } from "../support/mcp";

/** Each entity's FAQs as resources, the templates and their completions, through the SDK's Client at both endpoints. */

const tokens = realmTokens("aurora", "boreal");
const HOTEL = "hospitality://entities/HO-AUR-0001/faqs";

/** Every resource listed (the client follows nextCursor itself), and how many pages that took on the wire. */
async function listAll(token: string, version: string, endpoint: string) {
  const methods: string[] = [];
  const client = await sdkClient(token, {
    endpoint,
    versions: version === "modern" ? "modern" : [version],
    onRequest: (request) =>
      void request.text().then((text) => {
        if (text) methods.push((JSON.parse(text) as { method?: string }).method ?? "");
      }),
  });
  const { resources } = await client.listResources();
  await client.close();
  return { resources, pages: methods.filter((m) => m === "resources/list").length };
}

const versions = [["2025-06-18"], ["modern"]] as const;
const clientFor = (token: string, version: string, endpoint = "/v1/sse") =>
  sdkClient(token, { endpoint, versions: version === "modern" ? "modern" : [version] });

describe("resources", () => {
  it.each(versions)(
    "lists every entity in scope, markdown and JSON, by ID a page at a time (%s), the same at both endpoints",
    async (version) => {
      for (const endpoint of ["/v1/sse", "/v1/chatgpt"]) {
        const { pages, resources } = await listAll(tokens.aurora, version, endpoint);
        // HO-AUR, its 120 hotels, DMO-LIS: 122 entities, two resources each, 50 entities a page.
        expect(resources).toHaveLength(244);
        expect(pages).toBe(3);
        const uris = resources.map((r) => r.uri);
        expect(new Set(uris).size).toBe(uris.length);
        expect(uris.slice(0, 2)).toEqual(["hospitality://entities/DMO-LIS/faqs", "hospitality://entities/DMO-LIS/faqs.json"]);
        expect(resources.find((r) => r.uri === HOTEL)).toEqual({
          uri: HOTEL,
          name: "HO-AUR-0001-faqs",
          title: "FAQs of Aurora Lisbon Riverside",
          description: "Questions and answers about Aurora Lisbon Riverside, a hotel of HO-AUR.",
          mimeType: "text/markdown",
          annotations: { audience: ["assistant"], lastModified: "2026-11-01T10:00:00Z" },
        });
        for (const uri of uris) expect(uri).toMatch(/^hospitality:\/\/entities\/(HO-AUR|DMO-LIS)/);
        expect((await listAll(tokens.aurora, version, endpoint)).resources.map((r) => r.uri)).toEqual(uris); // a stable order
      }
    },
  );

  it("reads an entity's FAQs as markdown and as JSON, all of them or one category's (any case)", async () => {
    const client = await clientFor(tokens.aurora, "2025-11-25");
    const md = (await client.readResource({ uri: HOTEL })).contents;
    expect(md).toHaveLength(1);
    expect(md[0]).toMatchObject({ uri: HOTEL, mimeType: "text/markdown" });
    const text = (md[0] as { text: string }).text;
    expect(text).toMatch(
      /^# Aurora Lisbon Riverside\n\nhotel `HO-AUR-0001` · of Aurora Hotels & Resorts \(`HO-AUR`\) · https:\/\/aurora-hotels\.example\/hotels\/ho-aur-0001 · updated 2026-11-01T10:00:00Z\n\n## /,
    );
    expect(text.match(/^## /gm)).toHaveLength(6);

    const json = JSON.parse(((await client.readResource({ uri: `${HOTEL}.json` })).contents[0] as { text: string }).text);
    expect(json.entity).toEqual({
      id: "HO-AUR-0001",
      name: "Aurora Lisbon Riverside",
      kind: "property",
      brandId: "HO-AUR",
      url: "https://aurora-hotels.example/hotels/ho-aur-0001",
      dateModified: "2026-11-01T10:00:00Z",
    });
    expect(json.faqs).toHaveLength(6);
    const parking = JSON.parse(
      ((await client.readResource({ uri: `${HOTEL}.json?category=parking` })).contents[0] as { text: string }).text,
    );
    expect(parking.category).toBe("parking");
    expect(parking.faqs.map((f: { category: string }) => f.category)).toEqual(["Parking"]);
    const none = ((await client.readResource({ uri: `${HOTEL}?category=Pets` })).contents[0] as { text: string }).text;
    expect(none).toMatch(/No FAQs in the category Pets\./);
    await client.close();
  });

  it("answers -32602 'resource not found' for what is not in scope, from both sides, exactly as for what does not exist", async () => {
    const aurora = await clientFor(tokens.aurora, "2025-06-18");
    const boreal = await clientFor(tokens.boreal, "modern");
    for (const [client, uri] of [
      [aurora, "hospitality://entities/HO-BOR-0001/faqs"],
      [boreal, HOTEL],
      [boreal, `${HOTEL}.json`],
      [aurora, "hospitality://entities/HO-NOPE/faqs"],
      [aurora, "hospitality://entities/HO-AUR-0001/faq"],
      [aurora, `${HOTEL}?format=xml`],
      [aurora, "https://example.com/HO-AUR-0001"],
      [aurora, "hospitality://entities/%E0%A4%A/faqs"],
    ] as const) {
      const error = await client.readResource({ uri }).then(
        () => null,
        (e: unknown) => e as { code: number; data?: { uri?: string } },
      );
      expect(error, uri).toMatchObject({ code: -32602, data: { uri } });
    }
    await aurora.close();
    await boreal.close();
  });

  it("refuses a cursor it did not hand out", async () => {
    const client = await clientFor(tokens.aurora, "2025-06-18");
    await expect(client.listResources({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it("lists the two templates, with entityId and category to complete", async () => {
    const client = await clientFor(tokens.aurora, "modern");
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType])).toEqual([
      ["hospitality://entities/{entityId}/faqs{?category}", "text/markdown"],
      ["hospitality://entities/{entityId}/faqs.json{?category}", "application/json"],
    ]);
    await client.close();
  });
});

describe("completions", () => {
  const complete = async (client: Client, argument: { name: string; value: string }, context?: Record<string, string>) =>
    (
      await client.complete({
        ref: { type: "ref/resource", uri: "hospitality://entities/{entityId}/faqs{?category}" },
        argument,
        ...(context ? { context: { arguments: context } } : {}),
      })
    ).completion;

  it("completes an entity ID from the start of an ID or of a name, best first, within scope", async () => {
    const client = await clientFor(tokens.aurora, "2025-06-18");
    const ids = await complete(client, { name: "entityId", value: "ho-aur-000" });
    expect(ids.values).toEqual([
      "HO-AUR-0001",
      "HO-AUR-0002",
      "HO-AUR-0003",
      "HO-AUR-0004",
      "HO-AUR-0005",
      "HO-AUR-0006",
      "HO-AUR-0007",
      "HO-AUR-0008",
      "HO-AUR-0009",
    ]);
    expect((await complete(client, { name: "entityId", value: "Aurora Lisbon Riv" })).values[0]).toBe("HO-AUR-0001");
    expect((await complete(client, { name: "entityId", value: "visit lisb" })).values[0]).toBe("DMO-LIS");
    const all = await complete(client, { name: "entityId", value: "" });
    expect(all.values).toHaveLength(100);
    expect(all.hasMore).toBe(true);
    await client.close();
  });

  it("never completes another organization's entities, from both sides", async () => {
    const aurora = await clientFor(tokens.aurora, "modern");
    const boreal = await clientFor(tokens.boreal, "2025-11-25");
    expect((await complete(aurora, { name: "entityId", value: "HO-BOR" })).values).toEqual([]);
    expect((await complete(aurora, { name: "entityId", value: "Boreal Inn" })).values).toEqual([]);
    expect((await complete(boreal, { name: "entityId", value: "Aurora Lisbon" })).values).toEqual([]);
    expect((await complete(boreal, { name: "entityId", value: "DMO" })).values).toEqual([]);
    await aurora.close();
    await boreal.close();
  });

  it("completes a category of the chosen entity, or of the scope", async () => {
    const client = await clientFor(tokens.aurora, "2025-06-18");
    expect((await complete(client, { name: "category", value: "p" }, { entityId: "HO-AUR-0001" })).values).toEqual(["Parking"]);
    expect((await complete(client, { name: "category", value: "p" })).values).toEqual(["Parking", "Pets", "Policies"]);
    expect((await complete(client, { name: "category", value: "p" }, { entityId: "HO-BOR-0001" })).values).toEqual([
      "Parking",
      "Pets",
      "Policies",
    ]);
    await client.close();
  });

  it(`completes a value of at most ${MAX_REFERENCE_LENGTH} characters, as the tools take an entity, and answers -32602 past it`, async () => {
    const client = await clientFor(tokens.aurora, "2025-06-18");
    const atLimit = "Aurora Lisbon Riv".padStart(MAX_REFERENCE_LENGTH, " ");
    expect((await complete(client, { name: "entityId", value: atLimit })).values[0]).toBe("HO-AUR-0001");
    for (const value of [` ${atLimit}`, "aurora lisbon ".repeat(1_300)]) {
      await expect(complete(client, { name: "entityId", value })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/at most 200 characters/),
      });
    }
    await client.close();
  });

  it("answers -32602 for a reference it has nothing to complete for", async () => {
    const client = await clientFor(tokens.aurora, "2025-06-18");
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "anything" }, argument: { name: "x", value: "" } }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      client.complete({ ref: { type: "ref/resource", uri: "hospitality://other/{x}" }, argument: { name: "x", value: "" } }),
    ).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe("the prompt", () => {
  it("offers one prompt, a guest's question about one entity, whose entity completes within scope", async () => {
    const client = await clientFor(tokens.aurora, "2025-06-18");
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)])).toEqual([["guest_question", ["entity", "question"]]]);
    const { messages } = await client.getPrompt({
      name: "guest_question",
      arguments: { entity: "Aurora Lisbon Riverside", question: "Is there parking?" },
    });
    expect(messages).toEqual([
      {
        role: "user",
        content: { type: "text", text: expect.stringMatching(/^A guest asks about Aurora Lisbon Riverside: "Is there parking\?"/) },
      },
    ]);
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "guest_question" },
      argument: { name: "entity", value: "Aurora Lisbon Riv" },
    });
    expect(completion.values[0]).toBe("HO-AUR-0001");
    await expect(client.getPrompt({ name: "guest_question", arguments: { entity: "HO-AUR-0001" } })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.getPrompt({ name: "other", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe("what a client is told, and what it may cache", () => {
  it.each(["/v1/sse", "/v1/chatgpt"])("gives instructions at %s in initialize and server/discover", async (endpoint) => {
    for (const version of ["2025-06-18", "modern"]) {
      const client = await clientFor(tokens.aurora, version, endpoint);
      const instructions = client.getInstructions();
      expect(instructions).toMatch(endpoint === "/v1/sse" ? /service_query.*service_search_documents/s : /search.*fetch.*url/s);
      expect(instructions!.length).toBeLessThan(800);
      await client.close();
    }
  });

  it.each(["/v1/sse", "/v1/chatgpt"])("keeps tools/list plus the templates under 6 KB at %s", async (endpoint) => {
    const client = await clientFor(tokens.aurora, "2025-11-25", endpoint);
    const { tools } = await client.listTools();
    // What the model is told: hosts keep a tool's `_meta` (the answer card's address) for themselves.
    const told = tools.map(({ _meta, ...tool }) => tool);
    const size = new TextEncoder().encode(JSON.stringify({ tools: told }) + JSON.stringify(await client.listResourceTemplates())).length;
    expect(size).toBeLessThan(6 * 1024);
    for (const { _meta } of tools) expect(JSON.stringify(_meta ?? {}).length).toBeLessThanOrEqual(64);
    await client.close();
  });

  it("marks the 2026-07-28 list and read results: private for the organization's data, public for the same-for-all lists", async () => {
    const post = async (method: string, params: Record<string, unknown> = {}, name?: string) => {
      const res = await SELF.fetch(`${BASE}/v1/sse`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${tokens.aurora}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2026-07-28",
          "Mcp-Method": method,
          ...(name ? { "Mcp-Name": name } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientInfo": { name: "vitest", version: "1" },
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
      return { status: res.status, body: await res.json<{ result?: Record<string, unknown>; error?: { code: number } }>() };
    };
    for (const [method, scope, ttl] of [
      ["tools/list", "public", 3_600_000],
      ["resources/templates/list", "public", 3_600_000],
      ["resources/list", "private", 60_000],
      ["prompts/list", "public", 3_600_000],
    ] as const) {
      expect((await post(method)).body.result, method).toMatchObject({ cacheScope: scope, ttlMs: ttl });
    }
    expect((await post("resources/read", { uri: HOTEL }, HOTEL)).body.result).toMatchObject({ cacheScope: "private", ttlMs: 60_000 });
    expect((await post("server/discover")).body.result).toMatchObject({ cacheScope: "public", ttlMs: 3_600_000 });
    // Mcp-Method and Mcp-Name must say what the body says.
    const mismatched = await post("resources/read", { uri: HOTEL }, "hospitality://entities/HO-AUR-0002/faqs");
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.error?.code).toBe(-32020);
    const notFound = await post("resources/read", { uri: "hospitality://entities/HO-BOR/faqs" }, "hospitality://entities/HO-BOR/faqs");
    expect(notFound.body.error?.code).toBe(-32602);
  });
});

describe("tool results that link to resources", () => {
  it("link service_query and service_search_documents results to the entities' FAQ resources, from 2025-06-18", async () => {
    const client = await clientFor(tokens.aurora, "2025-06-18");
    const query = await client.callTool({ name: "service_query", arguments: { entity: "HO-AUR-0001", question: "parking" } });
    expect(query.content).toEqual([
      { type: "text", text: expect.any(String) },
      { type: "text", text: expect.stringMatching(/^Confidence: /) },
      { type: "resource_link", uri: HOTEL, name: "HO-AUR-0001-faqs", title: "FAQs of Aurora Lisbon Riverside", mimeType: "text/markdown" },
    ]);
    const search = await client.callTool({ name: "service_search_documents", arguments: { query: "parking", limit: 3 } });
    const links = (search.content as { type: string; uri?: string }[]).filter((c) => c.type === "resource_link");
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect((await client.readResource({ uri: link.uri! })).contents).toHaveLength(1);
    await client.close();

    const old = await clientFor(tokens.aurora, "2025-03-26");
    expect((await old.callTool({ name: "service_query", arguments: { entity: "HO-AUR-0001" } })).content).toHaveLength(2);
    await old.close();
  });
});
