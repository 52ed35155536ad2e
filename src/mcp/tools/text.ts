/** Turning user text into safe FTS5 operands: it never reaches FTS5 as syntax. */

const MAX_TERMS = 32;

/** Lower-cased words (letters and digits) in order of first appearance. */
export function words(text: string): string[] {
  const found =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(found)];
}

/**
 * The words as FTS5 phrases, each a quoted string, so operators, columns, prefixes and quotes in user
 * text are only ever searched for (at most 32; none when the text has no word at all).
 */
export const ftsPhrases = (text: string): string[] =>
  words(text)
    .slice(0, MAX_TERMS)
    .map((t) => `"${t.replace(/"/g, '""')}"`);
