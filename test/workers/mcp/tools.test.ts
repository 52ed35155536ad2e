import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { importRecords } from "../support/admin";
import { callTool, type Caller, openCallers, openSession, rpc } from "../support/mcp";

const { aurora, boreal } = openCallers("aurora", "boreal");

const call = (who: Caller, name: string, args: Record<string, unknown>) => callTool(who.token, who.session, name, args);

describe("tools/list", () => {
  it("lists the three tools with input JSON Schemas and descriptions; output schemas only from protocol 2025-06-18 on", async () => {
    const { result } = await rpc(aurora.token, aurora.session, "tools/list");
    const byName = Object.fromEntries(result.tools.map((t: { name: string }) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(["service_list_entities", "service_query", "service_search_documents"]);
    for (const tool of result.tools) {
      expect(tool.description.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe("object");
      // This session negotiated 2025-03-26, which has no outputSchema (a client would expect structuredContent).
      expect(tool.outputSchema).toBeUndefined();
      expect(tool.annotations.readOnlyHint).toBe(true);
    }
    expect(byName.service_query.inputSchema.required).toEqual(["entity"]);
    expect(byName.service_search_documents.inputSchema.properties.query).toMatchObject({ type: "string", minLength: 1, maxLength: 500 });
    expect(byName.service_list_entities.inputSchema.properties.limit).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect(byName.service_query.inputSchema.properties.limit).toMatchObject({ minimum: 1, maximum: 50, default: 20 });
    expect(byName.service_search_documents.inputSchema.properties.limit).toMatchObject({ minimum: 1, maximum: 50, default: 10 });

    const newer = await openSession(aurora.token, "2025-06-18");
    const listed = (await rpc(aurora.token, newer, "tools/list")).result.tools;
    for (const tool of listed) expect(tool.outputSchema.type).toBe("object");
  });
});

describe("service_list_entities", () => {
  it("lists only the caller's scope, ordered by ID", async () => {
    const first = await call(aurora, "service_list_entities", { limit: 200 });
    const ids: string[] = first.entities.map((e: { id: string }) => e.id);
    expect(ids.slice(0, 3)).toEqual(["DMO-LIS", "HO-AUR", "HO-AUR-0001"]);
    expect(ids).toEqual([...ids].sort());
    expect(ids.some((id) => id.startsWith("HO-BOR") || id === "AIR-LIS" || id === "HO-CAS")).toBe(false);
    expect(first.entities[2]).toMatchObject({ kind: "property", brandId: "HO-AUR", propertyId: expect.any(Number) });
  });

  it("pages through all 1,201 entities of org-boreal with nextCursor, none twice, none missing", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(boreal, "service_list_entities", { limit: 200, ...(cursor ? { cursor } : {}) });
      seen.push(...page.entities.map((e: { id: string }) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(1201);
    expect(new Set(seen).size).toBe(1201);
    expect(seen.every((id) => id.startsWith("HO-BOR"))).toBe(true);
  });

  it("filters by kind, brandId and nameContains (LIKE wildcards in the text are literal)", async () => {
    const destinations = await call(aurora, "service_list_entities", { kind: "destination" });
    expect(destinations.entities).toEqual([{ id: "DMO-LIS", name: "Visit Lisboa", kind: "destination" }]);
    const lisbon = await call(aurora, "service_list_entities", { nameContains: "lisbon", kind: "property" });
    expect(lisbon.entities.length).toBeGreaterThan(0);
    for (const e of lisbon.entities) expect(e.name.toLowerCase()).toContain("lisbon");
    expect((await call(aurora, "service_list_entities", { nameContains: "%" })).entities).toEqual([]);
    expect((await call(aurora, "service_list_entities", { nameContains: "_" })).entities).toEqual([]);
    expect((await call(aurora, "service_list_entities", { brandId: "HO-AUR", limit: 200 })).entities).toHaveLength(120);
  });

  it("shows nothing of another organization's brand, from both sides", async () => {
    expect((await call(aurora, "service_list_entities", { brandId: "HO-BOR" })).entities).toEqual([]);
    expect((await call(boreal, "service_list_entities", { brandId: "HO-AUR" })).entities).toEqual([]);
    expect((await call(boreal, "service_list_entities", { kind: "destination" })).entities).toEqual([]);
    expect((await call(aurora, "service_list_entities", { nameContains: "Boreal" })).entities).toEqual([]);
  });
});

describe("service_query", () => {
  it("finds an entity by full registered name (case-insensitive) or by ID, with its FAQs in stored order", async () => {
    const byId = await call(aurora, "service_query", { entity: "HO-AUR-0001" });
    expect(byId.entity).toMatchObject({ id: "HO-AUR-0001", kind: "property", brandId: "HO-AUR" });
    const { results } = await env.DB.prepare("SELECT question FROM faqs WHERE entity_id = 'HO-AUR-0001' ORDER BY position").all<{
      question: string;
    }>();
    expect(byId.faqs.map((f: { question: string }) => f.question)).toEqual(results.map((r) => r.question));
    expect(byId.total).toBe(results.length);
    const byName = await call(aurora, "service_query", { entity: byId.entity.name.toUpperCase() });
    expect(byName.entity.id).toBe("HO-AUR-0001");
  });

  it("describes a brand with its property count", async () => {
    const brand = await call(aurora, "service_query", { entity: "Aurora Hotels & Resorts" });
    expect(brand.entity).toEqual({ id: "HO-AUR", name: "Aurora Hotels & Resorts", kind: "brand", propertyCount: 120, matchedBy: "name" });
    expect(brand.faqs.length).toBeGreaterThan(0);
  });

  it("ranks by question and filters by category", async () => {
    const ranked = await call(aurora, "service_query", { entity: "HO-AUR-0001", question: "is there parking?" });
    expect(ranked.faqs[0].category).toBe("Parking");
    const parking = await call(aurora, "service_query", { entity: "HO-AUR-0001", category: "parking" });
    for (const f of parking.faqs) expect(f.category).toBe("Parking");
    const limited = await call(aurora, "service_query", { entity: "HO-AUR-0001", limit: 2 });
    expect(limited.faqs).toHaveLength(2);
    expect(limited.total).toBeGreaterThan(2);
  });

  it("returns no entity, empty results and in-scope suggestions for a partial name (SPEC diagnostic rule 4)", async () => {
    const partial = await call(aurora, "service_query", { entity: "Aurora Lisbon" });
    expect(partial.entity).toBeNull();
    expect(partial.faqs).toEqual([]);
    expect(partial.total).toBe(0);
    expect(partial.suggestions.length).toBeGreaterThan(0);
    expect(partial.suggestions.length).toBeLessThanOrEqual(5);
    expect(partial.suggestions[0]).toMatch(/Lisbon/);
  });

  it("treats out-of-scope entities as unknown, by ID and by name, from both sides, and never suggests them", async () => {
    const borealName = (await call(boreal, "service_query", { entity: "HO-BOR-0001" })).entity.name;
    const auroraName = (await call(aurora, "service_query", { entity: "HO-AUR-0001" })).entity.name;
    for (const [who, refs] of [
      [aurora, ["HO-BOR-0001", "HO-BOR", borealName, "AIR-LIS", "HO-CAS", "Lisbon Humberto Delgado Airport"]],
      [boreal, ["HO-AUR-0001", "HO-AUR", auroraName, "DMO-LIS", "Visit Lisboa"]],
    ] as const) {
      for (const entity of refs) {
        const result = await call(who, "service_query", { entity });
        expect(result.entity, entity).toBeNull();
        expect(result.faqs).toEqual([]);
        for (const s of result.suggestions ?? []) {
          expect(s).not.toBe(entity);
          expect(s).not.toMatch(who === aurora ? /^Boreal|Airport/ : /^Aurora|Lisboa/);
        }
      }
    }
  });
});

describe("service_search_documents", () => {
  it("ranks FAQs by BM25 within scope, with a snippet, and says only their rank position", async () => {
    const { results } = await call(aurora, "service_search_documents", { query: "are pets allowed", limit: 5 });
    expect(results).toHaveLength(5);
    for (const r of results) {
      expect(r.entityId).toMatch(/^(HO-AUR|DMO-LIS)/);
      expect(r.snippet).toMatch(/\*\*/);
      expect(r.snippet).not.toMatch(/\bk[0-9a-f]{6,}/i); // never the indexed scope key
      expect(r.score).toBeUndefined();
    }
    expect(results.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it("searches all of HO-BOR's FAQs for org-boreal and never returns another organization's FAQs, from both sides", async () => {
    const common = "parking breakfast pets wifi airport check-in";
    const borealHits = await call(boreal, "service_search_documents", { query: common, limit: 50 });
    expect(borealHits.results).toHaveLength(50);
    expect(borealHits.results.every((r: { entityId: string }) => r.entityId.startsWith("HO-BOR-"))).toBe(true);
    const auroraHits = await call(aurora, "service_search_documents", { query: common, limit: 50 });
    expect(auroraHits.results.every((r: { entityId: string }) => /^(HO-AUR|DMO-LIS)/.test(r.entityId))).toBe(true);
    // Words that only occur in out-of-scope content find nothing of it; at most the caller's own FAQs on the topic, never as an answer.
    expect((await call(aurora, "service_search_documents", { query: "Boreal" })).results).toEqual([]);
    for (const [who, query, own] of [
      [aurora, "Humberto Delgado terminals", /^(HO-AUR|DMO-LIS)/],
      [boreal, "Lisboa Card tram", /^HO-BOR/],
    ] as const) {
      const { results, confidence } = await call(who, "service_search_documents", { query });
      expect(confidence, query).not.toBe("high");
      for (const r of results) expect(r.entityId).toMatch(own);
    }
    expect((await call(boreal, "service_search_documents", { query: "Aurora Rewards", entityId: "HO-AUR" })).results).toEqual([]);
    expect((await call(aurora, "service_search_documents", { query: common, entityId: "HO-BOR" })).results).toEqual([]);
    expect((await call(aurora, "service_search_documents", { query: common, entityId: "HO-BOR-0001" })).results).toEqual([]);
    expect((await call(aurora, "service_search_documents", { query: "airport terminal", kind: "airport" })).results).toEqual([]);
  });

  it("filters by entityId (a brand includes its properties), kind and category", async () => {
    const one = await call(aurora, "service_search_documents", { query: "parking", entityId: "HO-AUR-0002" });
    for (const r of one.results) expect(r.entityId).toBe("HO-AUR-0002");
    const destination = await call(aurora, "service_search_documents", { query: "card tram metro", kind: "destination" });
    expect(destination.results.length).toBeGreaterThan(0);
    for (const r of destination.results) expect(r.entityId).toBe("DMO-LIS");
    const category = await call(aurora, "service_search_documents", { query: "hotel", category: "Wi-Fi", limit: 20 });
    for (const r of category.results) expect(r.category).toBe("Wi-Fi");
  });

  it.each([
    '"',
    'parking" OR "x',
    "NEAR(parking pets)",
    "question:parking",
    "park*",
    "-parking",
    "^",
    "(",
    "AND OR NOT",
    "'; DROP TABLE faqs; --",
    "🙂",
  ])("never parses user text as FTS5 syntax: %s", async (query) => {
    const { results } = await call(aurora, "service_search_documents", { query });
    for (const r of results) expect(r.entityId).toMatch(/^(HO-AUR|DMO-LIS)/);
  });
});

describe("invalid tool calls", () => {
  it.each([
    ["service_query", {}, /entity: Invalid input: expected string/],
    ["service_query", { entity: "" }, /entity: Too small: expected string to have >=1 characters/],
    ["service_query", { entity: "HO-AUR", limit: 500 }, /limit: Too big: expected number to be <=50/],
    ["service_query", { entity: "HO-AUR", unexpected: true }, /Unrecognized key: "unexpected"/],
    ["service_search_documents", { query: "" }, /query: Too small/],
    ["service_search_documents", { query: "x".repeat(501) }, /query: Too big: expected string to have <=500 characters/],
    [
      "service_search_documents",
      { query: "parking", kind: "hotel" },
      /kind: Invalid option: expected one of "brand"\|"property"\|"destination"\|"airport"/,
    ],
    ["service_list_entities", { limit: 0 }, /limit: Too small: expected number to be >=1/],
    ["service_list_entities", { limit: 201 }, /limit: Too big: expected number to be <=200/],
    ["service_list_entities", { cursor: "not-a-cursor" }, /cursor is not a nextCursor this tool returned/],
    ["service_list_entities", { limit: "ten" }, /limit: Invalid input: expected number, received string/],
  ])("%s %j is a tool result with isError that names the field and what is allowed", async (name, args, message) => {
    const reply = await rpc(aurora.token, aurora.session, "tools/call", { name, arguments: args });
    expect(reply.error).toBeUndefined();
    expect(reply.result.isError).toBe(true);
    expect(reply.result.content[0].text).toMatch(message);
    expect(reply.result.content[0].text).not.toMatch(/at .*\.ts:\d+/);
  });

  it("answers an unknown category with the categories in the caller's scope", async () => {
    for (const [name, args] of [
      ["service_search_documents", { query: "parking", category: "Parkng" }],
      ["service_query", { entity: "HO-AUR-0001", category: "Parkng" }],
    ] as const) {
      const reply = await rpc(aurora.token, aurora.session, "tools/call", { name, arguments: args });
      expect(reply.result.isError).toBe(true);
      expect(reply.result.content[0].text).toMatch(/^Unknown category "Parkng"\. The categories in your scope are: .*Parking.*\.$/);
    }
    // A category that exists but has no match is an empty answer, not an error.
    expect((await call(aurora, "service_query", { entity: "DMO-LIS", category: "Wellness" })).total).toBe(0);
  });

  it("keeps an unknown tool a JSON-RPC error (-32602) that names the tools", async () => {
    const reply = await rpc(aurora.token, aurora.session, "tools/call", { name: "no_such_tool", arguments: {} });
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toMatch(
      /Unknown tool: no_such_tool\. The tools are service_query, service_search_documents, service_list_entities\./,
    );
  });
});

describe("lookups as people type them", () => {
  it("match entity IDs case-insensitively in every tool", async () => {
    expect((await call(aurora, "service_query", { entity: "ho-aur-0001" })).entity.id).toBe("HO-AUR-0001");
    const listed = await call(aurora, "service_list_entities", { brandId: "ho-aur", limit: 2 });
    expect(listed.entities.map((e: { id: string }) => e.id)).toEqual(["HO-AUR-0001", "HO-AUR-0002"]);
    const hits = await call(aurora, "service_search_documents", { query: "parking", entityId: "ho-aur-0002" });
    expect(hits.results.length).toBeGreaterThan(0);
    for (const r of hits.results) expect(r.entityId).toBe("HO-AUR-0002");
  });

  it("match full names case-insensitively beyond ASCII (MÜNCHEN finds München), in query, list and suggestions", async () => {
    const record = {
      id: "HO-AUR-0900",
      kind: "property",
      name: "Aurora München Hauptbahnhof",
      brandId: "HO-AUR",
      propertyId: 900001,
      faqs: [{ category: "Parking", question: "Parking?", answer: "Yes." }],
    };
    await importRecords([record]);
    expect((await call(aurora, "service_query", { entity: "AURORA MÜNCHEN HAUPTBAHNHOF" })).entity.id).toBe("HO-AUR-0900");
    expect((await call(aurora, "service_list_entities", { nameContains: "MÜNCHEN" })).entities.map((e: { id: string }) => e.id)).toEqual([
      "HO-AUR-0900",
    ]);
    // "münchen" alone fits every hotel in Munich: the one named so comes first, then those its English name names.
    const munich = await call(aurora, "service_query", { entity: "münchen" });
    expect(munich.entity).toBeNull();
    expect(munich.suggestions[0]).toBe("Aurora München Hauptbahnhof");
    expect(munich.suggestions.slice(1).every((name: string) => name.startsWith("Aurora Munich"))).toBe(true);
    // A name folded by an older rule (lower() of a migration: Ö stays Ö) is refolded when the same record is imported again;
    // until then it is found as a name as written, not as its registered name.
    const oland = { ...record, id: "HO-AUR-0901", name: "Aurora ÖLAND Strand", propertyId: 900002 };
    await importRecords([oland]);
    await env.DB.prepare("UPDATE entities SET name_key = lower(name) WHERE id = 'HO-AUR-0901'").run();
    expect((await call(aurora, "service_query", { entity: "aurora öland strand" })).entity).toMatchObject({
      id: "HO-AUR-0901",
      matchedBy: "fuzzy",
    });
    expect((await importRecords([oland])).changed).toEqual(["HO-AUR-0901"]);
    expect((await call(aurora, "service_query", { entity: "aurora öland strand" })).entity).toMatchObject({
      id: "HO-AUR-0901",
      matchedBy: "name",
    });
  });
});
