import Papa from "papaparse";
import { z } from "@hono/zod-openapi";
import { entitiesByIdOrBrand, type EntityRow } from "../storage/entities";
import { faqsOfEntities, localizedFaqs, type StoredFaq } from "../storage/faqs";
import { FILE_BOUNDS, tooManyRecords, tooManyRows } from "./file-bounds";
import type { StagedRecord } from "./plan";
import { ContentRecord, MAX_FAQS, MAX_LANGUAGES, parseRecord, toRecord, type RowError } from "./records";

/**
 * Content as CSV: one FAQ a row, for a content team's spreadsheet. A row of the entity's default language has
 * `entity`, `position` (optional), `category`, `question` and `answer`; a translation row also has `language`
 * and `source` (the question it translates, as the default language's row writes it) and no category (it takes
 * its source's). The rows of an entity are its whole FAQ list, translations included: an import of them is an
 * import of that entity's FAQ list, so FAQs left out of the file are removed. Only entities already stored are
 * named; their names, URLs and brand stay as they are (a full NDJSON or JSON import changes those).
 */

/** FAQ rows in the order `localizedFaqs` reads them: by position, the default language's first, then by language. */
export const inStoredOrder = <T extends StoredFaq>(rows: T[]): T[] =>
  [...rows].sort(
    (a, b) => a.position - b.position || a.translation - b.translation || (a.language < b.language ? -1 : a.language > b.language ? 1 : 0),
  );

export const CSV_COLUMNS = ["entity", "position", "category", "question", "answer", "language", "source", "phrasings"] as const;
const REQUIRED_COLUMNS = ["entity", "category", "question", "answer"] as const;
/** Columns a first line may name, at most: the file's own and room for a spreadsheet's extra empty ones. */
const MAX_CSV_COLUMNS = 32;
type Column = (typeof CSV_COLUMNS)[number];

/** One row of a CSV content file. */
const CsvRow = z.object({
  entity: z.string().default(""),
  position: z.string().default(""),
  category: z.string().default(""),
  question: z.string().default(""),
  answer: z.string().default(""),
  language: z.string().default(""),
  source: z.string().default(""),
  phrasings: z.string().default(""),
});
type CsvRow = z.infer<typeof CsvRow>;

/** An entity's rows: its FAQs in order and their translations, each with the CSV line it came from. */
export interface CsvFaqList {
  entityId: string;
  line: number;
  faqs: { line: number; category: string; question: string; answer: string; phrasings?: string[] }[];
  translations: { line: number; language: string; source: string; question: string; answer: string }[];
}

/** What separates cells: a comma, the semicolon Excel writes where the comma is a decimal sign, or a tab ("Unicode Text"). */
const DELIMITERS = [",", ";", "\t"] as const;

/** The delimiter the first line is written with: the one that splits it into the most names of columns (a comma on a tie). */
function delimiterOf(firstLine: string): (typeof DELIMITERS)[number] {
  const known = (delimiter: string) =>
    firstLine.split(delimiter).filter((cell) =>
      (CSV_COLUMNS as readonly string[]).includes(
        cell
          .trim()
          .replace(/^"(.*)"$/, "$1")
          .toLowerCase(),
      ),
    ).length;
  return DELIMITERS.reduce((best, delimiter) => (known(delimiter) > known(best) ? delimiter : best));
}

/** The line each row of `text` starts on (1-based, the header is line 1), with the row's cells by column. */
function rowsOf(file: string, delimiter: string): { header: string[]; rows: { line: number; cells: string[] }[]; errors: RowError[] } {
  const text = file.replace(/^\uFEFF/, "");
  const lineStarts: number[] = [];
  let cursor = 0;
  const cells: string[][] = [];
  const errors: RowError[] = [];
  // Lines counted as the rows go by, so a file of many rows costs one pass.
  let counted = 0;
  let line = 1;
  const lineAt = (offset: number) => {
    for (; counted < offset; counted += 1) if (text.charCodeAt(counted) === 10) line += 1;
    return line;
  };
  Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: "greedy",
    step: (result, parser) => {
      // The header and FILE_BOUNDS.csvRows rows; one more says the file is too long, and reading stops there.
      if (cells.length > FILE_BOUNDS.csvRows) {
        errors.push(tooManyRows());
        parser.abort();
        return;
      }
      // The cursor is where the row ends; it starts after the previous row's end and any blank lines.
      const start = cursor;
      cursor = result.meta.cursor;
      let first = start;
      while (first < text.length && (text[first] === "\n" || text[first] === "\r")) first += 1;
      lineStarts.push(lineAt(first));
      // A row keeps one cell past the header's columns (enough to say it has too many), whatever it holds.
      const width = (cells[0]?.length ?? MAX_CSV_COLUMNS) + 1;
      cells.push(result.data.length > width ? result.data.slice(0, width) : result.data);
      for (const error of result.errors) {
        errors.push({ line: lineAt(first), field: "(row)", message: csvProblem(error.code) });
      }
    },
  });
  const [header = [], ...rest] = cells;
  return {
    header: header.map((name) => name.trim().toLowerCase()),
    rows: rest.map((row, index) => ({ line: lineStarts[index + 1]!, cells: row })),
    errors,
  };
}

