import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ExpiringCache } from "../cache/expiring-cache";
import { encodeCursor, latestCursor } from "../catalogue/changes";
import { contentSnapshot } from "../catalogue/snapshot";
import { surfaceOrigin } from "../env";
import { brandStateStatement, changeFeedStateStatement, type ChangeFeedState } from "../storage/content-changes";
import { entityStatement, type EntityRow } from "../storage/entities";
import { brandLanguagesStatement, groupByEntity, listEntityFaqPage, type LocalizedFaq } from "../storage/faqs";
import type { D1Reader } from "../storage/reader";
import type { ContentEnv } from "./api-key";
import { conditionalResponse, LANGUAGE_VARY, weakEtag } from "./caching";
import { contentError, requestPath } from "./errors";
import { buildEntityFeed, embeddableJson, readFeedSource } from "./feeds";
import { CACHE_HEADERS, commonResponses, RATE_HEADERS, security } from "./route-parts";
import { BrandParams, ErrorResponse, FaqQuery, FaqStreamLine, type FaqFlags } from "./schemas";
import { jsonContent } from "../http/openapi";
import type { LanguagePreference } from "../http/language-tags";
import { LANGUAGE_HEADERS, languageKey, languageRequest, LanguageRequestHeaders } from "./languages";

/**
 * GET /api/v3/content/{brandId}/faq.ndjson: a whole brand in one request whatever its size, one line per
 * entity (the brand's own FAQPage first, then its properties by ID), each line's page byte for byte the
 * entity's own feed. Pages are read from D1 100 entities at a time as the client reads, so memory does not
 * grow with the brand.
 */

const CHANGES_CURSOR_HEADER = "X-Changes-Cursor";
const NDJSON = "application/x-ndjson; charset=utf-8";
const PAGE_SIZE = 100;
/** Moves when what a line holds is written differently, so that no stream ETag outlives its bytes. */
const LINE_FORMAT = "faq.ndjson/1";

export const brandStreamRoute = createRoute({
  method: "get",
  path: "/api/v3/content/{brandId}/faq.ndjson",
  operationId: "streamBrandFaqPages",
  summary: "Every FAQPage of a brand, one per line, in one request whatever the brand's size",
  description:
    "The brand's own FAQPage first, then one per property by ID; each line's `faqPage` is byte for byte the entity's own " +
    "FAQ feed with the same flags, and `etag` its ETag. The stream's ETag names what the brand holds (each entity's latest " +
    "change), so a matching If-None-Match answers 304 without reading any FAQ. `X-Changes-Cursor` is where to follow " +
    "GET /api/v3/content/changes?brandId=… from.",
  security,
  request: { params: BrandParams, query: FaqQuery, headers: LanguageRequestHeaders },
  responses: {
    200: {
      description: "NDJSON, one FAQStreamLine per line.",
      content: { "application/x-ndjson": { schema: FaqStreamLine } },
      headers: {
        ...CACHE_HEADERS,
        ETag: { description: 'Weak ETag W/"<16 hex digits>" of the brand\'s state and the flags.', schema: { type: "string" } },
        [CHANGES_CURSOR_HEADER]: {
          description: "The change feed's position this stream is at least as new as.",
          schema: { type: "string" },
        },
        ...LANGUAGE_HEADERS,
        "Content-Language": {
          description: "Only when a language was asked for: every language a line may be in, the one asked for (or its fallback) first.",
          schema: { type: "string" },
        },
        ...RATE_HEADERS,
      },
    },
    400: {
      description: "A query flag is not one of true, false, 1, 0, or lang is not a BCP 47 tag of a known language.",
      content: jsonContent(ErrorResponse),
      headers: RATE_HEADERS,
    },
    ...commonResponses,
    404: { ...commonResponses[404], description: "Unknown brand, or not a hospitality brand (DMO-*, AIR-*, a property ID)." },
  },
});

interface StreamHead {
  etag: string;
  cursor: string;
  /** With a language request: every language a line may be in (its lines' pages say which each is in). */
  contentLanguage?: string;
}

/**
 * What a stream for a language request may hold, from the languages of the brand's content: each language lookup
 * may pick that the brand has, in lookup order, then the default languages, which serve what has no translation.
 */
function streamLanguages(preference: LanguagePreference, brandLanguages: { language: string; is_default: number }[]): string {
  const present = new Map(brandLanguages.map(({ language }) => [language.toLowerCase(), language]));
  const picked = preference.order.flatMap((tag) => present.get(tag.toLowerCase()) ?? []);
  return [...new Set([...picked, ...brandLanguages.filter((l) => l.is_default === 1).map((l) => l.language)])].join(", ");
}

