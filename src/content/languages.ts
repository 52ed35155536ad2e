import { z } from "@hono/zod-openapi";
import { LanguagePreference } from "../http/language-tags";
import { acceptedLanguages } from "../http/accept-language";
import { IfNoneMatch } from "./route-parts";

/**
 * The language a content request asks for: `?lang=` (one BCP 47 tag) when given, else the ranges of
 * Accept-Language by preference; null when it asks for none, and then every body is the default language's,
 * byte for byte what it was before content had languages.
 */
export function languageRequest(lang: string | undefined, acceptLanguage: string | undefined): LanguagePreference | null {
  if (lang !== undefined) return new LanguagePreference([lang]);
  // A bare `*` prefers nothing: it is what fetch implementations send by default, and must not change a body curl gets.
  const ranges = acceptLanguage === undefined || acceptLanguage.trim() === "*" ? [] : acceptedLanguages(acceptLanguage);
  return ranges.length > 0 ? new LanguagePreference(ranges) : null;
}

/** What a language request adds to a cache key: nothing for none, else its ranges in order (canonical tags). */
export const languageKey = (ranges: readonly string[] | null): string =>
  ranges === null ? "" : `&lang=${encodeURIComponent(ranges.join(","))}`;

/** The request headers of a route that serves languages, for the OpenAPI document. */
export const LanguageRequestHeaders = IfNoneMatch.extend({
  "accept-language": z.string().optional().openapi({
    description:
      "Languages wanted, with q-values (RFC 9110); `lang` wins over it. Ranges with q=0 are refused; `*` alone asks for no language (the default body, as without the header).",
    example: "pt-BR, pt;q=0.9, en;q=0.5",
  }),
});

/** The response headers of a route that serves languages, for the OpenAPI document. */
export const LANGUAGE_HEADERS = {
  Vary: { description: "X-API-Key, Authorization, Accept-Language.", schema: { type: "string" } },
  "Content-Language": {
    description: "Only when a language was asked for: the languages of what was served, the one asked for (or its fallback) first.",
    schema: { type: "string" },
  },
} as const;
