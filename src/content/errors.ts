import type { ErrorResponse } from "./schemas";

export const REASON_PHRASES = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  410: "Gone",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
} as const;
export type ContentErrorStatus = keyof typeof REASON_PHRASES;

/** UTC as `YYYY-MM-DDTHH:mm:ss.SSS`: an ISO 8601 local date-time with milliseconds and no zone. */
export const localTimestamp = (at = new Date()): string => at.toISOString().slice(0, 23);

/** The request path as sent (still percent-encoded), for ErrorResponse.path. */
export const requestPath = (request: Request): string => new URL(request.url).pathname;

export const FALLBACK_URL_PATTERN = "/api/v3/content/{entityId}/faq.json";

/** The content API's ErrorResponse as a Response; `extra` carries `fallbackUrlPattern` on 413. */
export function contentError(
  status: ContentErrorStatus,
  message: string,
  path: string,
  headers?: HeadersInit,
  extra?: Pick<ErrorResponse, "fallbackUrlPattern">,
): Response {
  const body: ErrorResponse = {
    timestamp: localTimestamp(),
    status,
    error: REASON_PHRASES[status],
    message,
    path,
    ...extra,
  };
  const response = Response.json(body, { status, headers });
  response.headers.set("Cache-Control", "no-store");
  return response;
}
