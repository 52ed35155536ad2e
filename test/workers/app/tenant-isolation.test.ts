import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { insertFaqs } from "../../../src/storage/faqs";
import { callTool, openSession, tokenFor } from "../support/mcp";
import { indexed } from "../../../src/catalogue/apply";

describe("what a tenant can learn from search", () => {
  it("gets the same search and ranked query responses after 1,000 out-of-scope FAQs full of the query terms are added", async () => {
    const aurora = await tokenFor("aurora");
    const sessionId = await openSession(aurora);
    const asks = [
      ["service_search_documents", { query: "parking", limit: 50 }],
      ["service_search_documents", { query: "parking breakfast", limit: 50 }],
      ["service_search_documents", { query: "are pets allowed", limit: 50 }],
      ["service_query", { entity: "HO-AUR-0001", question: "parking", limit: 50 }],
    ] as const;
    const responses = () => Promise.all(asks.map(([tool, args]) => callTool(aurora, sessionId, tool, args)));
    const before = await responses();
    expect(before[0].results.length).toBeGreaterThan(5);
    for (const hit of before[0].results) expect(Object.keys(hit)).not.toContain("score");

    // Another organization's content: long and short FAQs repeating the terms, which moves every
    // catalogue-wide statistic (document frequency, average length) that bm25 reads.
    const long = `${"parking breakfast pets allowed ".repeat(50)}${"filler ".repeat(400)}`;
    const faqs = Array.from({ length: 1_000 }, (_, i) => ({
      entity_id: "HO-BOR-0001",
      position: 100 + i,
      language: "en",
      translation: 0 as const,
      category: "Parking",
      question: i % 2 ? "parking parking parking" : long,
      answer: i % 3 ? "parking breakfast" : long,
    }));
    for (const statement of insertFaqs(env.DB, faqs.map(indexed))) await statement.run();
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM faqs WHERE entity_id = 'HO-BOR-0001'").first<{ n: number }>())!.n,
    ).toBeGreaterThanOrEqual(1_000);

    expect(await responses()).toEqual(before);
  });

  it("cannot reach another organization's FAQs by typing their scope key as a word", async () => {
    const aurora = await tokenFor("aurora");
    const sessionId = await openSession(aurora);
    const hex = (id: string) =>
      Array.from(new TextEncoder().encode(id), (b) => b.toString(16).padStart(2, "0"))
        .join("")
        .toUpperCase();
    for (const query of [`k${hex("HO-BOR-0001")}`, `k${hex("HO-BOR")} parking`, `scope_key k${hex("HO-BOR")}`]) {
      const { results } = await callTool(aurora, sessionId, "service_search_documents", { query, limit: 50 });
      expect(results.every((r: { entityId: string }) => /^(HO-AUR|DMO-LIS)/.test(r.entityId))).toBe(true);
    }
    const keyOnly = await callTool(aurora, sessionId, "service_search_documents", { query: `k${hex("HO-AUR-0001")}` });
    expect(keyOnly.results).toEqual([]);
  });

  it("follows a property to another brand: its FAQs are searched by the new brand's organization only, from both sides", async () => {
    const [aurora, boreal] = [await tokenFor("aurora"), await tokenFor("boreal")];
    const [auroraSession, borealSession] = [await openSession(aurora), await openSession(boreal)];
    const hits = async (token: string, sessionId: string) =>
      (
        await callTool(token, sessionId, "service_search_documents", {
          query: "parking breakfast pets wifi",
          entityId: "HO-AUR-0031",
          limit: 50,
        })
      ).results.length;
    const before = await hits(aurora, auroraSession);
    expect(before).toBeGreaterThan(0);
    expect(await hits(boreal, borealSession)).toBe(0);
    await env.DB.prepare("UPDATE entities SET brand_id = 'HO-BOR' WHERE id = 'HO-AUR-0031'").run();
    expect(await hits(aurora, auroraSession)).toBe(0);
    expect(await hits(boreal, borealSession)).toBe(before);
    // An FAQ written without its brand (not through the import, its index terms given by hand) is given it.
    const valet = indexed({ category: "Parking", question: "Valet parking?", answer: "Yes.", language: "en" });
    await env.DB.prepare(
      `INSERT INTO faqs (entity_id, position, category, question, answer, terms_q, terms_a, terms_c, analyzer)
       VALUES ('HO-AUR-0032', 900, ?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(valet.category, valet.question, valet.answer, valet.terms_q, valet.terms_a, valet.terms_c, valet.analyzer)
      .run();
    const row = await env.DB.prepare("SELECT brand_id, scope_key FROM faqs WHERE entity_id = 'HO-AUR-0032' AND position = 900").first<{
      brand_id: string;
      scope_key: string;
    }>();
    expect(row!.brand_id).toBe("HO-AUR");
    expect((await callTool(aurora, auroraSession, "service_search_documents", { query: "valet", limit: 5 })).results[0].entityId).toBe(
      "HO-AUR-0032",
    );
  });
});
