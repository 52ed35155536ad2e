import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { changeEntry, encodeCursor, readChanges } from "../catalogue/changes";
import { contentSnapshot } from "../catalogue/snapshot";
import { conditionalResponse, weakEtag } from "./caching";
import { surfaceOrigin } from "../env";
import { jsonContent } from "../http/openapi";
import type { ContentEnv } from "./api-key";
import { contentError, requestPath } from "./errors";
import { embeddableJson } from "./feeds";
import { CACHE_HEADERS, commonResponses, IfNoneMatch, RATE_HEADERS, security } from "./route-parts";
import { ChangesQuery, ChangesResponse, ErrorResponse } from "./schemas";
import { ContentChangedEvent } from "../webhooks/events";

/**
 * A page of the feed answers with the changes after its cursor at the time it is asked, so a cache may keep it
 * only to revalidate: SPEC's `max-age=3600` would hide an hour of changes from a partner polling behind one.
 */
const CHANGE_FEED_CACHE_CONTROL = "no-cache";

export const changesRoute = createRoute({
  method: "get",
  path: "/api/v3/content/changes",
  operationId: "listContentChanges",
  summary: "What was added, changed or removed after a cursor, oldest first (one brand, or everything)",
  security,
  request: { query: ChangesQuery, headers: IfNoneMatch },
  responses: {
    200: {
      description: "A page of changes and the cursor after it. `Cache-Control: no-cache`: revalidate with the ETag.",
      content: jsonContent(ChangesResponse),
      headers: { ...CACHE_HEADERS, "Cache-Control": { description: "no-cache", schema: { type: "string" } }, ...RATE_HEADERS },
    },
    400: {
      description: "A cursor this feed did not issue, or a malformed parameter.",
      content: jsonContent(ErrorResponse),
      headers: RATE_HEADERS,
    },
    ...commonResponses,
    404: { ...commonResponses[404], description: "brandId names no brand the feed has ever held." },
    410: {
      description: "The cursor is too old (its removals are no longer kept) or from another database: resynchronise.",
      content: jsonContent(ErrorResponse),
      headers: RATE_HEADERS,
    },
  },
});

const RESYNC =
  "Resynchronise: fetch GET /api/v3/content/{brandId}/faq.ndjson of each brand you keep and continue from its X-Changes-Cursor header.";

const WEBHOOK_HEADERS = z.object({
  "webhook-id": z.string().openapi({ description: "The event's ID, the same on every attempt: drop repeats by it." }),
  "webhook-timestamp": z.string().openapi({ description: "Seconds since the epoch when this attempt was signed." }),
  "webhook-signature": z
    .string()
    .openapi({ description: "`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` with the endpoint's secret." }),
});

/** GET /api/v3/content/changes: the change feed (src/catalogue/changes.ts), paged by an opaque cursor; and the webhook events made from it. */
export function changeFeedRoutes(api: OpenAPIHono<ContentEnv>): void {
  api.openAPIRegistry.registerWebhook({
    method: "post",
    path: "content.changed",
    operationId: "contentChanged",
    // Not called with the partner's key: each event is signed with the endpoint's own secret (webhook-signature).
    security: [],
    summary: "Changes of the brands an endpoint follows, signed as Standard Webhooks (the operator registers the endpoint)",
    request: { headers: WEBHOOK_HEADERS, body: { content: jsonContent(ContentChangedEvent), required: true } },
    responses: {
      200: { description: "Any 2xx acknowledges the event; anything else, a redirect or no answer within 10 s is retried for 27.6 h." },
    },
  });
  api.openapi(changesRoute, async (c) => {
    const { cursor, brandId, limit } = c.req.valid("query");
    const path = requestPath(c.req.raw);
    const { reader } = await contentSnapshot(c.env, (p) => c.executionCtx.waitUntil(p));
    const page = await readChanges(reader(), { cursor, brandId, limit });
    if (page.found === "gone") return contentError(410, `${page.reason} ${RESYNC}`, path);
    if (page.found === "unknown-brand")
      return contentError(404, `${brandId} is not a hospitality brand, and no change of one is kept.`, path);
    const origin = surfaceOrigin(c.env.API_URL, c.req.url);
    const body = embeddableJson({
      changes: page.changes.map((row) => changeEntry(row, origin)),
      nextCursor: encodeCursor(page.next),
      hasMore: page.hasMore,
    } satisfies ChangesResponse);
    return conditionalResponse(c, await weakEtag(body), () => body, {
      contentType: "application/json; charset=utf-8",
      cacheControl: CHANGE_FEED_CACHE_CONTROL,
    });
  });
}
