import { z } from "@hono/zod-openapi";

/**
 * The languages content is written in: BCP 47 tags, validated and put in canonical form by Intl (never a
 * grammar of our own), and the RFC 4647 lookup that picks, of the languages a text exists in, the one a
 * request prefers.
 */

/** The language of content whose record names none: everything stored before content had languages. */
export const DEFAULT_CONTENT_LANGUAGE = "en";

const languageNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/**
 * `tag` in canonical form (`pt-br` is `pt-BR`, `zh-hant-cn` is `zh-Hant-CN`), or null when it is not a well-formed
 * BCP 47 tag, or is one whose language CLDR does not know ("english" and "xx" are well-formed, and name none).
 */
export function canonicalLanguageTag(tag: string): string | null {
  let canonical: string;
  try {
    [canonical = ""] = Intl.getCanonicalLocales(tag);
  } catch {
    return null;
  }
  const known = languageNames.of(new Intl.Locale(canonical).language);
  return known === undefined || known === null ? null : canonical;
}

/** The longest tag accepted; RFC 5646 asks for at least 35 characters, extensions make some longer. */
export const MAX_TAG_LENGTH = 64;

/**
 * A well-formed BCP 47 tag (RFC 5646 §2.1: language, extended languages, script, region, variants, extensions,
 * private use), as documents state it. Intl checks it where it is parsed; which languages CLDR knows no pattern says.
 */
const WELL_FORMED_TAG = String.raw`^[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|\d{3}))?(?:-(?:[A-Za-z0-9]{5,8}|\d[A-Za-z0-9]{3}))*(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*(?:-[Xx](?:-[A-Za-z0-9]{1,8})+)?$`;

/** A BCP 47 language tag as content and requests carry it; parsed to its canonical form. */
export const LanguageTag = z
  .string()
  .transform((tag, ctx) => {
    const canonical = tag.length > MAX_TAG_LENGTH ? null : canonicalLanguageTag(tag);
    if (canonical === null) {
      ctx.addIssue({ code: "custom", message: `${JSON.stringify(tag)} is not a BCP 47 tag of a known language (en, pt, pt-BR, de-CH…)` });
      return z.NEVER;
    }
    return canonical;
  })
  .openapi({ type: "string", pattern: WELL_FORMED_TAG, maxLength: MAX_TAG_LENGTH });

/**
 * What RFC 4647 lookup (§3.4) tries for `ranges`, most preferred first, in order: each range, then the range
 * truncated from the right one subtag at a time, a single-character subtag (`x`, an extension's singleton)
 * going with the subtag after it: `zh-Hant-CN-x-private1` tries `zh-Hant-CN-x-private1`, `zh-Hant-CN`,
 * `zh-Hant`, `zh`. The wildcard `*` tries nothing (whatever is left is the default's). Each tag once, case aside.
 */
export function lookupOrder(ranges: readonly string[]): string[] {
  const order = new Map<string, string>();
  for (const range of ranges) {
    if (range === "*") continue;
    const subtags = range.split("-");
    while (subtags.length > 0) {
      const tag = subtags.join("-");
      if (!order.has(tag.toLowerCase())) order.set(tag.toLowerCase(), tag);
      subtags.pop();
      while (subtags.length > 0 && subtags[subtags.length - 1]!.length === 1) subtags.pop();
    }
  }
  return [...order.values()];
}

/**
 * The languages a request asks for (`ranges`, most preferred first) and what RFC 4647 lookup tries for them,
 * worked out once per request however many texts it picks a language for.
 */
export class LanguagePreference {
  /** `lookupOrder(ranges)`, each tag as written. */
  readonly order: readonly string[];
  private readonly keys: readonly string[];

  constructor(readonly ranges: readonly string[]) {
    this.order = lookupOrder(ranges);
    this.keys = this.order.map((tag) => tag.toLowerCase());
  }

  /**
   * RFC 4647 lookup: the first of `available` (tags a text exists in) that the ranges or their truncations name,
   * case aside, in lookup order; `fallback` (the entity's default language) when none does.
   */
  pick(available: readonly string[], fallback: string): string {
    const byKey = new Map(available.map((tag) => [tag.toLowerCase(), tag]));
    for (const key of this.keys) {
      const found = byKey.get(key);
      if (found !== undefined) return found;
    }
    return fallback;
  }
}
