import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ANALYZER_VERSION } from "../../../src/search/analyze";
import { LEXICON_MAX_AGE_MS } from "../../../src/search/current-lexicon";
import { dayOf } from "../../../src/search/unanswered";
import { dailyUpkeep } from "../../../src/upkeep";
import { admin, adminJson } from "../support/admin";
import { expectEnvelope } from "../support/mcp";
import { callTool, openCallers } from "../support/mcp";

const { aurora, boreal } = openCallers("aurora", "boreal");
const ask = (question: string) =>
  callTool(aurora.token, aurora.session, "service_search_documents", { query: question, entityId: "HO-AUR", limit: 1 });

afterEach(() => vi.useRealTimers());

describe("the operator's lexicon", () => {
  it("lists the built-in terms by concept and language, marking the operator's", async () => {
    const { concepts } = await adminJson("GET", "/lexicon?concept=parking&language=en");
    expect(concepts).toEqual([
      {
        concept: "parking",
        kind: "topic",
        language: "en",
        terms: expect.arrayContaining([{ term: "car park", source: "built-in", addedAt: null }]),
      },
      {
        concept: "parking",
        kind: "word",
        language: "en",
        terms: expect.arrayContaining([{ term: "parking lot", source: "built-in", addedAt: null }]),
      },
    ]);
    const words = await adminJson("GET", "/lexicon?concept=parking&language=pt&kind=word");
    expect(words.concepts.map((c: { kind: string }) => c.kind)).toEqual(["word"]);
  });

  it("adds a local word that questions use at once, audited, and removes it again", async () => {
    // Before: nothing in the content or the lexicon knows the word.
    expect((await ask("funicular?")).results).toEqual([]);
    const added = await adminJson("POST", "/lexicon/terms", { concept: "transport", term: "Funicular" }, 201);
    expect(added).toMatchObject({ concept: "transport", kind: "topic", language: "en", term: "Funicular" });
    expect((await ask("funicular?")).results[0].category).toBe("Transport");
    const { concepts } = await adminJson("GET", "/lexicon?concept=transport&language=en");
    expect(concepts[0].terms).toContainEqual({ term: "Funicular", source: "operator", addedAt: added.addedAt });
    const audit = await adminJson("GET", "/audit?target=transport");
    expect(audit.entries[0]).toMatchObject({ action: "lexicon.term.add", detail: { language: "en", term: "Funicular", kind: "topic" } });

    expect(
      (await admin("DELETE", `/lexicon/terms?${new URLSearchParams({ concept: "transport", term: "funicular" }).toString()}`)).status,
    ).toBe(204);
    expect((await adminJson("GET", "/audit?target=transport")).entries[0].action).toBe("lexicon.term.remove");
    expect((await ask("funicular?")).results).toEqual([]);
  });

  it("makes a new concept of a new name, a facet when asked", async () => {
    await adminJson("POST", "/lexicon/terms", { concept: "pinball", term: "pinball", kind: "facet", language: "pt" }, 201);
    expect((await adminJson("GET", "/lexicon?concept=pinball")).concepts).toEqual([
      { concept: "pinball", kind: "facet", language: "pt", terms: [{ term: "pinball", source: "operator", addedAt: expect.any(String) }] },
    ]);
  });

  it("refuses terms it cannot take, by field, and changes nothing", async () => {
    const before = (await adminJson("GET", "/lexicon")).concepts.length;
    for (const [body, field] of [
      [{ concept: "Parking!", term: "x" }, "concept"],
      [{ concept: "parking", term: "" }, "term"],
      [{ concept: "parking", term: "…!?" }, "term"],
      [{ concept: "parking", term: "a\u0007b" }, "term"],
      [{ concept: "parking", term: "x".repeat(81) }, "term"],
      [{ concept: "parking", term: "garagem", language: "xx" }, "language"],
      [{ concept: "parking", term: "garagem", extra: true }, "(body)"],
    ] as const) {
      const res = await admin("POST", "/lexicon/terms", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json<{ error: { details: { field: string }[] } }>()).error.details.map((d) => d.field)).toContain(field);
    }
    expect(await expectEnvelope(await admin("POST", "/lexicon/terms", { concept: "parking", term: "Car Park" }), 409, "conflict")).toMatch(
      /already/,
    );
    expect(
      await expectEnvelope(
        await admin("POST", "/lexicon/terms", { concept: "parking", term: "stellplatz", kind: "facet" }),
        409,
        "conflict",
      ),
    ).toMatch(/is a topic/);
    expect(await expectEnvelope(await admin("DELETE", "/lexicon/terms?concept=parking&term=garage"), 409, "conflict")).toMatch(/built-in/);
    expect(await expectEnvelope(await admin("DELETE", "/lexicon/terms?concept=parking&term=zeppelin"), 404, "not_found")).toMatch(
      /zeppelin/,
    );
    expect((await adminJson("GET", "/lexicon")).concepts.length).toBe(before);
  });

  it(`is used everywhere within ${LEXICON_MAX_AGE_MS / 1000} s of a change made elsewhere`, async () => {
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
    await adminJson("POST", "/search/plan", { question: "warm the lexicon" }); // this isolate reads the lexicon at `now`
    // Another isolate adds a term: this one's copy does not know it yet, and may not for LEXICON_MAX_AGE_MS.
    await env.DB.prepare(
      "INSERT INTO lexicon_terms (concept, kind, language, term, created_at) VALUES ('transport', 'topic', 'en', 'zeppelin', ?)",
    )
      .bind(new Date(now).toISOString())
      .run();
    expect((await ask("zeppelin?")).results).toEqual([]);
    vi.setSystemTime(now + LEXICON_MAX_AGE_MS + 1);
    expect((await ask("zeppelin?")).results[0].category).toBe("Transport");
    await env.DB.prepare("DELETE FROM lexicon_terms WHERE term = 'zeppelin'").run();
  });

  it("refuses a term another isolate added a moment ago with 409, as the database has it", async () => {
    await adminJson("POST", "/search/plan", { question: "warm the lexicon" });
    await env.DB.prepare(
      "INSERT INTO lexicon_terms (concept, kind, language, term, created_at) VALUES ('transport', 'topic', 'en', 'hovercraft', '2026-11-01T00:00:00.000Z')",
    ).run();
    expect(
      await expectEnvelope(await admin("POST", "/lexicon/terms", { concept: "transport", term: "Hovercraft" }), 409, "conflict"),
    ).toMatch(/already/);
    await env.DB.prepare("DELETE FROM lexicon_terms WHERE term = 'hovercraft'").run();
  });
});

