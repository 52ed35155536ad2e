import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { indexed } from "../../../src/catalogue/apply";

/**
 * Migration 0015 (content languages) on a database that holds content written before it: applied to a database
 * of its own, migrated up to 0014 and filled the way the service wrote content then.
 */

const db = env.MIGRATION_TEST_DB;
const [before, languages] = [
  env.TEST_MIGRATIONS.filter((m) => m.name < "0015"),
  env.TEST_MIGRATIONS.filter((m) => m.name.startsWith("0015")),
];

const hex = (text: string) =>
  Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();

describe("migration 0015: content languages", () => {
  beforeAll(async () => {
    await applyD1Migrations(db, before);
    const faq = (entityId: string, position: number, question: string) => {
      const terms = indexed({ category: "Parking", question, answer: "Yes, EUR 20 a night.", language: "en" });
      return db
        .prepare(
          `INSERT INTO faqs (entity_id, position, category, question, answer, terms_q, terms_a, terms_c, analyzer)
           VALUES (?, ?, 'Parking', ?, 'Yes, EUR 20 a night.', ?, ?, ?, ?)`,
        )
        .bind(entityId, position, question, terms.terms_q, terms.terms_a, terms.terms_c, terms.analyzer);
    };
    await db.batch([
      db.prepare(
        "INSERT INTO entities (id, kind, name, brand_id, property_id, updated_at, name_key) VALUES ('HO-OLD', 'brand', 'Old Brand', NULL, NULL, '2026-01-01T00:00:00Z', 'old brand')",
      ),
      db.prepare(
        "INSERT INTO entities (id, kind, name, brand_id, property_id, updated_at, name_key) VALUES ('HO-OLD-1', 'property', 'Old Hotel', 'HO-OLD', 7, '2026-01-01T00:00:00Z', 'old hotel')",
      ),
      faq("HO-OLD-1", 0, "Is there parking?"),
      faq("HO-OLD-1", 1, "Is there a garage?"),
    ]);
    await applyD1Migrations(db, languages);
  });

  it("keeps every entity and FAQ as they were, in English: the same IDs, text and brand", async () => {
    const entities = await db.prepare("SELECT id, default_language, translated_names FROM entities ORDER BY id").all();
    expect(entities.results).toEqual([
      { id: "HO-OLD", default_language: "en", translated_names: "{}" },
      { id: "HO-OLD-1", default_language: "en", translated_names: "{}" },
    ]);
    const faqs = await db.prepare("SELECT id, position, language, translation, question, brand_id, scope_key FROM faqs ORDER BY id").all();
    expect(faqs.results).toEqual([
      {
        id: 1,
        position: 0,
        language: "en",
        translation: 0,
        question: "Is there parking?",
        brand_id: "HO-OLD",
        scope_key: `k${hex("HO-OLD-1")} k${hex("HO-OLD")} l${hex("en")} lsource`,
      },
      {
        id: 2,
        position: 1,
        language: "en",
        translation: 0,
        question: "Is there a garage?",
        brand_id: "HO-OLD",
        scope_key: `k${hex("HO-OLD-1")} k${hex("HO-OLD")} l${hex("en")} lsource`,
      },
    ]);
  });

  it("rebuilds the full-text index over the kept rows, found by their scope and language keys", async () => {
    const match = (expression: string) =>
      db
        .prepare("SELECT rowid FROM faq_search WHERE faq_search MATCH ? ORDER BY rowid")
        .bind(expression)
        .all<{ rowid: number }>()
        .then((r) => r.results.map((row) => row.rowid));
    expect(await match(`scope_key : k${hex("HO-OLD")} AND scope_key : lsource AND {terms_q terms_a} : park`)).toEqual([1]);
    expect(await match(`scope_key : l${hex("en")}`)).toEqual([1, 2]);
  });

  it("takes translations beside their source, keyed by language, and moves the content version with them", async () => {
    const version = async () => (await db.prepare("SELECT version FROM content_version").first<{ version: number }>())!.version;
    const at = await version();
    const terms = indexed({ category: "Parking", question: "Há estacionamento?", answer: "Sim, 20 EUR por noite.", language: "pt" });
    await db
      .prepare(
        `INSERT INTO faqs (entity_id, position, language, translation, category, question, answer, terms_q, terms_a, terms_c, analyzer)
         VALUES ('HO-OLD-1', 0, 'pt', 1, 'Parking', 'Há estacionamento?', 'Sim, 20 EUR por noite.', ?, ?, ?, ?)`,
      )
      .bind(terms.terms_q, terms.terms_a, terms.terms_c, terms.analyzer)
      .run();
    expect(await version()).toBeGreaterThan(at);
    const row = await db.prepare("SELECT brand_id, scope_key FROM faqs WHERE language = 'pt'").first();
    expect(row).toEqual({ brand_id: "HO-OLD", scope_key: `k${hex("HO-OLD-1")} k${hex("HO-OLD")} l${hex("pt")}` });
    const found = await db
      .prepare("SELECT count(*) AS n FROM faq_search WHERE faq_search MATCH ?")
      .bind(`scope_key : l${hex("pt")} AND terms_q : estacion`)
      .first<{ n: number }>();
    expect(found!.n).toBe(1);
  });

  it("refuses a second FAQ in the default language at a position, and a second translation in one language", async () => {
    const insert = (language: string, translation: number) =>
      db
        .prepare(
          `INSERT INTO faqs (entity_id, position, language, translation, category, question, answer) VALUES ('HO-OLD-1', 1, ?, ?, 'Parking', 'Q?', 'A.')`,
        )
        .bind(language, translation)
        .run();
    await expect(insert("de", 0)).rejects.toThrow(/UNIQUE/);
    await insert("de", 1);
    await expect(insert("de", 1)).rejects.toThrow(/UNIQUE/);
  });
});
