import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import { intVar, surfaceOrigin } from "../env";
import { jsonContent } from "../http/openapi";
import { apiKeyAuth, type ContentEnv } from "./api-key";
import { serveCacheable } from "./caching";
import { contentError, requestPath } from "./errors";
import { buildBrandGraph, buildEntityFeed, buildRoster, readFeedSource, readRoster, type GraphLimits } from "./feeds";
import { hourlyRateLimit } from "./rate-limit";
import { contentSnapshot } from "../catalogue/snapshot";
import { BrandParams, BrandPropertiesResponse, EntityParams, ErrorResponse, FaqFeedResponse, FaqQuery, type FaqFlags } from "./schemas";

const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests per hour allowed for the key.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
} as const;
const CACHE_HEADERS = {
  ETag: { description: 'Weak ETag W/"<16 hex digits>": first 8 bytes of the SHA-256 of the body.', schema: { type: "string" } },
  "Cache-Control": { description: "public, max-age=3600", schema: { type: "string" } },
  Vary: { description: "X-API-Key, Authorization: a shared cache keeps one copy per key.", schema: { type: "string" } },
} as const;
const RETRY_AFTER = { "Retry-After": { description: "Seconds until the window resets.", schema: { type: "integer" } } } as const;

const IfNoneMatch = z.object({
  "if-none-match": z.string().optional().openapi({
    description: "ETags previously received (RFC 9110 weak comparison; lists and * accepted).",
  }),
});

const commonResponses = {
  304: { description: "Not modified: the If-None-Match matched. Empty body.", headers: { ...CACHE_HEADERS, ...RATE_HEADERS } },
  401: { description: "API key missing, invalid, expired or revoked.", content: jsonContent(ErrorResponse) },
  404: { description: "Unknown entity.", content: jsonContent(ErrorResponse), headers: RATE_HEADERS },
  429: {
    description: "Hourly per-key rate limit exceeded.",
    content: jsonContent(ErrorResponse),
    headers: { ...RATE_HEADERS, ...RETRY_AFTER },
  },
  503: { description: "A dependency is unavailable; retry with exponential backoff.", content: jsonContent(ErrorResponse) },
} as const;

const security: Record<string, string[]>[] = [{ ApiKeyHeader: [] }, { ApiKeyAuthorization: [] }];

export const rosterRoute = createRoute({
  method: "get",
  path: "/api/v3/content/{brandId}/properties",
  summary: "The full roster of a hospitality brand's properties (not paginated)",
  security,
  request: { params: BrandParams, headers: IfNoneMatch },
  responses: {
    200: { description: "The roster.", content: jsonContent(BrandPropertiesResponse), headers: { ...CACHE_HEADERS, ...RATE_HEADERS } },
    ...commonResponses,
    404: { ...commonResponses[404], description: "Unknown brand, or not a hospitality brand (DMO-*, AIR-*, a property ID)." },
  },
});

export const faqRoute = createRoute({
  method: "get",
  path: "/api/v3/content/{entityId}/faq.json",
  summary: "The schema.org FAQPage of an entity, or the bulk @graph of a brand and its properties",
  security,
  request: { params: EntityParams, query: FaqQuery, headers: IfNoneMatch },
  responses: {
    200: {
      description: "FAQPage (one entity) or @graph (a brand).",
      content: jsonContent(FaqFeedResponse),
      headers: { ...CACHE_HEADERS, ...RATE_HEADERS },
    },
    400: { description: "A query flag is not one of true, false, 1, 0.", content: jsonContent(ErrorResponse), headers: RATE_HEADERS },
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
export const rosterCacheKey = (origin: string, brandId: string, version: string): string =>
  `${origin}/api/v3/content/${encodeURIComponent(brandId)}/properties?v=${version}`;

/**
 * Where a FAQ feed is cached: its URL with the flags, the payload-guard limits (a body cached under
 * looser limits is never served under stricter ones) and the content version.
 */
export const faqCacheKey = (origin: string, entityId: string, flags: FaqFlags, limits: GraphLimits, version: string): string =>
  `${origin}/api/v3/content/${encodeURIComponent(entityId)}/faq.json?includePropertyId=${Number(flags.includePropertyId)}` +
  `&includeCategory=${Number(flags.includeCategory)}&limits=${limits.maxEntities}-${limits.maxBytes}&v=${version}`;

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

  api.openapi(rosterRoute, async (c) => {
    const { brandId } = c.req.valid("param");
    const origin = surfaceOrigin(c.env.API_URL, c.req.url);
    const { version, reader } = await contentSnapshot(c.env, (p) => c.executionCtx.waitUntil(p));
    return serveCacheable(c, rosterCacheKey(origin, brandId, version), async () => {
      const roster = await readRoster(reader(), brandId);
      if (!roster) return contentError(404, `${brandId} is not a hospitality brand.`, requestPath(c.req.raw));
      return buildRoster(roster.brand, roster.properties);
    });
  });

  api.openapi(faqRoute, async (c) => {
    const { entityId } = c.req.valid("param");
    const flags = c.req.valid("query");
    const origin = surfaceOrigin(c.env.API_URL, c.req.url);
    const limits = {
      maxEntities: intVar(c.env.MAX_GRAPH_ENTITIES, 1000),
      maxBytes: intVar(c.env.MAX_GRAPH_BYTES, 10 * 1024 * 1024),
    };
    const { version, reader } = await contentSnapshot(c.env, (p) => c.executionCtx.waitUntil(p));
    return serveCacheable(c, faqCacheKey(origin, entityId, flags, limits, version), async () => {
      const db = reader();
      const source = await readFeedSource(db, entityId);
      if (!source) return contentError(404, `No entity ${entityId}.`, requestPath(c.req.raw));
      if (source.entity.kind !== "brand") return buildEntityFeed(source, flags, origin);
      return buildBrandGraph(db, source, flags, origin, limits, requestPath(c.req.raw));
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
      description: "Brand property rosters and schema.org FAQ feeds. Per-key hourly rate limits; weak ETags on every 200.",
    },
    servers: [{ url: surfaceOrigin(c.env.API_URL, c.req.url) }],
  }));
  return api;
}
