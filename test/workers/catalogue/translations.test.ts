import { describe, expect, it } from "vitest";
import { planContent, type CurrentContent } from "../../../src/catalogue/plan";
import { parseRecord, type ContentRecord } from "../../../src/catalogue/records";
import { ANALYZER_VERSION } from "../../../src/search/analyze";
import { nameKey } from "../../../src/search/normalize";

/** A record's languages: what parseRecord refuses, by line and field, and what planContent writes of translations. */

const PARKING = { category: "Parking", question: "Is there parking?", answer: "Yes, EUR 20 a night." };
const PETS = { category: "Pets", question: "Are pets allowed?", answer: "Dogs are welcome." };
const PT = {
  language: "pt",
  name: "Hotel Lisboa",
  faqs: [{ source: "Is there parking?", question: "Há estacionamento?", answer: "Sim, 20 EUR por noite." }],
};
const HOTEL = { id: "DMO-LANG", kind: "destination", name: "Hotel Lisbon", faqs: [PARKING, PETS], translations: [PT] };

function problems(value: unknown): { field: string; message: string }[] {
  const parsed = parseRecord(3, value);
  if (!("errors" in parsed)) throw new Error(`parsed: ${JSON.stringify(parsed.record)}`);
  for (const error of parsed.errors) expect(error.line).toBe(3);
  return parsed.errors.map(({ field, message }) => ({ field, message }));
}

describe("parseRecord: languages", () => {
  it("keeps a record without languages as it was (English), and reads translations with canonical tags", () => {
    expect(parseRecord(1, { ...HOTEL, translations: undefined })).toEqual({
      record: { id: "DMO-LANG", kind: "destination", name: "Hotel Lisbon", faqs: [PARKING, PETS] },
    });
    const parsed = parseRecord(1, { ...HOTEL, defaultLanguage: "EN-gb", translations: [{ ...PT, language: "pt-br" }] });
    expect(parsed).toEqual({ record: { ...HOTEL, defaultLanguage: "en-GB", translations: [{ ...PT, language: "pt-BR" }] } });
  });

  it("accepts a translation of the name alone, and of FAQs alone", () => {
    expect(parseRecord(1, { ...HOTEL, translations: [{ language: "de", name: "Hotel Lissabon" }] })).toHaveProperty("record");
    expect(parseRecord(1, { ...HOTEL, translations: [{ language: "es", faqs: PT.faqs }] })).toHaveProperty("record");
  });

  it.each([
    ["an unknown tag", { translations: [{ ...PT, language: "portuguese" }] }, "translations.0.language", /not a BCP 47 tag/],
    ["a malformed tag", { translations: [{ ...PT, language: "pt_BR" }] }, "translations.0.language", /not a BCP 47 tag/],
    ["an unknown default language", { defaultLanguage: "xx" }, "defaultLanguage", /not a BCP 47 tag/],
    [
      "a language given twice",
      { translations: [PT, { ...PT, language: "PT" }] },
      "translations.1.language",
      /already translated at translations\.0/,
    ],
    ["the default language as a translation", { translations: [{ ...PT, language: "en" }] }, "translations.0.language", /default language/],
    ["a translation of nothing", { translations: [{ language: "fr" }] }, "translations.0", /translates nothing/],
    [
      "a translation without its source question",
      { translations: [{ language: "pt", faqs: [{ source: "Is there a pool?", question: "Há piscina?", answer: "Não." }] }] },
      "translations.0.faqs.0.source",
      /no question .* reads "Is there a pool\?": a translation needs its source question/,
    ],
    [
      "one question translated twice in a language",
      { translations: [{ language: "pt", faqs: [PT.faqs[0], PT.faqs[0]] }] },
      "translations.0.faqs.1.source",
      /same question as translations\.0\.faqs\.0/,
    ],
    [
      "a source that two FAQs share",
      { faqs: [PARKING, PARKING], translations: [PT] },
      "translations.0.faqs.0.source",
      /faqs\.0 and faqs\.1 both read this question/,
    ],
    [
      "a translated question left out",
      { translations: [{ language: "pt", faqs: [{ source: "Is there parking?", answer: "Sim." }] }] },
      "translations.0.faqs.0.question",
      /./,
    ],
    ["an unknown member", { translations: [{ ...PT, title: "x" }] }, "translations.0.title", /not a field/],
  ])("names the field of %s", (_, difference, field, message) => {
    const found = problems({ ...HOTEL, ...difference });
    expect(found.map((p) => p.field)).toContain(field);
    expect(found.find((p) => p.field === field)!.message).toMatch(message);
  });
});

const NOW = "2026-12-01T09:00:00.000Z";

/** What an import of `record` wrote, as planContent reads it back: entity row and FAQ rows (ids from 1). */
function storedAs(record: ContentRecord): CurrentContent {
  const plan = planContent([{ line: 1, record }], { entities: [], faqs: [] }, NOW);
  const [entity] = plan.changes.entities.insert;
  return {
    entities: [{ ...entity!, name_key: nameKey(entity!.name) }],
    faqs: plan.changes.faqs.insert.map((faq, i) => ({ ...faq, id: i + 1, analyzer: ANALYZER_VERSION })),
  };
}

