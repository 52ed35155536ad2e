import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CONTENT_VERSION_MAX_AGE_MS } from "../../../src/catalogue/snapshot";
import { versionTag, type ContentVersion } from "../../../src/storage/content-version";
import { buildDemoContent } from "../../../src/fixture/demo";
import { languageRequest } from "../../../src/content/languages";
import { faqCacheKey } from "../../../src/content/routes";
import type { ContentRecord } from "../../../src/catalogue/records";
import { importRecords } from "../support/admin";
import { fetchWith } from "../support/app";
import { API, contentRequest, expectErrorResponse, get, sha256Hex16 } from "../support/content";
import { streamLines, UNCOUNTED } from "../support/partner-sync";

/**
 * The content API in the partner's language: `?lang=` and Accept-Language (the parameter wins), RFC 4647 lookup
 * with the entity's default language as the fallback, `inLanguage` and Content-Language saying what was served,
 * Vary, per-language ETags and 304s; and no change at all for a request that asks for no language.
 * HO-AUR-0041…0060 and DMO-LIS hold Portuguese, Spanish, French and German; HO-AUR-0001 is English only.
 */

type Question = { "@type": string; name: string; acceptedAnswer: { text: string }; inLanguage?: string; category?: string };
type Page = { "@type": string; about: { name: string }; inLanguage?: string; mainEntity: Question[] };

const NO_FLAGS = { includePropertyId: false, includeCategory: false };
afterEach(() => vi.useRealTimers());

const feed = (id: string, query = "") => `/api/v3/content/${id}/faq.json${query}`;
const fixture = (id: string): ContentRecord => buildDemoContent().find((r) => r.id === id)!;
const translation = (id: string, language: string) => fixture(id).translations!.find((t) => t.language === language)!;

/** The body the feed served before content had languages, built from the fixture record by hand. */
function englishBody(record: ContentRecord, apiOrigin: string): string {
  const page = {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    "@id": `${apiOrigin}/api/v3/content/${record.id}/faq.json`,
    about: { "@type": record.kind === "property" ? "Hotel" : "Organization", identifier: record.id, name: record.name, url: record.url },
    dateModified: record.updatedAt,
    mainEntity: record.faqs.map((faq) => ({
      "@type": "Question",
      name: faq.question,
      acceptedAnswer: { "@type": "Answer", text: faq.answer },
    })),
  };
  return JSON.stringify(page).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await get(path, UNCOUNTED, headers);
  expect(res.status, path).toBe(200);
  const bytes = await res.arrayBuffer();
  return { res, bytes, page: JSON.parse(new TextDecoder().decode(bytes)) as Page };
}

describe("FAQ feed without a language request", () => {
  it.each(["HO-AUR-0051", "DMO-LIS", "HO-AUR-0001"])(
    "serves %s byte for byte as before, without inLanguage or Content-Language",
    async (id) => {
      const { res, bytes } = await page(feed(id));
      expect(new TextDecoder().decode(bytes)).toBe(englishBody(fixture(id), API));
      expect(res.headers.get("ETag")).toBe(`W/"${await sha256Hex16(bytes)}"`);
      expect(res.headers.get("Content-Language")).toBeNull();
      expect(res.headers.get("Vary")).toBe("X-API-Key, Authorization, Accept-Language");
    },
  );

  it("treats an Accept-Language with no language tag in it as no request: the same body and ETag", async () => {
    const plain = await get(feed("HO-AUR-0052"), UNCOUNTED);
    const garbled = await get(feed("HO-AUR-0052"), UNCOUNTED, { "Accept-Language": "en_US, ???, ;q=1" });
    expect(await garbled.text()).toBe(await plain.text());
    expect(garbled.headers.get("ETag")).toBe(plain.headers.get("ETag"));
    expect(garbled.headers.get("Content-Language")).toBeNull();
  });
});

