import { describe, expect, it } from "vitest";
import { planContent, type CurrentContent, type StagedRecord } from "../../../src/catalogue/plan";
import type { ContentRecord, FaqRecord } from "../../../src/catalogue/records";
import { nameKey } from "../../../src/search/normalize";
import type { EntityKind, StoredEntity } from "../../../src/storage/entities";
import type { StoredFaq } from "../../../src/storage/faqs";
import { ANALYZER_VERSION } from "../../../src/search/analyze";

/** planContent decides an import from the file and what is stored, without storage: each rule at its edges. */

const NOW = "2026-12-01T09:00:00.000Z";
const EARLIER = "2026-11-01T10:00:00Z";

const faq = (n: number, answer = `Answer ${n}.`): FaqRecord => ({ category: "Parking", question: `Question ${n}?`, answer });

const brand = (id: string, faqs: FaqRecord[] = [], name = `Brand ${id}`): ContentRecord => ({ kind: "brand", id, name, faqs });
const property = (id: string, brandId: string, faqs: FaqRecord[] = [], name = `Hotel ${id}`): ContentRecord => ({
  kind: "property",
  id,
  name,
  brandId,
  propertyId: null,
  faqs,
});

/** The file: one record a line, from line 1. */
const file = (...records: ContentRecord[]): StagedRecord[] => records.map((record, i) => ({ line: i + 1, record }));

/** What is stored of a record: the entity row as an earlier import wrote it, and its FAQs at positions 0..n-1. */
let nextFaqId = 1;
function stored(...records: ContentRecord[]): CurrentContent {
  const entities: StoredEntity[] = records.map((record) => ({
    id: record.id,
    kind: record.kind,
    name: record.name,
    brand_id: record.kind === "property" ? record.brandId : null,
    property_id: record.kind === "property" ? record.propertyId : null,
    url: record.url ?? null,
    updated_at: EARLIER,
    default_language: record.defaultLanguage ?? "en",
    translated_names: JSON.stringify(
      Object.fromEntries((record.translations ?? []).flatMap((t) => (t.name ? [[t.language, t.name]] : []))),
    ),
    name_key: nameKey(record.name),
  }));
  const faqs: StoredFaq[] = records.flatMap((record) => [
    ...record.faqs.map(({ phrasings, ...f }, position) => ({
      id: nextFaqId++,
      entity_id: record.id,
      position,
      language: record.defaultLanguage ?? "en",
      translation: 0 as const,
      analyzer: ANALYZER_VERSION,
      ...f,
      ...(phrasings ? { phrasings: JSON.stringify(phrasings) } : {}),
    })),
    ...(record.translations ?? []).flatMap((t) =>
      (t.faqs ?? []).map(({ source, question, answer }) => {
        const position = record.faqs.findIndex((f) => f.question === source);
        return {
          id: nextFaqId++,
          entity_id: record.id,
          position,
          language: t.language,
          translation: 1 as const,
          analyzer: ANALYZER_VERSION,
          category: record.faqs[position]!.category,
          question,
          answer,
        };
      }),
    ),
  ]);
  return { entities, faqs };
}

const nothingStored: CurrentContent = { entities: [], faqs: [] };
const faqIds = (current: CurrentContent, entityId: string) => current.faqs.filter((f) => f.entity_id === entityId).map((f) => f.id);

