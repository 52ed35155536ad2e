import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findEntity } from "../../../src/storage/entities";
import { ifNoneMatchMatches } from "../../../src/content/caching";
import { faqCacheKey } from "../../../src/content/routes";
import { CONTENT_VERSION_MAX_AGE_MS } from "../../../src/catalogue/snapshot";
import { versionTag, type ContentVersion } from "../../../src/storage/content-version";
import { fetchWith } from "../support/app";
import { API, contentRequest, get, sha256Hex16 } from "../support/content";

const WEAK_ETAG = /^W\/"[0-9a-f]{16}"$/;

afterEach(() => vi.useRealTimers());

/** A change written to D1 by someone else (another isolate, a restore) is served within CONTENT_VERSION_MAX_AGE_MS. */
function afterTheVersionAge(): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now + CONTENT_VERSION_MAX_AGE_MS);
}

describe("ETags and Cache-Control", () => {
  it.each([
    "/api/v3/content/HO-AUR-0001/faq.json",
    "/api/v3/content/HO-AUR/faq.json",
    "/api/v3/content/HO-AUR/properties",
    "/api/v3/content/DMO-LIS/faq.json?includeCategory=true",
  ])('%s: every 200 carries W/"<first 8 bytes of SHA-256 of the body>" and Cache-Control', async (path) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      // The second round is served from the Cache API and must be byte-identical.
      const res = await get(path);
      expect(res.status).toBe(200);
      const etag = res.headers.get("ETag")!;
      expect(etag).toMatch(WEAK_ETAG);
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
      expect(res.headers.get("Vary")).toBe("X-API-Key, Authorization, Accept-Language");
      expect(etag).toBe(`W/"${await sha256Hex16(await res.arrayBuffer())}"`);
    }
  });

  it("gives four distinct, repeatable ETags for the four flag combinations", async () => {
    const combos = ["", "?includePropertyId=true", "?includeCategory=true", "?includePropertyId=true&includeCategory=true"];
    const etags = await Promise.all(combos.map(async (q) => (await get(`/api/v3/content/HO-AUR-0004/faq.json${q}`)).headers.get("ETag")));
    expect(new Set(etags).size).toBe(4);
    const again = await Promise.all(combos.map(async (q) => (await get(`/api/v3/content/HO-AUR-0004/faq.json${q}`)).headers.get("ETag")));
    expect(again).toEqual(etags);
    // 1/0 are the same flags as true/false, so they share the representation.
    expect((await get("/api/v3/content/HO-AUR-0004/faq.json?includePropertyId=1&includeCategory=0")).headers.get("ETag")).toBe(etags[1]);
  });

  it("answers a matching If-None-Match with 304, no body, the same ETag and Cache-Control, and rate-limit headers", async () => {
    const path = "/api/v3/content/HO-AUR-0005/faq.json?includeCategory=true";
    const etag = (await get(path)).headers.get("ETag")!;
    for (const header of [etag, etag.slice(2), `"nope", ${etag}`, `W/"0000000000000000" , ${etag.slice(2)}`, "*"]) {
      const res = await get(path, "demo-key", { "If-None-Match": header });
      expect(res.status, header).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("ETag")).toBe(etag);
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
      expect(res.headers.get("Vary")).toBe("X-API-Key, Authorization, Accept-Language");
      expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
    }
  });

  it("answers 200 when If-None-Match does not match, including another flag combination's ETag", async () => {
    const other = (await get("/api/v3/content/HO-AUR-0006/faq.json")).headers.get("ETag")!;
    const res = await get("/api/v3/content/HO-AUR-0006/faq.json?includeCategory=true", "demo-key", { "If-None-Match": other });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).not.toBe(other);
    expect((await get("/api/v3/content/HO-AUR-0006/faq.json", "demo-key", { "If-None-Match": 'W/"0123456789abcdef"' })).status).toBe(200);
  });

  it("honours If-None-Match on the roster", async () => {
    const etag = (await get("/api/v3/content/HO-CAS/properties")).headers.get("ETag")!;
    expect((await get("/api/v3/content/HO-CAS/properties", "demo-key", { "If-None-Match": etag })).status).toBe(304);
  });

  it("moves the ETag and bypasses the cached copy when the content changes, and moves it back with the data", async () => {
    const path = "/api/v3/content/HO-AUR-0008/faq.json";
    const first = await get(path);
    const before = first.headers.get("ETag")!;
    const original = (await findEntity(env.DB, "HO-AUR-0008"))!;
    expect((await get(path)).headers.get("ETag")).toBe(before);

    const rename = async (name: string) => {
      await env.DB.prepare("UPDATE entities SET name = ? WHERE id = ?").bind(name, original.id).run();
      afterTheVersionAge();
    };
    await rename("Aurora Renamed Hotel");
    const changed = await get(path, "demo-key", { "If-None-Match": before });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(before);
    expect((await changed.json<{ about: { name: string } }>()).about.name).toBe("Aurora Renamed Hotel");

    const roster = await (await get("/api/v3/content/HO-AUR/properties")).text();
    expect(roster).toContain("Aurora Renamed Hotel");

    await rename(original.name);
    // Identical backing data gives an identical ETag again.
    expect((await get(path)).headers.get("ETag")).toBe(before);
  });

  it("keeps every 200 in the Cache API, and answers from it a request this isolate has never served (another isolate's cache)", async () => {
    afterTheVersionAge(); // so the version read below is the one this isolate serves
    const version = versionTag((await env.DB.prepare("SELECT version, epoch FROM content_version").first<ContentVersion>())!);
    const limits = { maxEntities: 1000, maxBytes: 10 * 1024 * 1024 };
    const noFlags = { includePropertyId: false, includeCategory: false };
    // What this isolate served is stored in the Cache API too, byte for byte (once the response's waitUntil is done).
    const served = await fetchWith(contentRequest("/api/v3/content/HO-AUR-0011/faq.json"));
    const body = await served.text();
    const stored = await caches.default.match(new Request(faqCacheKey(API, "HO-AUR-0011", noFlags, limits, version, null)));
    expect(await stored!.text()).toBe(body);
    expect(stored!.headers.get("ETag")).toBe(served.headers.get("ETag"));
    // The Worker's copy is keyed by URL alone, after the key was checked: a Vary there would only stop it from hitting.
    expect(stored!.headers.get("Vary")).toBeNull();
    expect(served.headers.get("Vary")).toBe("X-API-Key, Authorization, Accept-Language");
    // A representation only the Cache API holds (as one cached near a partner by another isolate) is served from there, not rebuilt.
    const elsewhere = JSON.stringify({ cachedBy: "another isolate" });
    await caches.default.put(
      new Request(faqCacheKey(API, "HO-AUR-0012", noFlags, limits, version, null)),
      new Response(elsewhere, { headers: { ETag: 'W/"00000000000000aa"', "Cache-Control": "public, max-age=3600" } }),
    );
    const fromCacheApi = await get("/api/v3/content/HO-AUR-0012/faq.json");
    expect(await fromCacheApi.text()).toBe(elsewhere);
    expect(fromCacheApi.headers.get("ETag")).toBe('W/"00000000000000aa"');
  });

  it("never caches errors", async () => {
    const res = await get("/api/v3/content/HO-NOPE/properties");
    expect(res.status).toBe(404);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("ETag")).toBeNull();
  });

  it("never serves what was current before a restore: every change draws a new epoch for the cache key", async () => {
    const path = "/api/v3/content/HO-AUR-0013/faq.json";
    const original = (await findEntity(env.DB, "HO-AUR-0013"))!;
    const rename = async (name: string) => {
      await env.DB.prepare("UPDATE entities SET name = ? WHERE id = ?").bind(name, original.id).run();
      afterTheVersionAge();
    };
    const nameServed = async () => (await (await get(path)).json<{ about: { name: string } }>()).about.name;

    const backup = (await env.DB.prepare("SELECT version, epoch FROM content_version").first<ContentVersion>())!;
    expect(await nameServed()).toBe(original.name);
    await rename("Before The Restore");
    expect(await nameServed()).toBe("Before The Restore"); // cached under the next version

    // Restoring the backup brings back its data and its content version together.
    await rename(original.name);
    await env.DB.prepare("UPDATE content_version SET version = ?, epoch = ?").bind(backup.version, backup.epoch).run();
    afterTheVersionAge();
    expect(await nameServed()).toBe(original.name);
    // The next change reaches the same counter as the change before the restore, but not the same key.
    await rename("After The Restore");
    expect((await env.DB.prepare("SELECT version FROM content_version").first<{ version: number }>())!.version).toBe(backup.version + 1);
    expect(await nameServed()).toBe("After The Restore");
    await rename(original.name);
  });

  it("percent-encodes IDs in cache keys: an ID cannot reach into another entity's cached response", async () => {
    await get("/api/v3/content/HO-AUR/properties");
    const tag = versionTag((await env.DB.prepare("SELECT version, epoch FROM content_version").first<ContentVersion>())!);
    // Decoded, this brand ID would spell HO-AUR's cache key: "HO-AUR/properties?v=<tag>#".
    const res = await get(`/api/v3/content/${encodeURIComponent(`HO-AUR/properties?v=${tag}#`)}/properties`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("brandName");
  });
});

