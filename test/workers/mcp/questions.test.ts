import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dayOf } from "../../../src/search/unanswered";
import { RANKED_AT_MOST } from "../../../src/storage/scoped-content";
import { importRecords, tokenForNewOrganization } from "../support/admin";
import { fetchWith } from "../support/app";
import { callTool, type Caller, mcpPost, openCallers, openSession, post } from "../support/mcp";

/** Guest questions in the guest's words, and hotels named as people name them, through the tools. */

const { aurora, boreal, kestrel } = openCallers("aurora", "boreal", "kestrel");
const call = (who: Caller, name: string, args: Record<string, unknown>) => callTool(who.token, who.session, name, args);
// HO-AUR-0004 has an FAQ in every category but Parking; HO-AUR-0002 has Parking.
const HOTEL = "HO-AUR-0004";

describe("questions in the guest's own words", () => {
  it.each([
    ["Can I bring my dog?", "Pets"],
    ["How much is the pet fee?", "Pets"],
    ["Do you have wifi?", "Wi-Fi"],
    ["Can I have a late checkout?", "Check-in & Check-out"],
    ["Is there a gym?", "Amenities"],
    ["Can I work out at the hotel?", "Amenities"],
    ["Can I get a refund if I cancel?", "Policies"],
    ["Posso levar o meu cão?", "Pets"],
    ["¿Hay gimnasio?", "Amenities"],
  ])("service_query puts the answer to %j first (%s)", async (question, category) => {
    const { faqs } = await call(aurora, "service_query", { entity: HOTEL, question, limit: 3 });
    expect(faqs[0].category).toBe(category);
  });

  it.each([
    ["Can I bring my dog?", "Pets"],
    ["where do I leave the car", "Parking"],
  ])("service_search_documents puts the answer to %j first (%s)", async (question, category) => {
    const { results } = await call(aurora, "service_search_documents", { query: question, entityId: "HO-AUR-0002", limit: 3 });
    expect(results[0].category).toBe(category);
  });

  it("marks in the snippet the words as written that matched what was asked", async () => {
    const { results } = await call(aurora, "service_search_documents", { query: "dogs welcome?", entityId: HOTEL, limit: 1 });
    expect(results[0].snippet).toMatch(/\*\*(pets|Dogs)\*\*/);
  });

  it(`ranks at most ${RANKED_AT_MOST} FAQs by BM25F, chosen by field and document frequency, so an FAQ naming the words in its question is never cut`, async () => {
    const faqs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ category: "Transport", question: `Ferry ${i}?`, answer: `The zeppelin stop ${i} is near.` }));
    for (const [id, n] of [
      ["DMO-CAP-AT", RANKED_AT_MOST],
      ["DMO-CAP-PAST", RANKED_AT_MOST + 1],
    ] as const) {
      // The one FAQ that names it in its question comes last, after all those that name it in their answers.
      await importRecords([
        { id, kind: "destination", name: id, faqs: [...faqs(n), { category: "Transport", question: "Zeppelin rides?", answer: "Daily." }] },
      ]);
      const token = await tokenForNewOrganization(`org-${id.toLowerCase()}`, [id]);
      const session = await openSession(token);
      const { results } = await callTool(token, session, "service_search_documents", { query: "zeppelin", limit: 3 });
      expect(results[0].question, id).toBe("Zeppelin rides?");
    }
  });

  it(`keeps a category or kind before choosing the ${RANKED_AT_MOST} FAQs it ranks`, async () => {
    const transport = Array.from({ length: RANKED_AT_MOST + 1 }, (_, i) => ({
      category: "Transport",
      question: `Zeppelin ${i}?`,
      answer: "Yes.",
    }));
    const dining = { category: "Dining", question: "Dinner with a view?", answer: "From the zeppelin deck." };
    await importRecords([{ id: "DMO-CAP-CAT", kind: "destination", name: "Capped categories", faqs: [...transport, dining] }]);
    const token = await tokenForNewOrganization("org-cap-cat", ["DMO-CAP-CAT"]);
    const session = await openSession(token);
    const { results } = await callTool(token, session, "service_search_documents", { query: "zeppelin", category: "Dining" });
    expect(results.map((r: { question: string }) => r.question)).toEqual(["Dinner with a view?"]);
  });

  it("ranks a brand's own FAQs, never its hotels', for service_query on the brand", async () => {
    const hotelFaqs = Array.from({ length: RANKED_AT_MOST + 1 }, (_, i) => ({
      category: "Transport",
      question: `Zeppelin ${i}?`,
      answer: "Yes.",
    }));
    await importRecords([
      {
        id: "HO-CAPB",
        kind: "brand",
        name: "Capped Brand",
        faqs: [
          { category: "Parking", question: "Parking?", answer: "Yes." },
          { category: "Transport", question: "Airships?", answer: "A zeppelin calls daily." },
        ],
      },
      { id: "HO-CAPB-0001", kind: "property", name: "Capped Brand One", brandId: "HO-CAPB", propertyId: null, faqs: hotelFaqs },
    ]);
    const token = await tokenForNewOrganization("org-cap-brand", ["HO-CAPB"]);
    const session = await openSession(token);
    const { faqs, total } = await callTool(token, session, "service_query", { entity: "HO-CAPB", question: "zeppelin" });
    expect(faqs.map((f: { question: string }) => f.question)).toEqual(["Airships?", "Parking?"]);
    expect(total).toBe(2);
  });

  it("never widens the scope: a concept's terms find only the caller's FAQs, from both sides", async () => {
    for (const [who, prefix] of [
      [aurora, /^(HO-AUR|DMO-LIS)/],
      [boreal, /^HO-BOR/],
    ] as const) {
      const { results } = await call(who, "service_search_documents", { query: "can I bring my puppy", limit: 50 });
      expect(results.length).toBeGreaterThan(0);
      for (const r of results) expect(r.entityId).toMatch(prefix);
    }
  });
});