// Per isolate, keyed by the content version: a repeated conditional request reads nothing from D1.
const heads = new ExpiringCache<StreamHead>(60_000, 1_000);

/**
 * The stream's ETag and the feed position, from one D1 batch: the brand's entities with the `seq` of each
 * one's latest change (a `seq` is never reused, so it names that state of the entity), the origin its
 * `@id`s carry, and the flags. Null when `brandId` is no brand.
 */
async function readStreamHead(
  db: D1Reader,
  brandId: string,
  flags: FaqFlags,
  origin: string,
  preference: LanguagePreference | null,
): Promise<StreamHead | null> {
  const [brand, state, feed, languages] = await db.batch([
    entityStatement(db, brandId),
    brandStateStatement(db, brandId),
    changeFeedStateStatement(db),
    ...(preference === null ? [] : [brandLanguagesStatement(db, brandId)]),
  ]);
  if ((brand as D1Result<EntityRow>).results[0]?.kind !== "brand") return null;
  const entities = (state as D1Result<{ entity_id: string; seq: number }>).results;
  // The language asked for is part of what the lines hold; without one, the ETag is what it always was.
  const digest = [
    LINE_FORMAT,
    origin,
    `${Number(flags.includePropertyId)}${Number(flags.includeCategory)}${languageKey(preference?.ranges ?? null)}`,
  ]
    .concat(entities.map(({ entity_id, seq }) => `${entity_id}:${seq}`))
    .join("\n");
  return {
    etag: await weakEtag(digest),
    cursor: encodeCursor(latestCursor((feed as D1Result<ChangeFeedState>).results[0]!)),
    ...(preference === null
      ? {}
      : { contentLanguage: streamLanguages(preference, (languages as D1Result<{ language: string; is_default: number }>).results) }),
  };
}

async function streamLine(
  entity: EntityRow,
  faqs: LocalizedFaq[],
  flags: FaqFlags,
  origin: string,
  preference: LanguagePreference | null,
): Promise<string> {
  const built = buildEntityFeed({ entity, faqs }, flags, origin, preference);
  const page = typeof built === "string" ? built : built.body;
  return `{"entityId":${embeddableJson(entity.id)},"etag":${embeddableJson(await weakEtag(page))},"faqPage":${page}}\n`;
}

/** The lines of a brand, read from D1 only as the client takes them (no chunk is read ahead). */
function brandLines(
  db: D1Reader,
  brandId: string,
  flags: FaqFlags,
  origin: string,
  preference: LanguagePreference | null,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let afterId: string | null = null; // null: the brand's own line comes first
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (afterId === null) {
          const source = await readFeedSource(db, brandId);
          if (!source) return controller.close(); // removed since the head was read
          controller.enqueue(encoder.encode(await streamLine(source.entity, source.faqs, flags, origin, preference)));
          afterId = "";
          return;
        }
        const pages = groupByEntity(await listEntityFaqPage(db, { brandId, afterId, limit: PAGE_SIZE }));
        const lines = await Promise.all(pages.map(({ entity, faqs }) => streamLine(entity, faqs, flags, origin, preference)));
        if (lines.length > 0) controller.enqueue(encoder.encode(lines.join("")));
        if (pages.length < PAGE_SIZE) controller.close();
        else afterId = pages[pages.length - 1]!.entity.id;
      },
    },
    { highWaterMark: 0 },
  );
}

export function brandStreamRoutes(api: OpenAPIHono<ContentEnv>): void {
  api.openapi(brandStreamRoute, async (c) => {
    const { brandId } = c.req.valid("param");
    const { lang, ...flags } = c.req.valid("query");
    const languages = languageRequest(lang, c.req.header("Accept-Language"));
    const origin = surfaceOrigin(c.env.API_URL, c.req.url);
    const { version, reader } = await contentSnapshot(c.env, (p) => c.executionCtx.waitUntil(p));
    const flagsKey = `${Number(flags.includePropertyId)}${Number(flags.includeCategory)}`;
    const key = `${origin} ${brandId} ${flagsKey} ${version}${languageKey(languages?.ranges ?? null)}`;
    let head = heads.get(key);
    if (!head) {
      const found = await readStreamHead(reader(), brandId, flags, origin, languages);
      if (!found) return contentError(404, `${brandId} is not a hospitality brand.`, requestPath(c.req.raw));
      heads.set(key, (head = found));
    }
    return conditionalResponse(c, head.etag, () => brandLines(reader(), brandId, flags, origin, languages), {
      contentType: NDJSON,
      headers: {
        [CHANGES_CURSOR_HEADER]: head.cursor,
        Vary: LANGUAGE_VARY,
        ...(head.contentLanguage === undefined ? {} : { "Content-Language": head.contentLanguage }),
      },
    });
  });
}