const record = (value: unknown): ContentRecord => {
  const parsed = parseRecord(1, value);
  if ("errors" in parsed) throw new Error(JSON.stringify(parsed.errors));
  return parsed.record;
};

describe("planContent: translations", () => {
  it("adds a translation beside its source question's position, with the category of its source, and the names", () => {
    const plan = planContent([{ line: 1, record: record(HOTEL) }], { entities: [], faqs: [] }, NOW);
    expect(plan.changes.entities.insert[0]).toMatchObject({ default_language: "en", translated_names: '{"pt":"Hotel Lisboa"}' });
    expect(plan.changes.faqs.insert).toEqual([
      { entity_id: "DMO-LANG", position: 0, language: "en", translation: 0, ...PARKING },
      { entity_id: "DMO-LANG", position: 1, language: "en", translation: 0, ...PETS },
      {
        entity_id: "DMO-LANG",
        position: 0,
        language: "pt",
        translation: 1,
        category: "Parking",
        question: "Há estacionamento?",
        answer: "Sim, 20 EUR por noite.",
      },
    ]);
    expect(plan.summary.faqs).toEqual({ added: 2, changed: 0, removed: 0 });
    expect(plan.summary.translations).toEqual({ added: 1, changed: 0, removed: 0 });
  });

  it("writes nothing when the same translations are imported again", () => {
    const current = storedAs(record(HOTEL));
    const plan = planContent([{ line: 1, record: record(HOTEL) }], current, NOW);
    expect(plan.summary.entities.unchanged).toBe(1);
    expect(plan.changes.faqs).toEqual({ insert: [], update: [], remove: [] });
  });

  it("changes an entity whose translation, translated name or default language changed", () => {
    const current = storedAs(record(HOTEL));
    const changedAnswer = { ...HOTEL, translations: [{ ...PT, faqs: [{ ...PT.faqs[0], answer: "Sim." }] }] };
    const byAnswer = planContent([{ line: 1, record: record(changedAnswer) }], current, NOW);
    expect(byAnswer.ids.changed).toEqual(["DMO-LANG"]);
    expect(byAnswer.changes.faqs.update).toEqual([expect.objectContaining({ id: 3, language: "pt", answer: "Sim." })]);
    expect(byAnswer.summary.translations).toEqual({ added: 0, changed: 1, removed: 0 });

    const byName = planContent(
      [{ line: 1, record: record({ ...HOTEL, translations: [{ ...PT, name: "Hotel de Lisboa" }] }) }],
      current,
      NOW,
    );
    expect(byName.changes.entities.update).toEqual([
      expect.objectContaining({ translated_names: '{"pt":"Hotel de Lisboa"}', updated_at: NOW }),
    ]);

    const removed = planContent([{ line: 1, record: record({ ...HOTEL, translations: undefined }) }], current, NOW);
    expect(removed.changes.faqs.remove).toEqual([3]);
    expect(removed.summary.translations).toEqual({ added: 0, changed: 0, removed: 1 });
  });

  it("moves translations with their source, and removes them with it", () => {
    const current = storedAs(record(HOTEL));
    const swapped = planContent([{ line: 1, record: record({ ...HOTEL, faqs: [PETS, PARKING] }) }], current, NOW);
    // The Portuguese row of position 0 goes; position 1 (now parking) gets it.
    expect(swapped.changes.faqs.remove).toEqual([3]);
    expect(swapped.changes.faqs.insert).toEqual([expect.objectContaining({ position: 1, language: "pt", translation: 1 })]);
    const withoutParking = planContent([{ line: 1, record: record({ ...HOTEL, faqs: [PETS], translations: undefined }) }], current, NOW);
    expect(withoutParking.changes.faqs.remove.sort()).toEqual([2, 3]);
  });

  it("turns the default language's rows into translations and back by removing and inserting them, never two defaults at once", () => {
    const current = storedAs(record({ ...HOTEL, translations: [{ language: "pt", faqs: [PT.faqs[0]] }] }));
    const inPortuguese = record({
      ...HOTEL,
      defaultLanguage: "pt",
      faqs: [{ category: "Parking", question: "Há estacionamento?", answer: "Sim, 20 EUR por noite." }],
      translations: [{ language: "en", faqs: [{ source: "Há estacionamento?", question: PARKING.question, answer: PARKING.answer }] }],
    });
    const plan = planContent([{ line: 1, record: inPortuguese }], current, NOW);
    expect(plan.changes.entities.update).toEqual([expect.objectContaining({ default_language: "pt" })]);
    expect(plan.changes.faqs.remove.sort()).toEqual([1, 2, 3]);
    expect(plan.changes.faqs.insert).toEqual([
      expect.objectContaining({ position: 0, language: "pt", translation: 0 }),
      expect.objectContaining({ position: 0, language: "en", translation: 1 }),
    ]);
  });
});