describe("planContent: entities", () => {
  it("adds what is not stored, with its FAQs in order and the time of the import as updated_at", () => {
    const plan = planContent(file(brand("HO-NEW", [faq(1)]), property("HO-NEW-1", "HO-NEW", [faq(2), faq(3)])), nothingStored, NOW);
    expect(plan.errors).toEqual([]);
    expect(plan.ids).toEqual({ added: ["HO-NEW", "HO-NEW-1"], changed: [], removed: [] });
    expect(plan.changes.entities.insert).toEqual([
      {
        id: "HO-NEW",
        kind: "brand",
        name: "Brand HO-NEW",
        brand_id: null,
        property_id: null,
        url: null,
        updated_at: NOW,
        default_language: "en",
        translated_names: "{}",
      },
      {
        id: "HO-NEW-1",
        kind: "property",
        name: "Hotel HO-NEW-1",
        brand_id: "HO-NEW",
        property_id: null,
        url: null,
        updated_at: NOW,
        default_language: "en",
        translated_names: "{}",
      },
    ]);
    expect(plan.changes.faqs.insert).toEqual([
      { entity_id: "HO-NEW", position: 0, language: "en", translation: 0, ...faq(1) },
      { entity_id: "HO-NEW-1", position: 0, language: "en", translation: 0, ...faq(2) },
      { entity_id: "HO-NEW-1", position: 1, language: "en", translation: 0, ...faq(3) },
    ]);
    expect(plan.summary).toEqual({
      entities: { added: 2, changed: 0, removed: 0, unchanged: 0 },
      faqs: { added: 3, changed: 0, removed: 0 },
      translations: { added: 0, changed: 0, removed: 0 },
    });
  });

  it("keeps the file's updatedAt for an added entity (a restored export keeps its dates)", () => {
    const plan = planContent(file({ ...brand("HO-OLD"), updatedAt: EARLIER }), nothingStored, NOW);
    expect(plan.changes.entities.insert[0]!.updated_at).toBe(EARLIER);
  });

  it("leaves an entity that is the same, FAQs included, unchanged: nothing to write", () => {
    const record = property("HO-AUR-0001", "HO-AUR", [faq(1), faq(2)]);
    const plan = planContent(file(record), stored(brand("HO-AUR"), record), NOW);
    expect(plan.summary).toEqual({
      entities: { added: 0, changed: 0, removed: 0, unchanged: 1 },
      faqs: { added: 0, changed: 0, removed: 0 },
      translations: { added: 0, changed: 0, removed: 0 },
    });
    expect(plan.changes).toEqual({
      entities: { insert: [], update: [], remove: [] },
      faqs: { insert: [], update: [], remove: [] },
    });
  });

  it.each([
    ["its name", { name: "Renamed Hotel" }],
    ["its brand", { brandId: "HO-BOR" }],
    ["its property ID", { propertyId: 123456 }],
    ["its URL", { url: "https://aurora.example/lisbon" }],
  ])("changes an entity when %s differs, dated at the import whatever the file says", (_, difference) => {
    const before = property("HO-AUR-0001", "HO-AUR");
    const after = { ...before, ...difference, updatedAt: EARLIER } as ContentRecord;
    const plan = planContent(file(after), stored(brand("HO-AUR"), brand("HO-BOR"), before), NOW);
    expect(plan.ids.changed).toEqual(["HO-AUR-0001"]);
    expect(plan.changes.entities.update).toEqual([
      {
        id: "HO-AUR-0001",
        kind: "property",
        name: after.name,
        brand_id: (after as { brandId: string }).brandId,
        property_id: (after as { propertyId: number | null }).propertyId,
        url: after.url ?? null,
        updated_at: NOW,
        default_language: "en",
        translated_names: "{}",
      },
    ]);
    expect(plan.summary.entities).toEqual({ added: 0, changed: 1, removed: 0, unchanged: 0 });
  });

  it("rewrites an entity whose stored name key was folded by an older rule, though nothing else differs", () => {
    const record = brand("HO-OLA", [], "Aurora ÖLAND");
    const current = stored(record);
    current.entities[0]!.name_key = "aurora Öland"; // lower() of a migration folds ASCII only
    const plan = planContent(file(record), current, NOW);
    expect(plan.ids.changed).toEqual(["HO-OLA"]);
    expect(plan.changes.faqs).toEqual({ insert: [], update: [], remove: [] });
  });

  it("never touches what the file does not name", () => {
    const plan = planContent(file(brand("HO-NEW")), stored(brand("HO-AUR", [faq(1)]), property("HO-AUR-0001", "HO-AUR")), NOW);
    expect(plan.ids).toEqual({ added: ["HO-NEW"], changed: [], removed: [] });
    expect(plan.summary.entities.unchanged).toBe(0);
  });
});

