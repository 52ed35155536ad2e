import { describe, expect, it } from "vitest";
import { parseRecord } from "../../../src/catalogue/records";

/** parseRecord validates one row of a content file; each problem names its line and field. */

const FAQ = { category: "Parking", question: "Is there parking?", answer: "Yes." };
const BRAND = { id: "HO-NEW", kind: "brand", name: "New Hotels" };
const PROPERTY = { id: "HO-NEW-1", kind: "property", name: "New Hotel One", brandId: "HO-NEW", propertyId: 100001 };

/** The fields named by the errors of `value` on line 7 (failing when it parses). */
function fields(value: unknown): string[] {
  const parsed = parseRecord(7, value);
  if (!("errors" in parsed)) throw new Error(`parsed: ${JSON.stringify(parsed.record)}`);
  for (const error of parsed.errors) expect(error.line).toBe(7);
  return parsed.errors.map((e) => e.field);
}

/** The one error of `value`. */
function onlyError(value: unknown) {
  const parsed = parseRecord(7, value);
  if (!("errors" in parsed)) throw new Error(`parsed: ${JSON.stringify(parsed.record)}`);
  expect(parsed.errors).toHaveLength(1);
  return parsed.errors[0]!;
}

describe("parseRecord: valid records", () => {
  it("returns a brand with its FAQs, and an empty list when it has none", () => {
    expect(parseRecord(1, { ...BRAND, faqs: [FAQ] })).toEqual({ record: { ...BRAND, faqs: [FAQ] } });
    expect(parseRecord(1, BRAND)).toEqual({ record: { ...BRAND, faqs: [] } });
  });

  it("returns a property with a null property ID when it has none", () => {
    expect(parseRecord(1, PROPERTY)).toEqual({ record: { ...PROPERTY, faqs: [] } });
    const { propertyId: _, ...withoutId } = PROPERTY;
    expect(parseRecord(1, withoutId)).toEqual({ record: { ...withoutId, propertyId: null, faqs: [] } });
    expect(parseRecord(1, { ...PROPERTY, propertyId: null })).toEqual({ record: { ...PROPERTY, propertyId: null, faqs: [] } });
  });

  it("accepts a destination and an airport, and an updatedAt with an offset", () => {
    expect(parseRecord(1, { id: "DMO-X", kind: "destination", name: "X" })).toHaveProperty("record");
    expect(parseRecord(1, { id: "AIR-X", kind: "airport", name: "X", updatedAt: "2026-11-01T10:00:00+01:00" })).toHaveProperty("record");
  });

  it("accepts the longest ID, name and FAQ fields, and 500 FAQs", () => {
    const id = `HO-${"a".repeat(125)}`;
    const faq = { category: "c".repeat(100), question: "q".repeat(1_000), answer: "a".repeat(10_000) };
    expect(parseRecord(1, { ...BRAND, id, name: "n".repeat(300), faqs: [faq] })).toHaveProperty("record");
    expect(
      parseRecord(1, { ...BRAND, faqs: Array.from({ length: 500 }, (_, i) => ({ ...FAQ, question: `${FAQ.question} (${i})` })) }),
    ).toHaveProperty("record");
  });
});

describe("parseRecord: each field's error, by its path", () => {
  it.each([
    ["a missing id", { ...BRAND, id: undefined }, "id"],
    ["an ID of 129 characters", { ...BRAND, id: `HO-${"a".repeat(126)}` }, "id"],
    ["an ID with a space", { ...BRAND, id: "HO-NEW 1" }, "id"],
    ["an ID with a slash", { ...BRAND, id: "HO-NEW/1" }, "id"],
    ["an empty name", { ...BRAND, name: "" }, "name"],
    ["a name of 301 characters", { ...BRAND, name: "n".repeat(301) }, "name"],
    ["an updatedAt that is not a date-time", { ...BRAND, updatedAt: "yesterday" }, "updatedAt"],
    ["FAQs that are not a list", { ...BRAND, faqs: "none" }, "faqs"],
    ["501 FAQs", { ...BRAND, faqs: Array.from({ length: 501 }, (_, i) => ({ ...FAQ, question: `${FAQ.question} (${i})` })) }, "faqs"],
    ["a FAQ without an answer", { ...BRAND, faqs: [FAQ, { category: "Parking", question: "Q?" }] }, "faqs.1.answer"],
    ["an empty question", { ...BRAND, faqs: [{ ...FAQ, question: "" }] }, "faqs.0.question"],
    ["a category of 101 characters", { ...BRAND, faqs: [{ ...FAQ, category: "c".repeat(101) }] }, "faqs.0.category"],
    ["an answer of 10,001 characters", { ...BRAND, faqs: [{ ...FAQ, answer: "a".repeat(10_001) }] }, "faqs.0.answer"],
    ["a property without brandId", { ...PROPERTY, brandId: undefined }, "brandId"],
    ["a negative property ID", { ...PROPERTY, propertyId: -1 }, "propertyId"],
    ["a fractional property ID", { ...PROPERTY, propertyId: 1.5 }, "propertyId"],
    ["a property ID given as text", { ...PROPERTY, propertyId: "100001" }, "propertyId"],
  ])("%s is an error at that field", (_, value, field) => {
    expect(fields(value)).toEqual([field]);
  });

  it("names an unknown member by its path, and the record itself for a row that is not an object", () => {
    expect(fields({ ...BRAND, colour: "red" })).toEqual(["colour"]);
    expect(fields({ ...BRAND, faqs: [{ ...FAQ, extra: 1 }] })).toEqual(["faqs.0.extra"]);
    for (const value of ["not an object", 42, null, []]) expect(fields(value)).toEqual(["(record)"]);
  });

  it("refuses an unknown kind, and a kind's own member on another kind, at the kind or the member", () => {
    expect(fields({ ...BRAND, kind: "hotel" })).toEqual(["kind"]);
    expect(fields({ ...BRAND, brandId: "HO-AUR" })).toEqual(["brandId"]);
  });

  it("reports every problem of a row at once", () => {
    expect(fields({ id: "HO-BAD", kind: "property", name: "", faqs: [{ category: "", question: "Q?", answer: "A." }] }).sort()).toEqual(
      ["brandId", "faqs.0.category", "name"].sort(),
    );
  });
});

