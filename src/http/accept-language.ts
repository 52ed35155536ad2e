import Negotiator from "negotiator";
import { MAX_TAG_LENGTH } from "./language-tags";

/** At most this many ranges of one Accept-Language header are used: the cache keeps one body per list of ranges. */
export const MAX_LANGUAGE_RANGES = 8;
/** At most this many characters of a header are read (browsers send a few dozen): 8 ranges with q-values fit. */
export const MAX_ACCEPT_LANGUAGE_LENGTH = 512;

/**
 * Extension and private-use subtags (`-u-co-phonebk`, `-x-…`): a single-character subtag and every subtag after it
 * in its range. Lookup would truncate them first anyway, and nothing else bounds how many there are.
 */
const SINGLETON_AND_AFTER = /-[a-z\d](?=[-;,\s]|$)(?:-[a-z\d]*)*/gi;

/**
 * The ranges of a header as far as they are read, before anything parses them: extensions and private use
 * dropped, then the first MAX_ACCEPT_LANGUAGE_LENGTH characters up to the last whole range in them. Linear in the
 * header's length, so a long header costs no more than reading it.
 */
function boundedHeader(header: string): string {
  const ranges = header.replace(SINGLETON_AND_AFTER, "");
  return ranges.length <= MAX_ACCEPT_LANGUAGE_LENGTH
    ? ranges
    : ranges.slice(0, Math.max(0, ranges.lastIndexOf(",", MAX_ACCEPT_LANGUAGE_LENGTH)));
}

/**
 * The language ranges of an Accept-Language header, most preferred first (by q-value, then as written), as
 * `negotiator` reads them: ranges with q=0 are refused and left out, `*` is kept. Ranges that are not BCP 47
 * tags, or longer than any tag accepted, are dropped (they could match nothing); the others are put in canonical
 * form, so `pt-br` and `pt-BR` are one range.
 */
export function acceptedLanguages(header: string): string[] {
  const ranges: string[] = [];
  for (const range of new Negotiator({ headers: { "accept-language": boundedHeader(header) } }).languages()) {
    const canonical = range === "*" ? range : canonicalRange(range);
    if (canonical !== null && !ranges.includes(canonical)) ranges.push(canonical);
    if (ranges.length === MAX_LANGUAGE_RANGES) break;
  }
  return ranges;
}

function canonicalRange(range: string): string | null {
  if (range.length > MAX_TAG_LENGTH) return null;
  try {
    return Intl.getCanonicalLocales(range)[0] ?? null;
  } catch {
    return null;
  }
}
