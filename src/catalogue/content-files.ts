import { faqsOfEntities, localizedFaqs } from "../storage/faqs";
import type { EntityRow } from "../storage/entities";
import { csvRecords, inStoredOrder, parseCsv, serializeCsv } from "./csv";
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

/** The import records of a file, or every problem of it. CSV needs the stored entities its rows name. */
export async function readContentFile(
  db: D1Database,
  text: string,
  format: ContentFormat,
): Promise<{ records: StagedRecord[]; errors: RowError[] }> {
  if (format === "csv") {
    const parsed = parseCsv(text);
    const built = await csvRecords(db, parsed.lists);
    return { records: built.records, errors: [...parsed.errors, ...built.errors].sort((a, b) => a.line - b.line) };
  }
  const rows: { line: number; value: unknown }[] = [];
  const errors: RowError[] = [];
  if (format === "ndjson") {
    text.split("\n").forEach((raw, index) => {
      if (raw.trim() === "") return;
      try {
        rows.push({ line: index + 1, value: JSON.parse(raw) });
      } catch {
        errors.push({ line: index + 1, field: "(record)", message: "is not a JSON record: check its quotes, commas and braces" });
      }
    });
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { records: [], errors: [{ line: 1, field: "(file)", message: "is not JSON: check its quotes, commas and brackets" }] };
    }
    if (!Array.isArray(parsed))
      return { records: [], errors: [{ line: 1, field: "(file)", message: "must be a list of records: [ {…}, {…} ]" }] };
    parsed.forEach((value: unknown, index) => rows.push({ line: index + 1, value }));
  }
  const records: StagedRecord[] = [];
  for (const { line, value } of rows) {
    const parsed = parseRecord(line, value);
    if ("record" in parsed) records.push({ line, record: parsed.record });
    else errors.push(...parsed.errors);
  }
  return { records, errors };
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