describe("parseRecord: ID prefixes (SPEC: brands and properties HO-, destinations DMO-, airports AIR-)", () => {
  it.each([
    ["brand", "DMO-NEW", "a brand ID starts with HO-"],
    ["property", "AIR-NEW-1", "a property ID starts with HO-"],
    ["destination", "HO-LIS", "a destination ID starts with DMO-"],
    ["airport", "DMO-LIS", "a airport ID starts with AIR-"],
  ])("a %s ID of %s is an error at id", (kind, id, message) => {
    const value = kind === "property" ? { ...PROPERTY, id } : { id, kind, name: "X" };
    expect(onlyError(value)).toEqual({ line: 7, field: "id", message });
  });

  it("a property's brandId must be an HO- ID too", () => {
    expect(onlyError({ ...PROPERTY, brandId: "DMO-LIS" })).toEqual({ line: 7, field: "brandId", message: "a brand ID starts with HO-" });
  });

  it("compares the prefix as written: ho- is not HO-", () => {
    expect(onlyError({ ...BRAND, id: "ho-new" })).toMatchObject({ field: "id", message: "a brand ID starts with HO-" });
  });
});

describe("parseRecord: every problem of a row in one run, in plain words", () => {
  it("reports a wrong kind beside the fields' problems and a translation's missing source", () => {
    const parsed = parseRecord(4, {
      id: "HO-NEW",
      kind: "hotel",
      name: "",
      colour: "red",
      faqs: [
        { category: "Parking", question: "Is there parking?", answer: "" },
        { category: "", question: 5, answer: "Yes." },
        { category: "Pets", question: "is there  PARKING?", answer: "No." },
      ],
      translations: [{ language: "pt", faqs: [{ source: "Is there a pool?", question: "Há piscina?", answer: "Sim." }] }],
    });
    expect(parsed).toEqual({
      errors: [
        { line: 4, field: "kind", message: "must be brand, property, destination or airport" },
        { line: 4, field: "name", message: "is empty" },
        { line: 4, field: "faqs.0.answer", message: "is empty" },
        { line: 4, field: "faqs.1.category", message: "is empty" },
        { line: 4, field: "faqs.1.question", message: "must be text" },
        { line: 4, field: "colour", message: "is not a field of a content record (check its spelling)" },
        { line: 4, field: "faqs.2.question", message: "asks the same question as faqs.0 (case and spacing aside)" },
        {
          line: 4,
          field: "translations.0.faqs.0.source",
          message: 'no question of this record\'s faqs reads "Is there a pool?": a translation needs its source question',
        },
      ],
    });
  });

  it("checks the questions and translations of a record whose ID and property number are wrong too", () => {
    const found = fields({
      id: 5,
      kind: "property",
      name: "Hotel",
      brandId: "DMO-1",
      propertyId: -1,
      faqs: [null, FAQ],
      translations: [{ language: "pt", faqs: [{ source: "Is there a lift?", question: "x", answer: "y" }] }, { language: "PT" }, 7],
    });
    expect(found.sort()).toEqual(
      [
        "id",
        "brandId",
        "propertyId",
        "faqs.0",
        "translations.0.faqs.0.source",
        "translations.1",
        "translations.1.language",
        "translations.2",
      ].sort(),
    );
  });

  it("never answers in a developer's words", () => {
    const parsed = parseRecord(1, { ...PROPERTY, propertyId: 2 ** 60, updatedAt: "yesterday", faqs: "none", name: 7 });
    if (!("errors" in parsed)) throw new Error("parsed");
    const messages = parsed.errors.map((e) => e.message).join("\n");
    expect(messages).not.toMatch(/9007199254740991|Invalid|expected|received|>=|<=/);
    expect(messages).toMatch(/must be a date and time/);
  });
});
