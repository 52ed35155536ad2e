/** Turning user text into safe FTS5 operands: it never reaches FTS5 as syntax. */

const MAX_TERMS = 32;

/** Lower-cased words (letters and digits) in order of first appearance. */
export function words(text: string): string[] {
  const found = text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(found)];
}

/**
 * An FTS5 expression that matches any of the words, each a quoted string, so operators, columns,
 * prefixes and quotes in user text are only ever searched for; null when there is no word at all.
 */
export function ftsAnyOf(text: string): string | null {
  const terms = words(text).slice(0, MAX_TERMS);
  return terms.length === 0 ? null : terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ");
}