describe("planContent: FAQs, compared position by position", () => {
  const planFaqs = (before: FaqRecord[], after: FaqRecord[]) => {
    const current = stored(brand("HO-FAQ", before));
    return { plan: planContent(file(brand("HO-FAQ", after)), current, NOW), ids: faqIds(current, "HO-FAQ") };
  };

  it("updates the FAQ whose text changed, keeping its row", () => {
    const { plan, ids } = planFaqs([faq(1), faq(2)], [faq(1), faq(2, "Changed.")]);
    expect(plan.changes.faqs).toEqual({
      insert: [],
      update: [
        { id: ids[1], entity_id: "HO-FAQ", position: 1, language: "en", translation: 0, analyzer: ANALYZER_VERSION, ...faq(2, "Changed.") },
      ],
      remove: [],
    });
    expect(plan.ids.changed).toEqual(["HO-FAQ"]);
    expect(plan.summary.faqs).toEqual({ added: 0, changed: 1, removed: 0 });
  });

  it.each([
    ["the category", { category: "Breakfast" }],
    ["the question", { question: "Another question?" }],
  ])("counts a change of %s alone as a change", (_, difference) => {
    const { plan } = planFaqs([faq(1)], [{ ...faq(1), ...difference }]);
    expect(plan.summary.faqs).toEqual({ added: 0, changed: 1, removed: 0 });
  });

  it("rewrites both positions when two FAQs swap places", () => {
    const { plan, ids } = planFaqs([faq(1), faq(2)], [faq(2), faq(1)]);
    expect(plan.changes.faqs.update).toEqual([
      { id: ids[0], entity_id: "HO-FAQ", position: 0, language: "en", translation: 0, analyzer: ANALYZER_VERSION, ...faq(2) },
      { id: ids[1], entity_id: "HO-FAQ", position: 1, language: "en", translation: 0, analyzer: ANALYZER_VERSION, ...faq(1) },
    ]);
    expect(plan.summary.faqs).toEqual({ added: 0, changed: 2, removed: 0 });
  });

  it("appends a FAQ added at the end, and shifts the later ones when it is inserted before them", () => {
    const appended = planFaqs([faq(1)], [faq(1), faq(2)]).plan;
    expect(appended.changes.faqs).toEqual({
      insert: [{ entity_id: "HO-FAQ", position: 1, language: "en", translation: 0, ...faq(2) }],
      update: [],
      remove: [],
    });

    const { plan, ids } = planFaqs([faq(1), faq(3)], [faq(1), faq(2), faq(3)]);
    expect(plan.changes.faqs).toEqual({
      insert: [{ entity_id: "HO-FAQ", position: 2, language: "en", translation: 0, ...faq(3) }],
      update: [{ id: ids[1], entity_id: "HO-FAQ", position: 1, language: "en", translation: 0, analyzer: ANALYZER_VERSION, ...faq(2) }],
      remove: [],
    });
  });

  it("removes the FAQs past the end of a shorter list, and all of them for an empty list", () => {
    const shorter = planFaqs([faq(1), faq(2), faq(3)], [faq(1)]);
    expect(shorter.plan.changes.faqs).toEqual({ insert: [], update: [], remove: shorter.ids.slice(1) });
    expect(shorter.plan.summary.faqs).toEqual({ added: 0, changed: 0, removed: 2 });

    const emptied = planFaqs([faq(1), faq(2)], []);
    expect(emptied.plan.changes.faqs.remove).toEqual(emptied.ids);
    expect(emptied.plan.ids.changed).toEqual(["HO-FAQ"]);
  });

  it("replaces the whole list when the stored positions are not 0..n-1", () => {
    const current = stored(brand("HO-GAP", [faq(1), faq(2)]));
    current.faqs[1]!.position = 5;
    const plan = planContent(file(brand("HO-GAP", [faq(1), faq(2)])), current, NOW);
    expect(plan.changes.faqs).toEqual({
      insert: [
        { entity_id: "HO-GAP", position: 0, language: "en", translation: 0, ...faq(1) },
        { entity_id: "HO-GAP", position: 1, language: "en", translation: 0, ...faq(2) },
      ],
      update: [],
      remove: faqIds(current, "HO-GAP"),
    });
  });
});

describe("planContent: a brand brings its whole roster", () => {
  it("removes the stored properties of a listed brand that the file leaves out, counting their FAQs", () => {
    const current = stored(
      brand("HO-AUR"),
      property("HO-AUR-0001", "HO-AUR", [faq(1)]),
      property("HO-AUR-0002", "HO-AUR", [faq(2), faq(3)]),
    );
    const plan = planContent(file(brand("HO-AUR"), property("HO-AUR-0001", "HO-AUR", [faq(1)])), current, NOW);
    expect(plan.ids).toEqual({ added: [], changed: [], removed: ["HO-AUR-0002"] });
    expect(plan.changes.entities.remove).toEqual(["HO-AUR-0002"]);
    // The removed property's FAQs go with it (cascade): counted, not written one by one.
    expect(plan.changes.faqs.remove).toEqual([]);
    expect(plan.summary).toEqual({
      entities: { added: 0, changed: 0, removed: 1, unchanged: 2 },
      faqs: { added: 0, changed: 0, removed: 2 },
      translations: { added: 0, changed: 0, removed: 0 },
    });
  });

  it("removes no property when only a property of the brand is in the file", () => {
    const current = stored(brand("HO-AUR"), property("HO-AUR-0001", "HO-AUR"), property("HO-AUR-0002", "HO-AUR"));
    const plan = planContent(file(property("HO-AUR-0001", "HO-AUR", [faq(1)])), current, NOW);
    expect(plan.ids).toEqual({ added: [], changed: ["HO-AUR-0001"], removed: [] });
  });

  it("removes nothing of another brand, nor a destination or airport", () => {
    const current = stored(brand("HO-AUR"), brand("HO-BOR"), property("HO-BOR-0001", "HO-BOR"), {
      kind: "destination",
      id: "DMO-LIS",
      name: "Visit Lisboa",
      faqs: [],
    });
    expect(planContent(file(brand("HO-AUR")), current, NOW).ids.removed).toEqual([]);
  });
});

