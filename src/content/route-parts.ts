import { z } from "@hono/zod-openapi";
import { jsonContent } from "../http/openapi";
import { ErrorResponse } from "./schemas";

/** What every content route declares alike in the OpenAPI document: headers, the conditional request, errors, security. */

export const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests per hour allowed for the key.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
} as const;
export const CACHE_HEADERS = {
  ETag: { description: 'Weak ETag W/"<16 hex digits>": first 8 bytes of the SHA-256 of the body.', schema: { type: "string" } },
  "Cache-Control": { description: "public, max-age=3600", schema: { type: "string" } },
  Vary: { description: "X-API-Key, Authorization: a shared cache keeps one copy per key.", schema: { type: "string" } },
} as const;
const RETRY_AFTER = { "Retry-After": { description: "Seconds until the window resets.", schema: { type: "integer" } } } as const;

export const IfNoneMatch = z.object({
  "if-none-match": z.string().optional().openapi({
    description: "ETags previously received (RFC 9110 weak comparison; lists and * accepted).",
  }),
});

export const commonResponses = {
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

export const security: Record<string, string[]>[] = [{ ApiKeyHeader: [] }, { ApiKeyAuthorization: [] }];