const csvProblem = (code: string): string =>
  code === "MissingQuotes"
    ? "has a quotation mark that is never closed: a text with commas or line breaks goes between two double quotes"
    : code === "TooFewFields" || code === "TooManyFields"
      ? "does not have as many cells as the first line has columns"
      : "cannot be read as CSV";

/** A cell as written before export kept a spreadsheet from running it: the ' that escapeFormulae puts first, taken off. */
const unescapedFormula = (cell: string): string => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** The FAQ lists a CSV file gives, by entity in the order they first appear, or every problem with it by line and column. */
export function parseCsv(text: string): { lists: CsvFaqList[]; errors: RowError[] } {
  // The first line names the columns: one with more separators than a content file could need is refused before it
  // is split, so a header of millions of columns costs a scan of one line, not millions of cells and problems.
  const firstLine =
    text
      .slice(0, Math.min(text.length, 65_536))
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/, 1)[0] ?? "";
  if ((firstLine.match(/[,;\t]/g)?.length ?? 0) >= MAX_CSV_COLUMNS) {
    return {
      lists: [],
      errors: [
        {
          line: 1,
          field: "(file)",
          message: `names more than ${MAX_CSV_COLUMNS} columns: a content file has ${CSV_COLUMNS.length} (${CSV_COLUMNS.join(", ")})`,
        },
      ],
    };
  }
  const { header, rows, errors } = rowsOf(text, delimiterOf(firstLine));
  for (const column of REQUIRED_COLUMNS) {
    if (!header.includes(column)) {
      errors.push({ line: 1, field: column, message: `is missing: the first line names the columns, and must have ${column}` });
    }
  }
  header.forEach((name, index) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) {
      errors.push({
        line: 1,
        field: name || `column ${index + 1}`,
        message: `is not a column of a content file (${CSV_COLUMNS.join(", ")})`,
      });
    }
  });
  if (errors.some((error) => error.line === 1)) return { lists: [], errors };
  const lists = new Map<string, CsvFaqList & { positions: Map<number, number>; ordered: { position: number | null; index: number }[] }>();
  // Lists longer than an entity may hold are said once and read no further, so no entity's rows grow past the bounds.
  const full = new Set<string>();
  const overflow = (key: string, error: RowError) => {
    if (!full.has(key)) errors.push(error);
    full.add(key);
  };
  const languagesOf = new Map<string, Map<string, number>>();
  for (const { line, cells } of rows) {
    if (cells.length !== header.length) continue; // reported by the parser
    const row: CsvRow = CsvRow.parse(
      Object.fromEntries(header.map((name, i) => [name, (cells[i] ?? "").trim() === "" ? undefined : unescapedFormula(cells[i]!)])),
    );
    const problem = (field: Column, message: string) => errors.push({ line, field, message });
    if (row.entity.trim() === "") {
      problem("entity", "is empty: name the brand, hotel or page the FAQ belongs to by its ID");
      continue;
    }
    const entityId = row.entity.trim();
    let list = lists.get(entityId);
    if (!list) {
      if (lists.size === FILE_BOUNDS.records) {
        overflow("(file)", { ...tooManyRecords("brands, hotels or pages"), line });
        continue;
      }
      list = { entityId, line, faqs: [], translations: [], positions: new Map(), ordered: [] };
      lists.set(entityId, list);
    }
    const language = row.language.trim();
    if (language !== "") {
      if (row.source.trim() === "") problem("source", "is empty: a translation row names the question it translates");
      const counts = languagesOf.get(entityId) ?? new Map<string, number>();
      languagesOf.set(entityId, counts);
      const inLanguage = counts.get(language) ?? 0;
      if (inLanguage === 0 && counts.size === MAX_LANGUAGES) {
        overflow(`${entityId}\nlanguages`, {
          line,
          field: "language",
          message: `${entityId} has more than ${MAX_LANGUAGES} languages: an entity holds at most ${MAX_LANGUAGES}`,
        });
        continue;
      }
      if (inLanguage === MAX_FAQS) {
        overflow(`${entityId}\n${language}`, {
          line,
          field: "language",
          message: `${entityId} has more than ${MAX_FAQS} FAQs in ${language}: an entity holds at most ${MAX_FAQS}`,
        });
        continue;
      }
      if (row.phrasings.trim() !== "") problem("phrasings", "is for the FAQ's row in its default language: a translation row has none");
      counts.set(language, inLanguage + 1);
      list.translations.push({ line, language, source: row.source, question: row.question, answer: row.answer });
      continue;
    }
    if (list.faqs.length === MAX_FAQS) {
      overflow(`${entityId}\nfaqs`, {
        line,
        field: "entity",
        message: `${entityId} has more than ${MAX_FAQS} FAQs: an entity holds at most ${MAX_FAQS}`,
      });
      continue;
    }
    if (row.source.trim() !== "") problem("language", "is empty: a row with a source is a translation, and needs its language");
    let position: number | null = null;
    if (row.position.trim() !== "") {
      position = Number(row.position.trim());
      if (!Number.isInteger(position) || position < 1) {
        problem("position", "must be the FAQ's place in its list: 1, 2, 3…");
        position = null;
      } else if (list.positions.has(position)) {
        problem("position", `is also the position of the FAQ on line ${list.positions.get(position)}`);
        position = null;
      } else list.positions.set(position, line);
    }
    list.ordered.push({ position, index: list.faqs.length });
    // One way of asking a line of the cell.
    const phrasings = row.phrasings
      .split(/\r\n|\r|\n/)
      .map((phrasing) => phrasing.trim())
      .filter((phrasing) => phrasing !== "");
    list.faqs.push({
      line,
      category: row.category,
      question: row.question,
      answer: row.answer,
      ...(phrasings.length > 0 ? { phrasings } : {}),
    });
  }
  return {
    lists: [...lists.values()].map(({ positions: _, ordered, ...list }) => {
      // Rows with a position in its order; rows without keep their place in the file after them.
      const order = [...ordered].sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity) || a.index - b.index);
      return { ...list, faqs: order.map(({ index }) => list.faqs[index]!) };
    }),
    errors: errors.sort((a, b) => a.line - b.line),
  };
}

