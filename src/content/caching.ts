import type { Context } from "hono";
import { sha256PrefixHex } from "../crypto/hash";
import { BodyCache } from "../cache/body-cache";
import { contentError, FALLBACK_URL_PATTERN, requestPath } from "./errors";

export const CACHE_CONTROL = "public, max-age=3600";
/**
 * SPEC's `public` lets a shared cache between a partner and us store a response; keyed by the
 * credentials, such a cache never answers a caller without a key (or with another key) from a copy
 * it stored for one that had it, around authentication and the rate limit.
 */
export const VARY = "X-API-Key, Authorization";
/** What the FAQ feeds, the roster and the brand stream send: they depend on Accept-Language too (src/content/languages.ts). */
export const LANGUAGE_VARY = `${VARY}, Accept-Language`;

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

interface Representation {
  body: string;
  etag: string;
  /** The languages of the body, when a language was asked for: its Content-Language. */
  contentLanguage?: string;
}

/** A body built for a request that asked for a language, with the languages it holds. */
export interface LocalizedBody {
  body: string;
  contentLanguage: string;
}

/**
 * What a builder answers instead of a body when a payload guard fires. The refusal depends on the content
 * and the limits alone, as a body does, so it is cached like one: an oversized brand is measured once per
 * content version, not on every request.
 */
export class PayloadTooLarge {
  constructor(readonly message: string) {}
}

/** A refusal as it is kept: its message (the time and path of the answer are each request's own). */
interface Refusal {
  body: string;
  refused: true;
}

// Marks a refusal in the Cache API, whose copies only this Worker reads.
const REFUSAL_HEADER = "X-Payload-Too-Large";

// Per isolate: 512 bodies or 32 MB, whichever comes first.
const isolateCache = new BodyCache<Representation | Refusal>(512, 32 * 1024 * 1024);

/**
 * Serves a JSON body that depends only on `cacheKey` (which carries the content version and the language
 * asked for): from this isolate's memory, else the Workers Cache API, else built. `build` may return a
 * LocalizedBody, served with its Content-Language, or an error Response instead, which is passed through
 * uncached, or a PayloadTooLarge, which is cached and answered 413. A matching If-None-Match gets 304 with
 * the same ETag and Cache-Control and no body.
 */
export async function serveCacheable(
  c: Context,
  cacheKey: string,
  build: () => Promise<string | LocalizedBody | Response | PayloadTooLarge>,
): Promise<Response> {
  const remembered = isolateCache.get(cacheKey);
  let cached = remembered ?? (await fromCacheApi(cacheKey));
  if (!cached) {
    const built = await build();
    if (built instanceof Response) return built;
    if (built instanceof PayloadTooLarge) cached = { body: built.message, refused: true };
    else if (typeof built === "string") cached = { body: built, etag: await weakEtag(built) };
    else cached = { ...built, etag: await weakEtag(built.body) };
    c.executionCtx.waitUntil(caches.default.put(new Request(cacheKey), cacheApiCopy(cached)));
  }
  if (!remembered) isolateCache.set(cacheKey, cached);
  if ("refused" in cached) {
    return contentError(413, cached.body, requestPath(c.req.raw), undefined, { fallbackUrlPattern: FALLBACK_URL_PATTERN });
  }
  const { body, etag } = cached;
  return conditionalResponse(c, etag, () => body, {
    contentType: JSON_TYPE,
    headers: { Vary: LANGUAGE_VARY, ...languageHeader(cached) },
  });
}

/** The Worker's own Cache API copy is keyed by the URL alone (the key was checked already), so it carries no Vary. */
const cacheApiCopy = (cached: Representation | Refusal): Response =>
  "refused" in cached
    ? new Response(cached.body, { headers: { [REFUSAL_HEADER]: "1", "Cache-Control": CACHE_CONTROL } })
    : new Response(cached.body, { headers: representationHeaders(cached) });

async function fromCacheApi(cacheKey: string): Promise<Representation | Refusal | undefined> {
  const hit = await caches.default.match(new Request(cacheKey));
  if (!hit) return undefined;
  if (hit.headers.has(REFUSAL_HEADER)) return { body: await hit.text(), refused: true };
  const etag = hit.headers.get("ETag");
  const contentLanguage = hit.headers.get("Content-Language");
  return etag ? { body: await hit.text(), etag, ...(contentLanguage === null ? {} : { contentLanguage }) } : undefined;
}

const languageHeader = ({ contentLanguage }: Representation): Record<string, string> =>
  contentLanguage === undefined ? {} : { "Content-Language": contentLanguage };

const JSON_TYPE = "application/json; charset=utf-8";

const representationHeaders = (representation: Representation): Record<string, string> => ({
  "Content-Type": JSON_TYPE,
  ETag: representation.etag,
  "Cache-Control": CACHE_CONTROL,
  ...languageHeader(representation),
});
