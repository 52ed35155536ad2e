import type { Context } from "hono";
import { CACHE_CONTROL, ifNoneMatchMatches, VARY } from "./caching";

/**
 * The answer to a GET whose ETag is known before its body: 304 with no body when If-None-Match matches
 * (the same ETag, Cache-Control, Vary and `headers`), else 200 with the body `body()` makes only then.
 */
export function conditionalResponse(
  c: Context,
  etag: string,
  body: () => BodyInit,
  options: { contentType: string; cacheControl?: string; headers?: Record<string, string> },
): Response {
  const headers = { ETag: etag, "Cache-Control": options.cacheControl ?? CACHE_CONTROL, Vary: VARY, ...options.headers };
  if (ifNoneMatchMatches(c.req.header("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body(), { status: 200, headers: { "Content-Type": options.contentType, ...headers } });
}