/** The column of a CSV row a record's field comes from. */
const COLUMN_OF: Record<string, Column> = {
  category: "category",
  question: "question",
  answer: "answer",
  source: "source",
  language: "language",
  phrasings: "phrasings",
};

/**
 * The import records of CSV FAQ lists: each stored entity's record with its FAQs and translations those of the
 * file, and every problem by CSV line and column (an entity not stored, or any problem of the record's FAQs).
 * `mayChange` says which stored entities the reader may change: one it may not is answered exactly as one that is
 * not stored, and nothing of it is read beyond its row, so the answer tells nothing of other organizations' content.
 */
export async function csvRecords(
  db: D1Database,
  lists: CsvFaqList[],
  mayChange: (entity: EntityRow) => boolean = () => true,
): Promise<{ records: StagedRecord[]; errors: RowError[] }> {
  const records: StagedRecord[] = [];
  const errors: RowError[] = [];
  const found = new Map(
    (
      await entitiesByIdOrBrand(
        db,
        lists.map((list) => list.entityId),
        [],
      )
    )
      .filter(mayChange)
      .map((entity) => [entity.id, entity]),
  );
  const storedRows = Map.groupBy(inStoredOrder(await faqsOfEntities(db, [...found.keys()])), (row) => row.entity_id);
  for (const list of lists) {
    const entity = found.get(list.entityId);
    if (!entity) {
      errors.push({
        line: list.line,
        field: "entity",
        message: `no brand, hotel or page ${list.entityId} that you may change is stored; a CSV file changes the FAQs of stored ones only`,
      });
      continue;
    }
    const stored = toRecord(entity, localizedFaqs(storedRows.get(entity.id) ?? []));
    const byLanguage = Map.groupBy(list.translations, (t) => t.language);
    const names = new Map((stored.translations ?? []).map((t) => [t.language, t.name]));
    const translationLines: number[][] = [];
    const translations = [...new Set([...byLanguage.keys(), ...[...names.keys()].filter((l) => names.get(l) !== undefined)])].map(
      (language) => {
        const rows = byLanguage.get(language) ?? [];
        translationLines.push(rows.map((t) => t.line));
        const name = names.get(language);
        return {
          language,
          ...(name === undefined ? {} : { name }),
          ...(rows.length > 0 ? { faqs: rows.map(({ source, question, answer }) => ({ source, question, answer })) } : {}),
        };
      },
    );
    const record = {
      ...stored,
      faqs: list.faqs.map(({ line: _, ...faq }) => faq),
      translations,
    };
    if (translations.length === 0) delete (record as Partial<ContentRecord>).translations;
    const parsed = parseRecord(list.line, record);
    if ("record" in parsed) {
      records.push({ line: list.line, record: parsed.record });
      continue;
    }
    for (const error of parsed.errors) {
      const path = error.field.split(".");
      let line = list.line;
      let field = "entity";
      if (path[0] === "faqs" && path.length >= 2) {
        line = list.faqs[Number(path[1])]?.line ?? line;
        field = COLUMN_OF[path[2] ?? ""] ?? "question";
      } else if (path[0] === "translations" && path.length >= 2) {
        const lines = translationLines[Number(path[1])] ?? [];
        line = path[2] === "faqs" ? (lines[Number(path[3])] ?? lines[0] ?? line) : (lines[0] ?? line);
        field = path[2] === "faqs" ? (COLUMN_OF[path[4] ?? ""] ?? "question") : "language";
      }
      errors.push({ line, field, message: error.message });
    }
  }
  return { records, errors };
}

