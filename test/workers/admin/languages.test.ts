import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { serializeContent } from "../../../scripts/lib/content-files.mjs";
import { buildDemoContent, FIXTURE_TRANSLATIONS } from "../../../src/fixture/demo";
import { admin, adminJson, exportAll, importRecords, stageImport } from "../support/admin";
import { get } from "../support/content";
import { UNCOUNTED } from "../support/partner-sync";

/** Importing and exporting content in several languages through the operator API. */

const version = async () => (await env.DB.prepare("SELECT version FROM content_version").first<{ version: number }>())!.version;
const rows = async (entityId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM faqs WHERE entity_id = ?").bind(entityId).first<{ n: number }>())!.n;

const TOWN = {
  id: "DMO-LANG",
  kind: "destination",
  name: "Lisbon Town",
  updatedAt: "2026-10-01T00:00:00Z",
  faqs: [
    { category: "Transport", question: "How do I get around?", answer: "By tram." },
    { category: "Policies", question: "Is there a tourist tax?", answer: "Yes, EUR 4." },
  ],
  translations: [
    {
      language: "de",
      name: "Lissabon Stadt",
      faqs: [{ source: "How do I get around?", question: "Wie komme ich herum?", answer: "Mit der Tram." }],
    },
    {
      language: "pt",
      name: "Cidade de Lisboa",
      faqs: [
        { source: "How do I get around?", question: "Como me desloco?", answer: "De elétrico." },
        { source: "Is there a tourist tax?", question: "Há taxa turística?", answer: "Sim, 4 EUR." },
      ],
    },
  ],
};

describe("content import with translations", () => {
  it("refuses a file with a bad translation by line and field, and changes nothing", async () => {
    const before = await version();
    const id = await stageImport([
      { ...TOWN, id: "DMO-LANG-OK" },
      { ...TOWN, id: "DMO-LANG-1", translations: [{ language: "klingonese", name: "x" }] },
      { ...TOWN, id: "DMO-LANG-2", translations: [TOWN.translations[1], { ...TOWN.translations[1], language: "pt" }] },
      {
        ...TOWN,
        id: "DMO-LANG-3",
        translations: [{ language: "pt", faqs: [{ source: "Is there a pool?", question: "Piscina?", answer: "Não." }] }],
      },
      { ...TOWN, id: "DMO-LANG-4", defaultLanguage: "pt", translations: [{ language: "pt", name: "x" }] },
    ]);
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan.valid).toBe(false);
    expect(plan.errors.map((e: { line: number; field: string }) => `${e.line}:${e.field}`)).toEqual([
      "2:translations.0.language",
      "3:translations.1.language",
      "4:translations.0.faqs.0.source",
      "5:translations.0.language",
    ]);
    const refused = await admin("POST", `/imports/${id}/commit`);
    expect(refused.status).toBe(400);
    const body = await refused.json<{ error: { message: string; details: { line: number; field: string; message: string }[] } }>();
    expect(body.error.message).toMatch(/4 problems; nothing was applied/);
    expect(body.error.details[2]!.message).toMatch(/needs its source question/);
    expect(await version()).toBe(before);
    expect(await rows("DMO-LANG-OK")).toBe(0);
  });

  it("stores and serves the translations, and counts them apart from the FAQs", async () => {
    const committed = await importRecords([TOWN]);
    expect(committed.summary.faqs).toEqual({ added: 2, changed: 0, removed: 0 });
    expect(committed.summary.translations).toEqual({ added: 3, changed: 0, removed: 0 });
    const page = await (
      await get("/api/v3/content/DMO-LANG/faq.json?lang=pt", UNCOUNTED)
    ).json<{ about: { name: string }; mainEntity: { name: string }[] }>();
    expect(page.about.name).toBe("Cidade de Lisboa");
    expect(page.mainEntity.map((q) => q.name)).toEqual(["Como me desloco?", "Há taxa turística?"]);
  });

  it("exports translations in the import format, by language, and the export imports again as unchanged, byte for byte", async () => {
    await importRecords([TOWN]);
    const exported = (await exportAll()).find((r) => r.id === "DMO-LANG");
    expect(exported).toEqual(TOWN);
    expect(JSON.stringify(exported)).toBe(JSON.stringify(TOWN));
    const again = await importRecords([exported]);
    expect(again.summary.entities).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 1 });
    expect(again.summary.translations).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(serializeContent([(await exportAll()).find((r) => r.id === "DMO-LANG")], "ndjson")).toBe(serializeContent([TOWN], "ndjson"));
  });

  it("exports the demo fixture's translations as it was built, and nothing of languages for English-only content", async () => {
    const exported = new Map((await exportAll()).map((r) => [r.id, r]));
    for (const record of buildDemoContent().filter((r) => r.id === "HO-AUR-0051" || r.id === "DMO-LIS" || r.id === "HO-AUR-0001")) {
      // The export writes translations by language tag.
      const byTag = record.translations && [...record.translations].sort((a, b) => a.language.localeCompare(b.language));
      expect(exported.get(record.id), record.id).toEqual({ ...record, ...(byTag ? { translations: byTag } : {}) });
    }
    expect(exported.get("DMO-LIS").translations.map((t: { language: string }) => t.language)).toEqual([...FIXTURE_TRANSLATIONS].sort());
    expect(Object.keys(exported.get("HO-AUR-0001"))).not.toContain("translations");
    expect(Object.keys(exported.get("HO-AUR-0001"))).not.toContain("defaultLanguage");
  });

  it("moves the entity's dateModified and every language's ETag when only a translation changes, and the index with it", async () => {
    await importRecords([TOWN]);
    const etag = async (query: string) => (await get(`/api/v3/content/DMO-LANG/faq.json${query}`, UNCOUNTED)).headers.get("ETag");
    const [english, german] = [await etag(""), await etag("?lang=de")];
    const changed = {
      ...TOWN,
      translations: [
        { ...TOWN.translations[0], faqs: [{ ...TOWN.translations[0]!.faqs[0]!, answer: "Mit der Straßenbahn." }] },
        TOWN.translations[1],
      ],
    };
    const committed = await importRecords([changed]);
    expect(committed.summary.translations).toEqual({ added: 0, changed: 1, removed: 0 });
    expect(await etag("?lang=de")).not.toBe(german);
    expect(await etag("")).not.toBe(english);
    const indexed = await env.DB.prepare("SELECT terms_a FROM faqs WHERE entity_id = 'DMO-LANG' AND language = 'de'").first<{
      terms_a: string;
    }>();
    expect(indexed!.terms_a).toContain(" strassenbahn ");
  });
});