describe("FAQ feed in the language asked for", () => {
  it.each(["pt", "es", "fr", "de"])(
    "serves HO-AUR-0051 in %s: questions, answers and the name, said in inLanguage and Content-Language",
    async (language) => {
      const { res, page: served } = await page(feed("HO-AUR-0051", `?lang=${language}`));
      const expected = translation("HO-AUR-0051", language);
      expect(served.inLanguage).toBe(language);
      expect(res.headers.get("Content-Language")).toBe(language);
      expect(served.about.name).toBe(expected.name);
      expect(served.mainEntity.map((q) => q.name)).toEqual(expected.faqs!.map((f) => f.question));
      expect(served.mainEntity.map((q) => q.acceptedAnswer.text)).toEqual(expected.faqs!.map((f) => f.answer));
      expect(served.mainEntity.every((q) => q.inLanguage === undefined)).toBe(true);
    },
  );

  it("orders Accept-Language by q-value", async () => {
    const { page: served } = await page(feed("HO-AUR-0052"), { "Accept-Language": "fr;q=0.5, de;q=0.9, ja;q=0.95" });
    expect(served.inLanguage).toBe("de");
  });

  it("falls back along a region: pt-BR is served in pt, de-CH in de", async () => {
    expect((await page(feed("HO-AUR-0052", "?lang=pt-BR"))).page.inLanguage).toBe("pt");
    const { res, page: served } = await page(feed("HO-AUR-0052"), { "Accept-Language": "de-CH" });
    expect(served.inLanguage).toBe("de");
    expect(res.headers.get("Content-Language")).toBe("de");
  });

  it.each([
    ["an unknown language", { "Accept-Language": "ja" }],
    ["a refused language with the wildcard", { "Accept-Language": "pt;q=0, *" }],
  ])("serves the default language for %s, and says so", async (_, headers) => {
    const { res, page: served } = await page(feed("HO-AUR-0052"), headers);
    expect(served.inLanguage).toBe("en");
    expect(res.headers.get("Content-Language")).toBe("en");
    expect(served.mainEntity.map((q) => q.name)).toEqual(fixture("HO-AUR-0052").faqs.map((f) => f.question));
  });

  it("takes Accept-Language: * alone (what fetch sends by default) as no language asked: the same body and ETag as without it", async () => {
    const plain = await get("/api/v3/content/HO-AUR-0052/faq.json");
    const wildcard = await get("/api/v3/content/HO-AUR-0052/faq.json", "demo-key", { "Accept-Language": "*" });
    expect(wildcard.headers.get("ETag")).toBe(plain.headers.get("ETag"));
    expect(wildcard.headers.get("Content-Language")).toBeNull();
    expect(await wildcard.text()).toBe(await plain.text());
  });

  it("lets lang win over Accept-Language", async () => {
    const { page: served } = await page(feed("HO-AUR-0053", "?lang=es"), { "Accept-Language": "fr, de;q=0.5" });
    expect(served.inLanguage).toBe("es");
  });

  it("serves an entity that has no translations in its default language, marked en", async () => {
    const { res, page: served } = await page(feed("HO-AUR-0001", "?lang=pt"));
    expect(served.inLanguage).toBe("en");
    expect(res.headers.get("Content-Language")).toBe("en");
  });

  it("marks each question that has no translation with its own language, and lists both in Content-Language", async () => {
    await importRecords([
      {
        id: "DMO-HALF",
        kind: "destination",
        name: "Half Translated",
        faqs: [
          { category: "Transport", question: "How do I get around?", answer: "By tram." },
          { category: "Policies", question: "Is there a tourist tax?", answer: "Yes." },
        ],
        translations: [
          { language: "pt", faqs: [{ source: "How do I get around?", question: "Como me desloco?", answer: "De elétrico." }] },
        ],
      },
    ]);
    const { res, page: served } = await page(feed("DMO-HALF", "?lang=pt&includeCategory=true"));
    expect(served.inLanguage).toBe("pt");
    expect(served.mainEntity).toEqual([
      { "@type": "Question", name: "Como me desloco?", acceptedAnswer: { "@type": "Answer", text: "De elétrico." }, category: "Transport" },
      {
        "@type": "Question",
        name: "Is there a tourist tax?",
        acceptedAnswer: { "@type": "Answer", text: "Yes." },
        inLanguage: "en",
        category: "Policies",
      },
    ]);
    expect(res.headers.get("Content-Language")).toBe("pt, en");
  });

  it.each([
    ["lang=english", "english"],
    ["lang=pt_BR", "pt_BR"],
    ["lang=", '""'],
    ["lang=*", "*"],
    ["lang=pt&lang=es", "lang"],
  ])("answers 400 ErrorResponse to %s, naming lang, with the rate-limit headers", async (query, named) => {
    const res = await get(feed("HO-AUR-0051", `?${query}`));
    const body = await expectErrorResponse(res, 400, "Bad Request", "/api/v3/content/HO-AUR-0051/faq.json");
    expect(body.message).toContain("lang");
    expect(body.message).toContain(named);
    expect(res.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
  });
});

describe("ETags, 304 and caching per language", () => {
  it("gives each language its own ETag, the SHA-256 of its own body, and keeps the default's unmoved", async () => {
    const bodies = await Promise.all(["", "?lang=pt", "?lang=es", "?lang=fr", "?lang=de"].map((q) => page(feed("HO-AUR-0054", q))));
    const etags = bodies.map(({ res }) => res.headers.get("ETag"));
    expect(new Set(etags).size).toBe(5);
    for (const { res, bytes } of bodies) expect(res.headers.get("ETag")).toBe(`W/"${await sha256Hex16(bytes)}"`);
    const english = new TextEncoder().encode(englishBody(fixture("HO-AUR-0054"), API));
    expect(etags[0]).toBe(`W/"${await sha256Hex16(english.buffer as ArrayBuffer)}"`);
  });

  it("answers 304 to a language's own ETag, with Vary and Content-Language, and 200 to another language's", async () => {
    const pt = await get(feed("HO-AUR-0055", "?lang=pt"), UNCOUNTED);
    const etag = pt.headers.get("ETag")!;
    const again = await get(feed("HO-AUR-0055"), UNCOUNTED, { "Accept-Language": "pt-PT", "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
    expect(again.headers.get("Vary")).toBe("X-API-Key, Authorization, Accept-Language");
    expect(again.headers.get("Content-Language")).toBe("pt");
    const french = await get(feed("HO-AUR-0055", "?lang=fr"), UNCOUNTED, { "If-None-Match": etag });
    expect(french.status).toBe(200);
    const english = await get(feed("HO-AUR-0055"), UNCOUNTED, { "If-None-Match": etag });
    expect(english.status).toBe(200);
    expect(english.headers.get("Content-Language")).toBeNull();
  });

  it("keeps each language's body in the Cache API under its own key, Content-Language with it", async () => {
    // So the version read below is the one this isolate serves.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + CONTENT_VERSION_MAX_AGE_MS);
    const version = versionTag((await env.DB.prepare("SELECT version, epoch FROM content_version").first<ContentVersion>())!);
    const served = await fetchWith(contentRequest(feed("HO-AUR-0056", "?lang=de")));
    const key = (ranges: string[] | null) =>
      new Request(faqCacheKey(API, "HO-AUR-0056", NO_FLAGS, { maxEntities: 1000, maxBytes: 10 * 1024 * 1024 }, version, ranges));
    const stored = await caches.default.match(key(["de"]));
    expect(await stored!.text()).toBe(await served.text());
    expect(stored!.headers.get("Content-Language")).toBe("de");
    expect(stored!.headers.get("ETag")).toBe(served.headers.get("ETag"));
    expect(await caches.default.match(key(["fr"]))).toBeUndefined();
  });
});

describe("a hostile Accept-Language", () => {
  const hostile = `pt-x-${"a1b2c3d4-".repeat(600)}z, ${"en-US;q=0.1, ".repeat(400)}`;

  it("is read as the languages it names, private use and all past its first 512 characters left out: feed, roster and stream", async () => {
    expect(languageRequest(undefined, hostile)?.ranges).toEqual(["pt", "en-US"]);
    for (const path of [feed("HO-AUR-0051"), "/api/v3/content/HO-AUR/properties", "/api/v3/content/HO-AUR/faq.ndjson"]) {
      const asked = await get(path, UNCOUNTED, { "Accept-Language": hostile });
      const plain = await get(path, UNCOUNTED, { "Accept-Language": "pt, en-US;q=0.1" });
      expect(asked.status, path).toBe(200);
      expect(asked.headers.get("ETag"), path).toBe(plain.headers.get("ETag"));
      expect(await asked.text(), path).toBe(await plain.text());
    }
  });

  it("keys the caches by the ranges read: the same short key as the header they come to", () => {
    const key = (ranges: readonly string[] | null) =>
      faqCacheKey(API, "HO-AUR-0051", NO_FLAGS, { maxEntities: 1000, maxBytes: 10 * 1024 * 1024 }, "v1", ranges);
    expect(key(languageRequest(undefined, hostile)!.ranges)).toBe(key(["pt", "en-US"]));
  });
});

describe("bulk @graph, roster and brand stream", () => {
  it("serves each page of a brand's @graph in the language lookup picks for it, Content-Language listing them all", async () => {
    const res = await get("/api/v3/content/HO-AUR/faq.json?lang=pt-BR", UNCOUNTED);
    const graph = await res.json<{ "@graph": (Page & { about: { identifier: string } })[] }>();
    const byId = new Map(graph["@graph"].map((p) => [p.about.identifier, p]));
    expect(byId.get("HO-AUR-0051")!.inLanguage).toBe("pt");
    expect(byId.get("HO-AUR-0051")!.about.name).toBe("Aurora Lisboa Old Town");
    expect(byId.get("HO-AUR-0001")!.inLanguage).toBe("en");
    expect(byId.get("HO-AUR")!.inLanguage).toBe("en");
    expect(res.headers.get("Content-Language")).toBe("en, pt");
    const plain = await (await get("/api/v3/content/HO-AUR/faq.json", UNCOUNTED)).text();
    expect(plain).not.toContain("inLanguage");
  });

  it("names the roster's properties in the language asked for, only when asked", async () => {
    const names = async (headers: Record<string, string>) => {
      const res = await get("/api/v3/content/HO-AUR/properties", UNCOUNTED, headers);
      const body = await res.json<{ properties: { name: string; serviceId: string }[] }>();
      return { res, byId: new Map(body.properties.map((p) => [p.serviceId, p.name])), order: body.properties.map((p) => p.serviceId) };
    };
    const plain = await names({});
    const french = await names({ "Accept-Language": "fr-CA" });
    expect(plain.byId.get("HO-AUR-0051")).toBe("Aurora Lisbon Old Town");
    expect(french.byId.get("HO-AUR-0051")).toBe("Aurora Lisbonne Old Town");
    expect(french.byId.get("HO-AUR-0041")).toBe("Aurora Genève Riverside");
    expect(french.byId.get("HO-AUR-0001")).toBe("Aurora Lisbon Riverside");
    expect(french.order).toEqual(plain.order);
    expect(french.res.headers.get("Content-Language")).toBe("fr");
    expect(plain.res.headers.get("Content-Language")).toBeNull();
    expect(french.res.headers.get("ETag")).not.toBe(plain.res.headers.get("ETag"));
    expect(french.res.headers.get("Vary")).toBe("X-API-Key, Authorization, Accept-Language");
  });

  it("streams a brand in the language asked for: each line its entity's own feed in that language, with its ETag", async () => {
    const res = await get("/api/v3/content/HO-AUR/faq.ndjson?lang=es", UNCOUNTED);
    expect(res.headers.get("Content-Language")).toBe("es, en");
    expect(res.headers.get("Vary")).toBe("X-API-Key, Authorization, Accept-Language");
    const lines = await streamLines(res);
    const line = lines.find((l) => l.entityId === "HO-AUR-0058")!;
    const own = await get(feed("HO-AUR-0058", "?lang=es"), UNCOUNTED);
    expect(line.etag).toBe(own.headers.get("ETag"));
    expect(line.faqPage).toEqual(await own.json());
    expect((line.faqPage as Page).inLanguage).toBe("es");
  });

  it("gives the stream one ETag per language, keeps the default's, and answers 304 per language", async () => {
    const etag = async (headers: Record<string, string> = {}, query = "") =>
      (await get(`/api/v3/content/HO-AUR/faq.ndjson${query}`, UNCOUNTED, headers)).headers.get("ETag")!;
    const [plain, spanish, german] = [await etag(), await etag({}, "?lang=es"), await etag({ "Accept-Language": "de" })];
    expect(new Set([plain, spanish, german]).size).toBe(3);
    expect(await etag({ "Accept-Language": "" })).toBe(plain);
    const notModified = await get("/api/v3/content/HO-AUR/faq.ndjson", UNCOUNTED, { "Accept-Language": "de", "If-None-Match": german });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("Content-Language")).toBe("de, en");
    expect((await get("/api/v3/content/HO-AUR/faq.ndjson?lang=es", UNCOUNTED, { "If-None-Match": german })).status).toBe(200);
  });
});

describe("OpenAPI", () => {
  it("documents lang, Accept-Language, inLanguage, Content-Language and Vary on the feed, the roster and the stream", async () => {
    const doc = await (
      await get("/api/v3/openapi.json", null)
    ).json<{
      paths: Record<string, { get: { parameters: { name: string; in: string }[]; responses: Record<string, { headers?: object }> } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    }>();
    for (const path of [
      "/api/v3/content/{entityId}/faq.json",
      "/api/v3/content/{brandId}/properties",
      "/api/v3/content/{brandId}/faq.ndjson",
    ]) {
      const op = doc.paths[path]!.get;
      expect(
        op.parameters.some((p) => p.in === "query" && p.name === "lang"),
        path,
      ).toBe(true);
      expect(
        op.parameters.some((p) => p.in === "header" && p.name.toLowerCase() === "accept-language"),
        path,
      ).toBe(true);
      expect(op.responses["200"]!.headers, path).toHaveProperty("Content-Language");
      expect(op.responses["400"], path).toBeDefined();
    }
    expect(doc.components.schemas.FAQPage!.properties).toHaveProperty("inLanguage");
    expect(doc.components.schemas.Question!.properties).toHaveProperty("inLanguage");
  });
});