describe("hotels named as people name them", () => {
  it.each([
    ["Aurora Lisbon Riverside Hotel", "HO-AUR-0001"],
    ["Lisbon Riverside", "HO-AUR-0001"],
    ["Aurora Lisbon Riversde", "HO-AUR-0001"],
    ["the Aurora in Krakow's old town", "HO-AUR-0085"],
    ["Aurora Wien Riverside", "HO-AUR-0016"],
    ["Lisbon tourism board", "DMO-LIS"],
  ])("resolves %j and says it matched by name as written", async (reference, id) => {
    const result = await call(aurora, "service_query", { entity: reference, question: "parking?" });
    expect(result.entity).toMatchObject({ id, matchedBy: "fuzzy" });
    expect(result.candidates).toBeUndefined();
  });

  it("says whether it matched by ID or registered name", async () => {
    expect((await call(aurora, "service_query", { entity: "ho-aur-0001" })).entity.matchedBy).toBe("id");
    expect((await call(aurora, "service_query", { entity: "aurora lisbon riverside" })).entity.matchedBy).toBe("name");
  });

  it("lists the candidates of an ambiguous name, those in the named city first, and answers from none", async () => {
    const lyon = await call(aurora, "service_query", { entity: "the Aurora in Lyon", question: "parking?" });
    expect(lyon.entity).toBeNull();
    expect(lyon.faqs).toEqual([]);
    expect(
      lyon.candidates
        .slice(0, 3)
        .map((c: { id: string }) => c.id)
        .sort(),
    ).toEqual(["HO-AUR-0008", "HO-AUR-0058", "HO-AUR-0108"]);
    expect(lyon.suggestions).toEqual(lyon.candidates.map((c: { name: string }) => c.name));
  });

  it("lists both entities registered under one name as candidates, and answers from neither", async () => {
    await importRecords([
      { id: "DMO-TWIN-A", kind: "destination", name: "Twin Harbour", faqs: [{ category: "Parking", question: "Parking?", answer: "A." }] },
      { id: "DMO-TWIN-B", kind: "destination", name: "Twin Harbour", faqs: [{ category: "Parking", question: "Parking?", answer: "B." }] },
    ]);
    const token = await tokenForNewOrganization("org-twins", ["DMO-TWIN-A", "DMO-TWIN-B"]);
    const session = await openSession(token);
    const result = await callTool(token, session, "service_query", { entity: "twin harbour", question: "parking?" });
    expect(result).toMatchObject({ entity: null, faqs: [], suggestions: ["Twin Harbour", "Twin Harbour"] });
    expect(result.candidates.map((c: { id: string }) => c.id)).toEqual(["DMO-TWIN-A", "DMO-TWIN-B"]);
    expect((await callTool(token, session, "service_query", { entity: "DMO-TWIN-B" })).entity.matchedBy).toBe("id");
  });

  it("looks for a brand among brands only, however many hotels share its words", async () => {
    const lodges = Array.from({ length: 501 }, (_, i) => ({
      id: `HO-ZPA-${String(i + 1).padStart(4, "0")}`,
      kind: "property",
      name: `Zephyr Collection Lodge ${i + 1}`,
      brandId: "HO-ZPA",
      propertyId: null,
      faqs: [],
    }));
    await importRecords([
      { id: "HO-ZPA", kind: "brand", name: "Alpine Partners", faqs: [] },
      ...lodges,
      { id: "HO-ZZB", kind: "brand", name: "Zephyr Collection", faqs: [] },
      { id: "HO-ZZB-0001", kind: "property", name: "Zephyr Collection Porto", brandId: "HO-ZZB", propertyId: null, faqs: [] },
    ]);
    const token = await tokenForNewOrganization("org-zephyr", ["HO-ZPA", "HO-ZZB"]);
    const session = await openSession(token);
    const { entities } = await callTool(token, session, "service_list_entities", { brandId: "Zephyr Colection" });
    expect(entities.map((e: { id: string }) => e.id)).toEqual(["HO-ZZB-0001"]);
  });

  it("narrows by a brand's ID for an organization that sees some of its hotels one by one, never further", async () => {
    const token = await tokenForNewOrganization("org-two-hotels", ["HO-AUR-0001", "HO-AUR-0002"]);
    const session = await openSession(token);
    const listed = await callTool(token, session, "service_list_entities", { brandId: "HO-AUR" });
    expect(listed.entities.map((e: { id: string }) => e.id)).toEqual(["HO-AUR-0001", "HO-AUR-0002"]);
    const { results } = await callTool(token, session, "service_search_documents", { query: "parking", entityId: "ho-aur" });
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r.entityId).toMatch(/^HO-AUR-000[12]$/);
    expect((await call(boreal, "service_list_entities", { brandId: "HO-AUR" })).entities).toEqual([]);
    expect((await call(boreal, "service_search_documents", { query: "parking", entityId: "HO-AUR" })).results).toEqual([]);
  });

  it("never resolves to, nor suggests, another organization's entity, from both sides", async () => {
    for (const [who, reference, own] of [
      [aurora, "Boreal Inn Oslo Riverside", /^(HO-AUR|DMO-LIS)/],
      [aurora, "Lisbon Humberto Delgado Airport", /^(HO-AUR|DMO-LIS)/],
      [boreal, "Aurora Lisbon Riverside", /^HO-BOR/],
      [boreal, "Visit Lisboa", /^HO-BOR/],
    ] as const) {
      const result = await call(who, "service_query", { entity: reference });
      expect(result.entity, reference).toBeNull();
      for (const c of result.candidates ?? []) expect(c.id).toMatch(own);
    }
  });

  it("resolves a name wherever a tool takes an entity: search's entityId and the list's brandId", async () => {
    const search = await call(aurora, "service_search_documents", { query: "pets", entityId: "Lisbon Riverside" });
    expect(search.entity).toMatchObject({ id: "HO-AUR-0001", matchedBy: "fuzzy" });
    for (const r of search.results) expect(r.entityId).toBe("HO-AUR-0001");
    const ambiguous = await call(aurora, "service_search_documents", { query: "pets", entityId: "the Aurora in Lyon" });
    expect(ambiguous.results).toEqual([]);
    expect(ambiguous.candidates[0].id).toMatch(/^HO-AUR-0(0(0|5)8|108)$/);
    const listed = await call(aurora, "service_list_entities", { brandId: "Aurora Hotels", limit: 1 });
    expect(listed.entities[0].brandId).toBe("HO-AUR");
    expect((await call(boreal, "service_list_entities", { brandId: "Aurora Hotels" })).entities).toEqual([]);
  });
});