describe("what a question searches for", () => {
  it("shows its words with their alternatives, the concepts, topics and kinds of answer", async () => {
    const plan = await adminJson("POST", "/search/plan", { question: "Posso levar o meu cão?" });
    expect(plan).toMatchObject({ language: "pt", detected: true, kinds: [] });
    expect(plan.concepts).toEqual(
      expect.arrayContaining([
        { concept: "pets", kind: "topic" },
        { concept: "dog", kind: "word" },
      ]),
    );
    const dog = plan.groups.find((g: { key: string }) => g.key === "w:4");
    expect(dog.alternatives).toEqual(
      expect.arrayContaining([
        { phrase: "cao", weight: 1 },
        { phrase: "dog", weight: expect.any(Number) },
      ]),
    );
    expect(plan.groups.find((g: { key: string }) => g.key === "t:pets").alternatives).toContainEqual({ phrase: "pet", weight: 1 });
    expect(plan.topics).toContainEqual({ concept: "pets", boost: expect.any(Number) });
    expect((await admin("POST", "/search/plan", { question: "" })).status).toBe(400);
  });
});

describe("analysing stored content again", () => {
  it("writes the index terms and name keys of an older analysis again, page by page, changing no text and no ETag", async () => {
    await env.DB.prepare(
      "UPDATE faqs SET terms_q = ' ' || lower(question) || ' ', terms_a = '', analyzer = 0 WHERE entity_id = 'HO-AUR-0003'",
    ).run();
    await env.DB.prepare("UPDATE entities SET name_key = 'stale' WHERE id = 'HO-AUR-0003'").run();
    const total = { entities: 0, faqs: 0 };
    for (let after = "HO-AUR-0002"; ;) {
      const page = await adminJson("POST", "/search/reindex", { after, limit: 2 });
      total.entities += page.entities;
      total.faqs += page.faqs;
      if (!page.next || page.next > "HO-AUR-0004") break;
      after = page.next;
    }
    expect(total.entities).toBe(1);
    expect(total.faqs).toBeGreaterThan(0);
    const stale = await env.DB.prepare("SELECT count(*) AS n FROM faqs WHERE analyzer < ?").bind(ANALYZER_VERSION).first<{ n: number }>();
    expect(stale!.n).toBe(0);
    expect((await env.DB.prepare("SELECT name_key FROM entities WHERE id = 'HO-AUR-0003'").first<{ name_key: string }>())!.name_key).toBe(
      "aurora madrid riverside",
    );
    expect((await adminJson("GET", "/audit?target=HO-AUR-0002")).entries[0]).toMatchObject({
      action: "search.reindex",
      detail: { entities: 1 },
    });
    expect((await adminJson("POST", "/search/reindex", { after: "HO-AUR-0002", limit: 2 })).faqs).toBe(0);
  });

  it("says how far the index is behind, and how many entities each page read, for the CLI's progress", async () => {
    const entities = (await env.DB.prepare("SELECT count(*) AS n FROM entities").first<{ n: number }>())!.n;
    await env.DB.prepare("UPDATE faqs SET analyzer = 0 WHERE entity_id = 'HO-AUR-0004'").run();
    const stale = (await env.DB.prepare("SELECT count(*) AS n FROM faqs WHERE entity_id = 'HO-AUR-0004'").first<{ n: number }>())!.n;
    expect(await adminJson("GET", "/search/reindex")).toEqual({ analyzer: ANALYZER_VERSION, staleFaqs: stale, entities });
    const page = await adminJson("POST", "/search/reindex", { after: "HO-AUR-0003", limit: 3 });
    expect(page).toEqual({ scanned: 3, entities: 0, faqs: stale, next: "HO-AUR-0006" });
    expect((await adminJson("GET", "/search/reindex")).staleFaqs).toBe(0);
  });
});