/**
 * A cell a spreadsheet would run as a formula: = + - @, a tab or a return first. Written after a ' (papaparse's
 * escapeFormulae), whatever follows: its default pattern ends in `.*$`, which stops at a line break, so a formula
 * with one would be written as it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Cells papaparse would leave unquoted that a spreadsheet or a line-based reader breaks: U+2028 and U+2029 end lines too. */
const quotedCell = (value: unknown): boolean => typeof value === "string" && /[\u2028\u2029]/.test(value);

/**
 * Records as CSV rows, one FAQ a row, in the columns of CSV_COLUMNS; importing the file back changes nothing. The
 * file starts with a UTF-8 byte order mark: without one, Excel reads it in the computer's legacy code page. The
 * `phrasings` column (one way of asking a line) is written only when an FAQ has some, so a file of content without
 * them reads as it always did.
 */
export function serializeCsv(records: ContentRecord[]): string {
  const rows: string[][] = [];
  const phrased = records.some((record) => record.faqs.some((faq) => (faq.phrasings ?? []).length > 0));
  for (const record of records) {
    record.faqs.forEach((faq, index) =>
      rows.push([record.id, String(index + 1), faq.category, faq.question, faq.answer, "", "", (faq.phrasings ?? []).join("\n")]),
    );
    const positions = new Map(record.faqs.map((faq, index) => [faq.question, index + 1]));
    for (const translation of record.translations ?? []) {
      for (const faq of translation.faqs ?? []) {
        rows.push([record.id, String(positions.get(faq.source) ?? ""), "", faq.question, faq.answer, translation.language, faq.source, ""]);
      }
    }
  }
  const width = phrased ? CSV_COLUMNS.length : CSV_COLUMNS.length - 1;
  const fields = CSV_COLUMNS.slice(0, width);
  return `\uFEFF${Papa.unparse({ fields, data: rows.map((row) => row.slice(0, width)) }, { newline: "\n", escapeFormulae: FORMULA_START, quotes: quotedCell })}\n`;
}

/**
 * `records` with, for each brand among them, its stored properties the file does not name, unchanged: a brand's
 * CSV rows are its FAQ list, and must not take its roster with them as a brand's full record would. They take lines
 * after the file's last, where no problem is ever reported.
 */
export async function withRosters(db: D1Database, records: StagedRecord[]): Promise<StagedRecord[]> {
  const named = new Set(records.map(({ record }) => record.id));
  const brands = records.filter(({ record }) => record.kind === "brand").map(({ record }) => record.id);
  if (brands.length === 0) return records;
  const stored = (await entitiesByIdOrBrand(db, [], brands)).filter((entity) => !named.has(entity.id));
  const rows = inStoredOrder(
    await faqsOfEntities(
      db,
      stored.map((entity) => entity.id),
    ),
  );
  const byEntity = Map.groupBy(rows, (row) => row.entity_id);
  let line = Math.max(0, ...records.map((r) => r.line));
  return [
    ...records,
    ...stored.map((entity) => ({ line: (line += 1), record: toRecord(entity, localizedFaqs(byEntity.get(entity.id) ?? [])) })),
  ];
}

/**
 * A CSV file to start from: the columns, one FAQ of an example hotel and its Portuguese translation, written as an
 * export writes them. Its ID is no stored entity's, so importing the template unchanged is refused, not applied.
 */
export const csvTemplate = (): string =>
  serializeCsv([
    ContentRecord.parse({
      kind: "property",
      id: "HO-YOUR-HOTEL",
      name: "Your hotel",
      brandId: "HO-YOUR-BRAND",
      faqs: [{ category: "Parking", question: "Is there parking?", answer: "Yes: the garage costs €18 per night, 24 hours a day." }],
      translations: [
        {
          language: "pt",
          faqs: [
            {
              source: "Is there parking?",
              question: "Há estacionamento?",
              answer: "Sim: a garagem custa 18 € por noite, 24 horas por dia.",
            },
          ],
        },
      ],
    }),
  ]);