describe("planContent: what it refuses, changing nothing", () => {
  const changesNothing = (plan: ReturnType<typeof planContent>) => {
    expect(plan.changes).toEqual({ entities: { insert: [], update: [], remove: [] }, faqs: { insert: [], update: [], remove: [] } });
    expect(plan.ids).toEqual({ added: [], changed: [], removed: [] });
    expect(plan.summary).toEqual({
      entities: { added: 0, changed: 0, removed: 0, unchanged: 0 },
      faqs: { added: 0, changed: 0, removed: 0 },
      translations: { added: 0, changed: 0, removed: 0 },
    });
  };

  it("an ID that is in the file twice, naming the first line on every later one", () => {
    const plan = planContent(file(brand("HO-DUP"), brand("HO-DUP", [], "Again"), brand("HO-OK"), brand("HO-DUP")), nothingStored, NOW);
    expect(plan.errors).toEqual([
      { line: 2, field: "id", message: "HO-DUP is already on line 1" },
      { line: 4, field: "id", message: "HO-DUP is already on line 1" },
    ]);
    changesNothing(plan);
  });

  it("a change of kind of a stored entity", () => {
    const plan = planContent(file(brand("HO-AUR-0002")), stored(brand("HO-AUR"), property("HO-AUR-0002", "HO-AUR")), NOW);
    expect(plan.errors).toEqual([
      { line: 1, field: "kind", message: "HO-AUR-0002 is stored as a property; an entity's kind cannot change" },
    ]);
    changesNothing(plan);
  });

  it("a property whose brand is neither in the file nor stored", () => {
    const plan = planContent(file(property("HO-ORPHAN-1", "HO-NOPE")), stored(brand("HO-AUR")), NOW);
    expect(plan.errors).toEqual([{ line: 1, field: "brandId", message: "no brand HO-NOPE in the file or stored" }]);
    changesNothing(plan);
  });

  it("a property whose brand is a property, stored or in the file", () => {
    const storedProperty = planContent(
      file(property("HO-UNDER-1", "HO-AUR-0001")),
      stored(brand("HO-AUR"), property("HO-AUR-0001", "HO-AUR")),
      NOW,
    );
    expect(storedProperty.errors).toEqual([{ line: 1, field: "brandId", message: "HO-AUR-0001 is a property, not a brand" }]);
    changesNothing(storedProperty);

    const inFile = planContent(file(brand("HO-NEW"), property("HO-NEW-1", "HO-NEW"), property("HO-NEW-2", "HO-NEW-1")), nothingStored, NOW);
    expect(inFile.errors).toEqual([{ line: 3, field: "brandId", message: "HO-NEW-1 is a property, not a brand" }]);
  });

  it("looks a property's brand up in the file before what is stored", () => {
    // HO-X is a brand in the file, so HO-X-1 has a brand; that HO-X is stored as a property is refused as a kind change.
    const plan = planContent(file(brand("HO-X"), property("HO-X-1", "HO-X")), stored(property("HO-X", "HO-AUR")), NOW);
    expect(plan.errors).toEqual([{ line: 1, field: "kind", message: "HO-X is stored as a property; an entity's kind cannot change" }]);
  });

  it("accepts a property whose brand is only in the file, or only stored", () => {
    expect(planContent(file(property("HO-NEW-1", "HO-NEW"), brand("HO-NEW")), nothingStored, NOW).errors).toEqual([]);
    expect(planContent(file(property("HO-AUR-0999", "HO-AUR")), stored(brand("HO-AUR")), NOW).errors).toEqual([]);
  });

  it("reports every problem of the file at once, in line order", () => {
    const plan = planContent(
      file(property("HO-A-1", "HO-NOPE"), brand("HO-AUR-0001"), brand("HO-B"), brand("HO-B")),
      stored(brand("HO-AUR"), property("HO-AUR-0001", "HO-AUR")),
      NOW,
    );
    expect(plan.errors.map((e) => `${e.line}:${e.field}`)).toEqual(["1:brandId", "2:kind", "4:id"]);
  });
});

describe("planContent: kinds", () => {
  it.each<[EntityKind, string]>([
    ["destination", "DMO-NEW"],
    ["airport", "AIR-NEW"],
  ])("adds a %s with neither brand nor property ID", (kind, id) => {
    const plan = planContent(file({ kind, id, name: id, faqs: [faq(1)] } as ContentRecord), nothingStored, NOW);
    expect(plan.changes.entities.insert).toEqual([
      { id, kind, name: id, brand_id: null, property_id: null, url: null, updated_at: NOW, default_language: "en", translated_names: "{}" },
    ]);
  });
});