describe("how sure the answer is, for an assistant to act on", () => {
  const RESORT = "HO-KES-0002";
  const words = async (who: Caller, name: string, args: Record<string, unknown>) => {
    const res = await post(who.token, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name, arguments: args } }, who.session);
    const reply = await res.json<{ result: { content: { type: string; text: string }[] } }>();
    return reply.result.content.map((c) => c.text);
  };

  it("answers a realistic hotel's question with confidence high, the right FAQ first among several alike", async () => {
    const { confidence, faqs } = await call(kestrel, "service_query", { entity: RESORT, question: "Is the main pool heated?", limit: 3 });
    expect(confidence).toBe("high");
    expect(faqs[0].question).toBe("Is the main pool heated?");
    const [, said] = await words(kestrel, "service_query", { entity: RESORT, question: "Is the main pool heated?" });
    expect(said).toMatch(/^Confidence: high\. The first FAQ answers/);
  });

  it("says low, not high, when the question names what the first FAQ never says, however likely it answers", async () => {
    // The FAQ says "from November to April", never "winter": right first, but not the certainty an assistant passes on as fact.
    const { confidence, faqs } = await call(kestrel, "service_query", { entity: RESORT, question: "Is the main pool heated in winter?" });
    expect(faqs[0].question).toBe("Is the main pool heated?");
    expect(confidence).toBe("low");
  });

  it("says none, in the result and in words, when nothing in the content answers, and lists the entity's FAQs for browsing only", async () => {
    for (const [who, entity] of [
      [kestrel, RESORT],
      [aurora, "HO-AUR-0001"],
    ] as const) {
      const result = await call(who, "service_query", { entity, question: "can we bring our dog along?", limit: 3 });
      expect(result.confidence, entity).toBe("none");
      expect(result.faqs.length).toBeGreaterThan(0);
      const [, said] = await words(who, "service_query", { entity, question: "can we bring our dog along?" });
      expect(said).toMatch(/^Confidence: none\. Nothing in this content answers the question/);
    }
    const search = await call(kestrel, "service_search_documents", { query: "are dogs allowed?", entityId: RESORT });
    expect(search).toMatchObject({ confidence: "none", results: [] });
  });

  it("answers and abstains for each organization from its own content only, from both sides", async () => {
    const own = await call(kestrel, "service_search_documents", { query: "is breakfast included?", limit: 50 });
    expect(own.results.length).toBeGreaterThan(0);
    for (const r of own.results) expect(r.entityId).toMatch(/^HO-KES-/);
    const theirs = await call(aurora, "service_search_documents", { query: "is breakfast included?", limit: 50 });
    for (const r of theirs.results) expect(r.entityId).toMatch(/^(HO-AUR|DMO-LIS)/);
    expect((await call(aurora, "service_query", { entity: "Kestrel Praia Dourada", question: "is the pool heated?" })).entity).toBeNull();
    expect((await call(kestrel, "service_query", { entity: "HO-AUR-0004", question: "Can I bring my dog?" })).entity).toBeNull();
    // What one organization's content answers is never the other's answer.
    expect(
      (await call(kestrel, "service_search_documents", { query: "Aurora Lisbon Riverside parking" })).results.every(
        (r: { entityId: string }) => r.entityId.startsWith("HO-KES-"),
      ),
    ).toBe(true);
  });

  it("ranks FAQs an older analysis wrote as the current one would, before they are analysed again", async () => {
    await importRecords([
      {
        id: "DMO-STALE",
        kind: "destination",
        name: "Stale Terms",
        faqs: [
          { category: "Getting around", question: "Is there a tram to the old town?", answer: "Tram 28 stops at the door." },
          { category: "Good to know", question: "Is the tap water safe to drink?", answer: "Yes, it is." },
        ],
      },
    ]);
    // As a row written before migration 0010 holds it: words folded, nothing stemmed, analyzer 0.
    await env.DB.prepare(
      "UPDATE faqs SET terms_q = ' ' || lower(question) || ' ', terms_a = ' ' || lower(answer) || ' ', analyzer = 0 WHERE entity_id = 'DMO-STALE'",
    ).run();
    const token = await tokenForNewOrganization("org-stale", ["DMO-STALE"]);
    const session = await openSession(token);
    const { faqs, confidence } = await callTool(token, session, "service_query", { entity: "DMO-STALE", question: "trams?" });
    expect(faqs[0].question).toBe("Is there a tram to the old town?");
    expect(confidence).not.toBe("none");
  });

  it("states a confidence on every result, without a question too", async () => {
    expect((await call(kestrel, "service_query", { entity: RESORT })).confidence).toBe("none");
    expect((await call(kestrel, "service_query", { entity: "no such hotel" })).confidence).toBe("none");
    expect((await call(kestrel, "service_search_documents", { query: "pool towels", entityId: "no such hotel" })).confidence).toBe("none");
  });
});

