import type { Context } from "hono";
import { sha256PrefixHex } from "../crypto/hash";

export const CACHE_CONTROL = "public, max-age=3600";

/** `W/"<16 hex>"`: the first 8 bytes of the SHA-256 of the exact body bytes. */
export async function weakEtag(body: string): Promise<string> {
  return `W/"${await sha256PrefixHex(body, 8)}"`;
}

const opaqueTag = (tag: string): string => (tag.startsWith("W/") ? tag.slice(2) : tag);

/**
 * RFC 9110 §13.1.2: `*` matches any current representation; otherwise the list matches when any
 * member equals `etag` under weak comparison (the `W/` prefix is ignored on both sides).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const wanted = opaqueTag(etag);
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaqueTag(tag) === wanted);
}

/**
 * Serves a JSON body that depends only on `cacheKey`: from the Workers Cache API when present,
 * else built (`build` may return an error Response instead, which is passed through uncached).
 * A matching If-None-Match gets 304 with the same ETag and Cache-Control and no body.
 */
export async function serveCacheable(
  c: Context,
  cacheKey: string,
  build: () => Promise<string | Response>,
): Promise<Response> {
  const cache = caches.default;
  const keyRequest = new Request(cacheKey);
  const conditional = c.req.header("If-None-Match");
  const hit = await cache.match(keyRequest);

  let body: string | null = null;
  let etag: string;
  if (hit) {
    etag = hit.headers.get("ETag") ?? "";
    if (ifNoneMatchMatches(conditional, etag)) {
      await hit.body?.cancel();
      return notModified(etag);
    }
    body = await hit.text();
  } else {
    const built = await build();
    if (built instanceof Response) return built;
    body = built;
    etag = await weakEtag(body);
    c.executionCtx.waitUntil(
      cache.put(keyRequest, new Response(body, { headers: representationHeaders(etag) })),
    );
    if (ifNoneMatchMatches(conditional, etag)) return notModified(etag);
  }
  return new Response(body, { status: 200, headers: representationHeaders(etag) });
}

const representationHeaders = (etag: string): Record<string, string> => ({
  "Content-Type": "application/json; charset=utf-8",
  ETag: etag,
  "Cache-Control": CACHE_CONTROL,
});

const notModified = (etag: string): Response =>
  new Response(null, { status: 304, headers: { ETag: etag, "Cache-Control": CACHE_CONTROL } });
