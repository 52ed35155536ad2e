import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { intVar, surfaceOrigin } from "../env";
import { API_LICENSE, jsonContent } from "../http/openapi";
import { apiKeyAuth, type ContentEnv } from "./api-key";
import { brandStreamRoutes } from "./brand-stream";
import { serveCacheable } from "./caching";
import { changeFeedRoutes } from "./changes";
import { contentError, requestPath } from "./errors";
import { buildBrandGraph, buildEntityFeed, buildRoster, readFeedSource, readRoster, type GraphLimits } from "./feeds";
import { hourlyRateLimit } from "./rate-limit";
import { LANGUAGE_HEADERS, languageKey, languageRequest, LanguageRequestHeaders } from "./languages";
import { commonResponses, RATE_HEADERS, CACHE_HEADERS, security } from "./route-parts";
import { contentSnapshot } from "../catalogue/snapshot";
import {
  BrandParams,
  BrandPropertiesResponse,
  EntityParams,
  ErrorResponse,
  FaqFeedResponse,
  FaqQuery,
  LanguageQuery,
  type FaqFlags,
} from "./schemas";

export const rosterRoute = createRoute({
  method: "get",
  path: "/api/v3/content/{brandId}/properties",
  operationId: "getBrandProperties",
  summary: "The full roster of a hospitality brand's properties (not paginated)",
  security,
  request: { params: BrandParams, query: LanguageQuery, headers: LanguageRequestHeaders },
  responses: {
    200: {
      description: "The roster; with a language asked for, each name in it where the entity has one, else its registered name.",
      content: jsonContent(BrandPropertiesResponse),
      headers: { ...CACHE_HEADERS, ...LANGUAGE_HEADERS, ...RATE_HEADERS },
    },
    400: { description: "lang is not a BCP 47 tag of a known language.", content: jsonContent(ErrorResponse), headers: RATE_HEADERS },
    ...commonResponses,
    404: { ...commonResponses[404], description: "Unknown brand, or not a hospitality brand (DMO-*, AIR-*, a property ID)." },
  },
});

export const faqRoute = createRoute({
  method: "get",
  path: "/api/v3/content/{entityId}/faq.json",
  operationId: "getFaqPage",
  summary: "The schema.org FAQPage of an entity, or the bulk @graph of a brand and its properties",
  security,
  request: { params: EntityParams, query: FaqQuery, headers: LanguageRequestHeaders },
  responses: {
    200: {
      description:
        "FAQPage (one entity) or @graph (a brand). With a language asked for (lang or Accept-Language), each page says its " +
        "language in inLanguage, and a question not translated into it is in its entity's default language, with its own inLanguage.",
      content: jsonContent(FaqFeedResponse),
      headers: { ...CACHE_HEADERS, ...LANGUAGE_HEADERS, ...RATE_HEADERS },
    },
    400: {
      description: "A query flag is not one of true, false, 1, 0, or lang is not a BCP 47 tag of a known language.",
      content: jsonContent(ErrorResponse),
      headers: RATE_HEADERS,
    },
    ...commonResponses,
    413: {
      description: "A payload guard of the bulk @graph fired; fetch per entity at fallbackUrlPattern.",
      content: jsonContent(ErrorResponse),
      headers: RATE_HEADERS,
    },
  },
});

/**
 * Where a roster is cached: its URL plus the content version (`versionTag`), so a change of content is
 * a new key. IDs are percent-encoded: one cannot reach into the key's query or another entity's path.
 */
export const rosterCacheKey = (origin: string, brandId: string, version: string, ranges: readonly string[] | null): string =>
  `${origin}/api/v3/content/${encodeURIComponent(brandId)}/properties?v=${version}${languageKey(ranges)}`;

/**
 * Where a FAQ feed is cached: its URL with the flags, the payload-guard limits (a body cached under
 * looser limits is never served under stricter ones), the content version and the language ranges asked for.
 */
export const faqCacheKey = (
  origin: string,
  entityId: string,
  flags: FaqFlags,
  limits: GraphLimits,
  version: string,
  ranges: readonly string[] | null,
): string =>
  `${origin}/api/v3/content/${encodeURIComponent(entityId)}/faq.json?includePropertyId=${Number(flags.includePropertyId)}` +
  `&includeCategory=${Number(flags.includeCategory)}&limits=${limits.maxEntities}-${limits.maxBytes}&v=${version}${languageKey(ranges)}`;

/** The content API surface: API key, hourly rate limit, then the routes. */
export function contentApi(): OpenAPIHono<ContentEnv> {
  const api = new OpenAPIHono<ContentEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      // A path that cannot name a (hospitality) entity names no resource: 404, as for an unknown one.
      if (result.target === "param") return contentError(404, "No such hospitality entity.", requestPath(c.req.raw));
      const detail = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
      return contentError(400, `Invalid query: ${detail}.`, requestPath(c.req.raw));
    },
  });
  api.use("/api/v3/content/*", apiKeyAuth, hourlyRateLimit);
  changeFeedRoutes(api);
  brandStreamRoutes(api);

  api.openapi(rosterRoute, async (c) => {
    const { brandId } = c.req.valid("param");
    const languages = languageRequest(c.req.valid("query").lang, c.req.header("Accept-Language"));
    const origin = surfaceOrigin(c.env.API_URL, c.req.url);
    const { version, reader } = await contentSnapshot(c.env, (p) => c.executionCtx.waitUntil(p));
    return serveCacheable(c, rosterCacheKey(origin, brandId, version, languages?.ranges ?? null), async () => {
      const roster = await readRoster(reader(), brandId);
      if (!roster) return contentError(404, `${brandId} is not a hospitality brand.`, requestPath(c.req.raw));
      return buildRoster(roster.brand, roster.properties, languages);
    });
  });

  api.openapi(faqRoute, async (c) => {
    const { entityId } = c.req.valid("param");
    const { lang, ...flags } = c.req.valid("query");
    const languages = languageRequest(lang, c.req.header("Accept-Language"));
    const origin = surfaceOrigin(c.env.API_URL, c.req.url);
    const limits = {
      maxEntities: intVar(c.env.MAX_GRAPH_ENTITIES, 1000),
      maxBytes: intVar(c.env.MAX_GRAPH_BYTES, 10 * 1024 * 1024),
    };
    const { version, reader } = await contentSnapshot(c.env, (p) => c.executionCtx.waitUntil(p));
    return serveCacheable(c, faqCacheKey(origin, entityId, flags, limits, version, languages?.ranges ?? null), async () => {
      const db = reader();
      const source = await readFeedSource(db, entityId);
      if (!source) return contentError(404, `No entity ${entityId}.`, requestPath(c.req.raw));
      if (source.entity.kind !== "brand") return buildEntityFeed(source, flags, origin, languages);
      return buildBrandGraph(db, source, flags, origin, limits, languages);
    });
  });

  api.openAPIRegistry.registerComponent("securitySchemes", "ApiKeyHeader", { type: "apiKey", in: "header", name: "X-API-Key" });
  api.openAPIRegistry.registerComponent("securitySchemes", "ApiKeyAuthorization", {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "`ApiKey <key>` or `Bearer <key>`.",
  });
  api.doc31("/api/v3/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Hospitality Content API",
      version: "3",
      license: API_LICENSE,
      description:
        "Brand property rosters and schema.org FAQ feeds. Per-key hourly rate limits; weak ETags on every 200. " +
        "FAQ feeds, the brand stream and rosters take lang (or Accept-Language) and say what they served in inLanguage and Content-Language.",
    },
    servers: [{ url: surfaceOrigin(c.env.API_URL, c.req.url) }],
  }));
  return api;
}