describe("questions the content does not answer", () => {
  const counted = (organizationId: string, question: string) =>
    env.DB.prepare("SELECT sum(count) AS n FROM unanswered_questions WHERE organization_id = ? AND question = ? AND day = ?")
      .bind(organizationId, question, dayOf(new Date()))
      .first<{ n: number | null }>();

  it("counts a question nothing answers, per organization, without its personal data", async () => {
    await call(aurora, "service_search_documents", { query: "Is there a karaoke bar? Mail me at lia@example.com" });
    await call(aurora, "service_query", { entity: HOTEL, question: "is there a karaoke bar? mail me at lia@example.com" });
    expect((await counted("org-aurora", "is there a karaoke bar? mail me at [email]"))!.n).toBe(2);
    expect((await counted("org-boreal", "is there a karaoke bar? mail me at [email]"))!.n).toBeNull();
  });

  it("counts it with the entity it was asked of and its language, named or detected", async () => {
    const about = (question: string) =>
      env.DB.prepare(
        "SELECT tool, entity_id, language, count FROM unanswered_questions WHERE organization_id = 'org-aurora' AND question = ? AND day = ? ORDER BY tool, entity_id IS NULL, language",
      )
        .bind(question, dayOf(new Date()))
        .all<{ tool: string; entity_id: string | null; language: string | null; count: number }>();
    await call(aurora, "service_query", { entity: HOTEL, question: "Is there a bowling alley?" });
    await call(aurora, "service_query", { entity: HOTEL, question: "Is there a bowling alley?", language: "pt-BR" });
    await call(aurora, "service_search_documents", { query: "Is there a bowling alley?", entityId: "HO-AUR-0002" });
    await call(aurora, "service_search_documents", { query: "Is there a bowling alley?" });
    expect((await about("is there a bowling alley")).results).toEqual([
      { tool: "service_query", entity_id: HOTEL, language: "en", count: 1 },
      { tool: "service_query", entity_id: HOTEL, language: "pt-BR", count: 1 },
      { tool: "service_search_documents", entity_id: "HO-AUR-0002", language: "en", count: 1 },
      { tool: "service_search_documents", entity_id: null, language: "en", count: 1 },
    ]);
  });

  it("does not count a question the content answers", async () => {
    await call(aurora, "service_query", { entity: HOTEL, question: "Can I bring my dog?" });
    expect((await counted("org-aurora", "can i bring my dog"))!.n).toBeNull();
  });

  it("answers as usual when the count cannot be written: it is logged and lost", async () => {
    const refusing = new Proxy(env.DB, {
      get(db, property) {
        if (property !== "prepare") return Reflect.get(db, property, db) as unknown;
        return (sql: string) => {
          if (sql.includes("unanswered_questions")) throw new Error("D1_ERROR: no such table");
          return db.prepare(sql);
        };
      },
    });
    const res = await fetchWith(
      mcpPost(
        boreal.token,
        {
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { name: "service_search_documents", arguments: { query: "zeppelin mooring" } },
        },
        boreal.session,
      ),
      { DB: refusing },
    );
    const reply = await res.json<{ result: { isError?: boolean; content: { text: string }[] } }>();
    expect(reply.result.isError).toBeUndefined();
    expect(JSON.parse(reply.result.content[0]!.text)).toEqual({ confidence: "none", results: [] });
  });
});
