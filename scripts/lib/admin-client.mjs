// The operator CLI's side of /admin/v1: requests with the operator token, and how answers are printed.
import { devOrigin } from "./dev-origin.mjs";

export const ADMIN_URL = (process.env.ADMIN_URL ?? devOrigin()).replace(/\/+$/, "");
const ADMIN_TOKEN = process.env.ADMIN_TOKEN ?? "dev-admin-token-not-for-production-use";

/**
 * Characters that make a terminal do or show something other than the text: C0 and C1 controls and DEL
 * (escape sequences move the cursor, clear the screen, plant OSC 8 links), line and paragraph separators,
 * and invisible formatting characters (bidi embeddings, overrides and isolates, zero-width characters).
 */
const UNSAFE_FOR_TERMINAL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * `value` with every string in it (object keys too) stripped of those characters. Others choose some of
 * what the server answers (a client's registered name, a guest's question, a webhook endpoint's reply),
 * so everything printed of an answer, as a table, as fields, as JSON or as an error, passes through here.
 */
export function terminalSafe(value) {
  if (typeof value === "string") return value.replace(UNSAFE_FOR_TERMINAL, "");
  if (Array.isArray(value)) return value.map(terminalSafe);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [terminalSafe(key), terminalSafe(item)]));
  }
  return value;
}

/** A failure to report and exit non-zero on: the server's message, and its field-level details if any. */
export class CliError extends Error {
  constructor(message, details = []) {
    super(terminalSafe(message));
    this.details = terminalSafe(details);
  }
}

/** Calls the operator API; resolves with the parsed JSON (undefined for 204), throws CliError with the server's message. */
export async function api(method, path, body, headers = {}) {
  let res;
  try {
    res = await fetch(`${ADMIN_URL}/admin/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new CliError(`cannot reach ${ADMIN_URL} (${error.cause?.code ?? error.message}); set ADMIN_URL to the service's origin`);
  }
  const text = await res.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    throw new CliError(`${method} ${path}: HTTP ${res.status} with a body that is not JSON`);
  }
  if (!res.ok) {
    const error = data?.error;
    throw new CliError(error?.message ? `${error.message} (HTTP ${res.status} ${error.code})` : `HTTP ${res.status}`, error?.details ?? []);
  }
  return data;
}

/** Column-aligned rows with a header; `columns` are [heading, row => value] pairs. */
export function table(rows, columns) {
  if (rows.length === 0) return "(none)";
  const cells = rows.map((row) => columns.map(([, value]) => format(value(row))));
  const headings = columns.map(([heading]) => heading);
  const widths = headings.map((heading, i) => Math.max(heading.length, ...cells.map((row) => row[i].length)));
  const line = (values) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(headings), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/** One object as aligned `key  value` lines. */
export function fields(object) {
  const entries = Object.entries(object);
  const width = Math.max(...entries.map(([key]) => key.length));
  return entries.map(([key, value]) => `${key.padEnd(width)}  ${format(value)}`).join("\n");
}

function format(value) {
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) return value.length === 0 ? "-" : value.map(format).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Prints `data` as JSON with --json, else as `human(data)`; either way without what a terminal would obey. */
export function output(options, data, human) {
  const safe = terminalSafe(data);
  console.log(options.json ? JSON.stringify(safe, null, 2) : human(safe));
}

/** A secret the server shows once: said on stderr, so scripts reading stdout get only the data. */
export function warnShownOnce(what) {
  console.error(`Store the ${what} now: it is not shown again.`);
}

/** Everything on standard input, without the final newline (for --password-stdin). */
export async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** "1 FAQ", "2 FAQs": a count with its noun in the right number. */
export const plural = (count, noun, nouns = `${noun}s`) => `${count} ${count === 1 ? noun : nouns}`;
