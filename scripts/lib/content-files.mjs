// Content files of import and export: NDJSON (one record per line) or JSON (an array of records); CSV (one FAQ a
// row) is read by the Worker (src/catalogue/csv.ts) and written by that module too.
// Export writes both formats byte for byte the same way every time, so a round trip gives the same file.

/** The format named, else the one the file name says, else the one the text looks like. */
export function detectFormat(name, text, named) {
  if (named) return named;
  if (/\.csv$/i.test(name)) return "csv";
  if (/\.(ndjson|jsonl)$/i.test(name)) return "ndjson";
  if (/\.json$/i.test(name)) return "json";
  return text.trimStart().startsWith("[") ? "json" : "ndjson";
}

/**
 * The rows of a file, each with its line (NDJSON) or position (JSON array), and the rows that are not
 * JSON at all. The server validates every parsed row against the record schema.
 */
export function parseContent(text, format) {
  const rows = [];
  const errors = [];
  if (format === "ndjson") {
    text.split("\n").forEach((raw, index) => {
      const line = index + 1;
      if (raw.trim() === "") return;
      try {
        rows.push({ line, record: JSON.parse(raw) });
      } catch (error) {
        errors.push({ line, field: "(json)", message: `is not JSON: ${error.message}` });
      }
    });
    return { rows, errors };
  }
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { rows, errors: [{ line: 1, field: "(json)", message: `the file is not JSON: ${error.message}` }] };
  }
  if (!Array.isArray(parsed))
    return { rows, errors: [{ line: 1, field: "(json)", message: "a JSON content file is an array of records" }] };
  return { rows: parsed.map((record, index) => ({ line: index + 1, record })), errors };
}

export function serializeContent(records, format) {
  const lines = records.map((record) => JSON.stringify(record));
  return format === "json" ? `[\n${lines.join(",\n")}\n]\n` : lines.map((line) => `${line}\n`).join("");
}

/** `rows` in groups small enough for one request: at most `maxRows`, and about `maxBytes` of JSON. */
export function chunkRows(rows, maxRows = 500, maxBytes = 2 * 1024 * 1024) {
  const chunks = [];
  let current = [];
  let bytes = 0;
  for (const row of rows) {
    const size = Buffer.byteLength(JSON.stringify(row));
    if (current.length > 0 && (current.length >= maxRows || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