describe("bodies a partner embeds in a page", () => {
  it("escape <, > and & in every content body, so an answer with </script> cannot end a script element", async () => {
    const hostile = "</script><script>alert(1)</script> & <!-- more";
    await env.DB.prepare("UPDATE faqs SET answer = ? WHERE entity_id = 'HO-AUR-0014' AND position = 0").bind(hostile).run();
    await env.DB.prepare("UPDATE entities SET name = ? WHERE id = 'HO-AUR-0015'").bind("Aurora <b>&</b>").run();
    afterTheVersionAge();
    for (const path of ["/api/v3/content/HO-AUR-0014/faq.json", "/api/v3/content/HO-AUR/faq.json", "/api/v3/content/HO-AUR/properties"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const body = await res.text();
      expect(body).not.toMatch(/[<>&]/);
      expect(body).toMatch(/\\u003c/);
      expect(JSON.stringify(JSON.parse(body))).toMatch(
        path.endsWith("properties") ? /Aurora <b>&<\/b>/ : /<\/script><script>alert\(1\)<\/script> & <!-- more/,
      );
    }
  });
});

describe("ifNoneMatchMatches (RFC 9110 §13.1.2, weak comparison)", () => {
  const ETAG = 'W/"0123456789abcdef"';

  it.each([
    ["the same weak tag", 'W/"0123456789abcdef"'],
    ["the same tag sent strong", '"0123456789abcdef"'],
    ["a list holding it", '"nope", W/"0123456789abcdef"'],
    ["a list holding it, without spaces", 'W/"0000000000000000","0123456789abcdef"'],
    ["a list holding it after an empty tag", '"", W/"0123456789abcdef"'],
    ["*", "*"],
    ["* with spaces around", "  *  "],
  ])("matches %s", (_, header) => {
    expect(ifNoneMatchMatches(header, ETAG)).toBe(true);
  });

  it("compares a strong ETag weakly too", () => {
    expect(ifNoneMatchMatches('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchMatches('"abc"', '"abc"')).toBe(true);
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["another tag", 'W/"0123456789abcdee"'],
    ["a tag that begins like it", 'W/"0123456789abcdef0"'],
    ["a tag that it begins with", 'W/"0123456789abcde"'],
    ["a list without it", 'W/"0000000000000000", "1111111111111111"'],
    ["the tag unquoted", "0123456789abcdef"],
    ["the tag unquoted behind W/", "W/0123456789abcdef"],
    ["an unterminated tag", 'W/"0123456789abcdef'],
    ["* in a list", '*, W/"0000000000000000"'],
  ])("does not match %s", (_, header) => {
    expect(ifNoneMatchMatches(header, ETAG)).toBe(false);
  });
});
