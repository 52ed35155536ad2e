import { faqsOfEntities, localizedFaqs } from "../storage/faqs";
import type { EntityRow } from "../storage/entities";
import { csvRecords, inStoredOrder, parseCsv, serializeCsv } from "./csv";
import { FILE_BOUNDS, ProblemList, tooManyRecords } from "./file-bounds";
import type { StagedRecord } from "./plan";
import { parseRecord, toRecord, type ContentRecord, type RowError } from "./records";

/**
 * Content files as a whole, for surfaces that take a file at once (the console): NDJSON (one record a line), JSON
 * (an array of records) or CSV (one FAQ a row, see csv.ts), read into import records with every problem of the
 * file by line and field, and written back from stored entities the way the operator's export writes them.
 */

export const CONTENT_FORMATS = ["ndjson", "json", "csv"] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** The format a file's name says, else the one its text looks like. */
export function formatOf(name: string, text: string): ContentFormat {
  if (/\.csv$/i.test(name)) return "csv";
  if (/\.(ndjson|jsonl)$/i.test(name)) return "ndjson";
  if (/\.json$/i.test(name)) return "json";
  const start = text.trimStart();
  return start.startsWith("[") ? "json" : start.startsWith("{") ? "ndjson" : "csv";
}

/**
 * The records a file gives, or its problems: the first FILE_BOUNDS.problems listed, `more` counting the rest, and
 * `unchecked` the records not validated once that many were found (what checking a file costs stays bounded).
 */
export interface ContentFileRead {
  records: StagedRecord[];
  errors: RowError[];
  more: number;
  unchecked?: number;
}

/** The non-blank lines of an NDJSON text, or null past `max` of them, counted before any is split off or parsed. */
function ndjsonLines(text: string, max: number): { line: number; raw: string }[] | null {
  const lines: { line: number; raw: string }[] = [];
  let start = 0;
  for (let line = 1; start <= text.length; line += 1) {
    const end = text.indexOf("\n", start);
    const raw = text.slice(start, end === -1 ? text.length : end);
    if (raw.trim() !== "") {
      if (lines.length === max) return null;
      lines.push({ line, raw });
    }
    if (end === -1) break;
    start = end + 1;
  }
  return lines;
}

/**
 * The import records of a file, or every problem of it, bounded before anything is compared (file-bounds.ts). CSV
 * names stored entities: `mayChange` says which of them the reader may change, and the others are answered as
 * missing (csv.ts).
 */
export async function readContentFile(
  db: D1Database,
  text: string,
  format: ContentFormat,
  mayChange?: (entity: EntityRow) => boolean,
): Promise<ContentFileRead> {
  const problems = new ProblemList();
  if (format === "csv") {
    const parsed = parseCsv(text);
    problems.addAll(parsed.errors);
    const built = await csvRecords(db, parsed.lists, mayChange);
    problems.addAll(built.errors);
    return { records: built.records, ...problems.result() };
  }
  const rows: { line: number; value: unknown }[] = [];
  if (format === "ndjson") {
    const lines = ndjsonLines(text, FILE_BOUNDS.records);
    if (lines === null) return { records: [], errors: [tooManyRecords("records (lines)")], more: 0 };
    for (const { line, raw } of lines) {
      try {
        rows.push({ line, value: JSON.parse(raw) });
      } catch {
        problems.add({ line, field: "(record)", message: "is not a JSON record: check its quotes, commas and braces" });
      }
    }
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return {
        records: [],
        errors: [{ line: 1, field: "(file)", message: "is not JSON: check its quotes, commas and brackets" }],
        more: 0,
      };
    }
    if (!Array.isArray(parsed))
      return { records: [], errors: [{ line: 1, field: "(file)", message: "must be a list of records: [ {…}, {…} ]" }], more: 0 };
    if (parsed.length > FILE_BOUNDS.records) return { records: [], errors: [tooManyRecords("records")], more: 0 };
    parsed.forEach((value: unknown, index) => rows.push({ line: index + 1, value }));
  }
  const records: StagedRecord[] = [];
  let unchecked = 0;
  for (const [index, { line, value }] of rows.entries()) {
    if (problems.full) {
      unchecked = rows.length - index;
      break;
    }
    const parsed = parseRecord(line, value);
    if ("record" in parsed) records.push({ line, record: parsed.record });
    else problems.addAll(parsed.errors);
  }
  return { records, ...problems.result(), ...(unchecked > 0 ? { unchecked } : {}) };
}

/** Stored entities as records, in the order given, each with its FAQs and translations. */
export async function recordsOf(db: D1Database, entities: EntityRow[]): Promise<ContentRecord[]> {
  const rows = await faqsOfEntities(
    db,
    entities.map((entity) => entity.id),
  );
  const byEntity = Map.groupBy(inStoredOrder(rows), (row) => row.entity_id);
  return entities.map((entity) => toRecord(entity, localizedFaqs(byEntity.get(entity.id) ?? [])));
}

/** Records as a file of `format`; NDJSON and JSON are written as the operator's export writes them. */
export function serializeContent(records: ContentRecord[], format: ContentFormat): string {
  if (format === "csv") return serializeCsv(records);
  const lines = records.map((record) => JSON.stringify(record));
  return format === "json" ? `[\n${lines.join(",\n")}\n]\n` : lines.map((line) => `${line}\n`).join("");
}
