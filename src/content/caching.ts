import type { Context } from "hono";
import { sha256PrefixHex } from "../crypto/hash";
import { BodyCache } from "../cache/body-cache";

export const CACHE_CONTROL = "public, max-age=3600";
/**
 * SPEC's `public` lets a shared cache between a partner and us store a response; keyed by the
 * credentials, such a cache never answers a caller without a key (or with another key) from a copy
 * it stored for one that had it, around authentication and the rate limit.
 */
export const VARY = "X-API-Key, Authorization";

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

interface Representation {
  body: string;
  etag: string;
}

// Per isolate: 512 bodies or 32 MB, whichever comes first.
const isolateCache = new BodyCache<Representation>(512, 32 * 1024 * 1024);

/**
 * Serves a JSON body that depends only on `cacheKey` (which carries the content version): from this
 * isolate's memory, else the Workers Cache API, else built. `build` may return an error Response
 * instead, which is passed through uncached. A matching If-None-Match gets 304 with the same ETag
 * and Cache-Control and no body.
 */
export async function serveCacheable(c: Context, cacheKey: string, build: () => Promise<string | Response>): Promise<Response> {
  const remembered = isolateCache.get(cacheKey);
  let representation = remembered ?? (await fromCacheApi(cacheKey));
  if (!representation) {
    const built = await build();
    if (built instanceof Response) return built;
    representation = { body: built, etag: await weakEtag(built) };
    // The Worker's own cache copy is keyed by the URL alone (the key was checked already), so it carries no Vary.
    const stored = new Response(built, { headers: representationHeaders(representation.etag) });
    c.executionCtx.waitUntil(caches.default.put(new Request(cacheKey), stored));
  }
  if (!remembered) isolateCache.set(cacheKey, representation);
  if (ifNoneMatchMatches(c.req.header("If-None-Match"), representation.etag)) return notModified(representation.etag);
  return new Response(representation.body, { status: 200, headers: { ...representationHeaders(representation.etag), Vary: VARY } });
}

async function fromCacheApi(cacheKey: string): Promise<Representation | undefined> {
  const hit = await caches.default.match(new Request(cacheKey));
  const etag = hit?.headers.get("ETag");
  if (!hit || !etag) return undefined;
  return { body: await hit.text(), etag };
}

const representationHeaders = (etag: string): Record<string, string> => ({
  "Content-Type": "application/json; charset=utf-8",
  ETag: etag,
  "Cache-Control": CACHE_CONTROL,
});

const notModified = (etag: string): Response =>
  new Response(null, { status: 304, headers: { ETag: etag, "Cache-Control": CACHE_CONTROL, Vary: VARY } });
