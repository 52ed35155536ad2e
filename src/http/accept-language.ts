import Negotiator from "negotiator";

/** At most this many ranges of one Accept-Language header are used: the cache keeps one body per list of ranges. */
export const MAX_LANGUAGE_RANGES = 8;

/**
 * The language ranges of an Accept-Language header, most preferred first (by q-value, then as written), as
 * `negotiator` reads them: ranges with q=0 are refused and left out, `*` is kept. Ranges that are not BCP 47
 * tags are dropped (they could match nothing); the others are put in canonical form, so `pt-br` and `pt-BR`
 * are one range.
 */
export function acceptedLanguages(header: string): string[] {
  const ranges: string[] = [];
  for (const range of new Negotiator({ headers: { "accept-language": header } }).languages()) {
    const canonical = range === "*" ? range : canonicalRange(range);
    if (canonical !== null && !ranges.includes(canonical)) ranges.push(canonical);
    if (ranges.length === MAX_LANGUAGE_RANGES) break;
  }
  return ranges;
}

function canonicalRange(range: string): string | null {
  try {
    return Intl.getCanonicalLocales(range)[0] ?? null;
  } catch {
    return null;
  }
}