describe("unanswered questions", () => {
  const count = (organizationId: string, day: string, question: string, n: number) =>
    env.DB.prepare(
      "INSERT INTO unanswered_questions (organization_id, day, question, tool, count, last_seen_at) VALUES (?, ?, ?, 'service_query', ?, ?)",
    )
      .bind(organizationId, day, question, n, `${day}T12:00:00.000Z`)
      .run();
  const daysAgo = (n: number) => dayOf(new Date(Date.now() - n * 86_400_000));

  it("lists them most asked first, per organization or all, and never older than 30 days", async () => {
    await count("org-aurora", daysAgo(0), "is there a cinema", 3);
    await count("org-aurora", daysAgo(5), "is there a cinema", 2);
    await count("org-aurora", daysAgo(8), "can i rent a bike", 4);
    await count("org-boreal", daysAgo(1), "is there a sauna in the sea", 9);
    await count("org-aurora", daysAgo(31), "too old to show", 99);

    const ours = (questions: { question: string }[]) => questions.filter((q) => /cinema|bike|sauna|too old/.test(q.question));
    const week = await adminJson("GET", "/insights/unanswered?organizationId=org-aurora&since=7d");
    expect(week.since).toBe(daysAgo(6));
    expect(ours(week.questions)).toEqual([
      {
        organizationId: "org-aurora",
        question: "is there a cinema",
        entityId: null,
        language: null,
        count: 5,
        tools: ["service_query"],
        lastSeenAt: `${daysAgo(0)}T12:00:00.000Z`,
        handled: null,
      },
    ]);
    const all = await adminJson("GET", "/insights/unanswered?since=2020-01-01");
    expect(all.since).toBe(daysAgo(29));
    expect(ours(all.questions).map((q) => q.question)).toEqual(["is there a sauna in the sea", "is there a cinema", "can i rent a bike"]);
    for (const since of ["yesterday", "0d", "100d"])
      expect((await admin("GET", `/insights/unanswered?since=${since}`)).status, since).toBe(400);
    expect((await adminJson("GET", "/insights/unanswered?since=1d")).since).toBe(daysAgo(0));
  });

  it("shows the entity and language each was asked of, filtered by either, in plain words when a filter is wrong", async () => {
    const asked = (entityId: string | null, language: string | null, question: string) =>
      env.DB.prepare(
        `INSERT INTO unanswered_questions (organization_id, day, question, tool, entity_id, language, count, last_seen_at)
         VALUES ('org-aurora', ?, ?, 'service_query', ?, ?, 1, ?)`,
      )
        .bind(daysAgo(0), question, entityId, language, new Date().toISOString())
        .run();
    await asked("HO-AUR-0003", "pt-BR", "tem um planetário");
    await asked("HO-AUR-0003", "de", "gibt es ein planetarium");
    await asked("DMO-LIS", "en", "is there a planetarium");
    type Row = { question: string; entityId: string | null; language: string | null };
    const planetaria = async (query: string) =>
      (await adminJson<{ questions: Row[] }>("GET", `/insights/unanswered?organizationId=org-aurora&since=1d${query}`)).questions
        .filter((q) => /planet/.test(q.question))
        .map((q) => [q.entityId, q.language, q.question]);
    expect(await planetaria("&entityId=HO-AUR-0003&language=pt")).toEqual([["HO-AUR-0003", "pt-BR", "tem um planetário"]]);
    // A brand takes its hotels.
    expect((await planetaria("&entityId=HO-AUR")).map(([, language]) => language).sort()).toEqual(["de", "pt-BR"]);
    expect(await planetaria("&language=en")).toEqual([["DMO-LIS", "en", "is there a planetarium"]]);
    for (const [query, message] of [
      ["language=klingon", /language/],
      ["entityId=no%20such%20hotel", /entityId/],
    ] as const) {
      const res = await admin("GET", `/insights/unanswered?${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.text()).toMatch(message);
    }
  });

  it("deletes what is older than 30 days in the daily upkeep", async () => {
    await count("org-aurora", daysAgo(40), "long forgotten", 1);
    await dailyUpkeep(env, new Date());
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM unanswered_questions WHERE day < ?").bind(daysAgo(29)).first<{ n: number }>())!.n,
    ).toBe(0);
  });

  it("counts what a tool could not answer, for its own organization only", async () => {
    await callTool(boreal.token, boreal.session, "service_search_documents", { query: "do you rent paddle boards?" });
    const boreals = await adminJson("GET", "/insights/unanswered?organizationId=org-boreal&since=1d");
    expect(boreals.questions.map((q: { question: string }) => q.question)).toContain("do you rent paddle boards");
    const auroras = await adminJson("GET", "/insights/unanswered?organizationId=org-aurora&since=1d");
    expect(auroras.questions.map((q: { question: string }) => q.question)).not.toContain("do you rent paddle boards");
  });
});
