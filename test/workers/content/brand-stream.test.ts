import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { importRecords, newApiKey } from "../support/admin";
import { counting, fetchWith } from "../support/app";
import { contentRequest, expectErrorResponse, get } from "../support/content";
import {
  bodyText,
  feedPage,
  fixtureRecords,
  rawFaqPage,
  streamLines,
  syntheticBrand,
  UNCOUNTED,
  withNewAnswer,
} from "../support/partner-sync";

const WEAK_ETAG = /^W\/"[0-9a-f]{16}"$/;
const stream = (brandId: string, query = "") => `/api/v3/content/${brandId}/faq.ndjson${query}`;

/** The stream answered with the D1 binding recorded: what SQL it prepared. */
async function recordedStream(path: string, headers: Record<string, string> = {}) {
  const db = counting(env.DB, []);
  const res = await fetchWith(contentRequest(path, UNCOUNTED, headers), { DB: db.binding });
  return { res, statements: db.statements };
}

describe("GET /api/v3/content/{brandId}/faq.ndjson", () => {
  it("streams all of HO-BOR (the brand and its 1,200 properties) in one request, counted as one", async () => {
    const { key } = await newApiKey({ partner: "Stream Partner" });
    const before = Number((await get("/api/v3/content/HO-CAS/properties", key)).headers.get("X-RateLimit-Remaining"));
    const res = await get(stream("HO-BOR"), key);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("X-RateLimit-Remaining"))).toBe(before - 1);
    expect(res.headers.get("Content-Type")).toBe("application/x-ndjson; charset=utf-8");
    expect(res.headers.get("ETag")).toMatch(WEAK_ETAG);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(res.headers.get("Vary")).toBe("X-API-Key, Authorization, Accept-Language");
    const lines = await streamLines(res);
    expect(lines).toHaveLength(1201);
    expect(lines[0]).toMatchObject({ entityId: "HO-BOR", faqPage: { about: { "@type": "Brand", identifier: "HO-BOR" } } });
    const properties = lines.slice(1).map((line) => line.entityId);
    expect(properties).toEqual(Array.from({ length: 1200 }, (_, i) => `HO-BOR-${String(i + 1).padStart(4, "0")}`));
    // SPEC's bulk @graph still refuses the brand.
    expect((await get("/api/v3/content/HO-BOR/faq.json", UNCOUNTED)).status).toBe(413);
  });

  it.each(["", "?includeCategory=true&includePropertyId=1"])(
    "gives each property byte for byte its own feed's body and ETag (flags %s)",
    async (flags) => {
      const lines = await streamLines(await get(stream("HO-AUR", flags), UNCOUNTED));
      expect(lines).toHaveLength(121);
      for (const line of lines.slice(1)) {
        const own = await get(`/api/v3/content/${line.entityId}/faq.json${flags}`, UNCOUNTED);
        expect(rawFaqPage(line), line.entityId).toBe(await own.text());
        expect(line.etag, line.entityId).toBe(own.headers.get("ETag"));
      }
      // The brand's own page is the first page of its @graph, with its own @context (as every entity's feed has).
      const graph = await (await get(`/api/v3/content/HO-AUR/faq.json${flags}`, UNCOUNTED)).text();
      const firstPage = graph.slice('{"@context":"https://schema.org","@graph":['.length, graph.indexOf(',{"@type":"FAQPage"'));
      expect(rawFaqPage(lines[0]!)).toBe(`{"@context":"https://schema.org",${firstPage.slice(1)}`);
    },
  );

  it("streams a brand without properties as its own line", async () => {
    const lines = await streamLines(await get(stream("HO-CAS"), UNCOUNTED));
    expect(lines.map((line) => line.entityId)).toEqual(["HO-CAS"]);
  });

  it("answers If-None-Match with 304 from the brand's state alone, reading no FAQ, whatever changes elsewhere", async () => {
    const first = await get(stream("HO-AUR"), UNCOUNTED);
    const etag = first.headers.get("ETag")!;
    const cursor = first.headers.get("X-Changes-Cursor")!;
    await first.arrayBuffer();
    // Another brand changes: the content version moves, HO-AUR's stream does not.
    await importRecords([withNewAnswer(fixtureRecords(["HO-BOR-0002"])[0]!, "Changed elsewhere.")]);
    const { res, statements } = await recordedStream(stream("HO-AUR"), { "If-None-Match": etag });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
    expect(res.headers.get("ETag")).toBe(etag);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(res.headers.get("X-Changes-Cursor")).not.toBe(cursor);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((sql) => /\bfaqs\b/.test(sql))).toEqual([]);
  });

  it("moves its ETag when the brand changes (a property changed, added or removed) and with the flags", async () => {
    await importRecords(syntheticBrand("HO-ETAG", 3));
    const etag = async (query = "") => {
      const res = await get(stream("HO-ETAG", query), UNCOUNTED);
      await res.arrayBuffer();
      return res.headers.get("ETag")!;
    };
    const seen = [await etag()];
    expect(await etag()).toBe(seen[0]);
    seen.push(await etag("?includeCategory=true"), await etag("?includePropertyId=true"));
    await importRecords([withNewAnswer(syntheticBrand("HO-ETAG", 3)[2]!, "Changed.")]);
    seen.push(await etag());
    await importRecords([{ ...syntheticBrand("HO-ETAG", 4)[4]! }]);
    seen.push(await etag());
    await importRecords(syntheticBrand("HO-ETAG", 2));
    seen.push(await etag());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("starts the change feed where the stream is: X-Changes-Cursor names what came after it", async () => {
    await importRecords(syntheticBrand("HO-CURSOR", 2));
    const res = await get(stream("HO-CURSOR"), UNCOUNTED);
    const cursor = res.headers.get("X-Changes-Cursor")!;
    await res.arrayBuffer();
    expect((await feedPage({ cursor, brandId: "HO-CURSOR" })).changes).toEqual([]);
    await importRecords([withNewAnswer(syntheticBrand("HO-CURSOR", 2)[1]!, "Later.")]);
    expect((await feedPage({ cursor, brandId: "HO-CURSOR" })).changes.map((c) => c.entityId)).toEqual(["HO-CURSOR-0001"]);
  });

  it("reads D1 only as the client reads: 100 properties at a time", async () => {
    const { res, statements } = await recordedStream(stream("HO-BOR"));
    const pageReads = () => statements.filter((sql) => sql.includes("LEFT JOIN faqs")).length;
    const reader = res.body!.getReader();
    await reader.read(); // the brand's own line
    await reader.read(); // the first 100 properties
    expect(pageReads()).toBe(1);
    await reader.cancel();
    expect(pageReads()).toBe(1);
  });

  it("answers 404 for what is not a hospitality brand and 400 for a malformed flag, in ErrorResponse", async () => {
    for (const id of ["HO-NOPE", "HO-AUR-0001", "DMO-LIS", "AIR-LIS"]) {
      await expectErrorResponse(await get(stream(id), UNCOUNTED), 404, "Not Found", stream(id));
    }
    await expectErrorResponse(await get(stream("HO-AUR", "?includeCategory=yes"), UNCOUNTED), 400, "Bad Request", stream("HO-AUR"));
    await expectErrorResponse(await get(stream("HO-AUR"), null), 401, "Unauthorized", stream("HO-AUR"));
  });

  it("ends every line with a newline and holds one JSON object per line", async () => {
    const text = await bodyText(await get(stream("HO-AUR"), UNCOUNTED));
    expect(
      text
        .split("\n")
        .slice(0, -1)
        .every((line) => JSON.parse(line).faqPage["@type"] === "FAQPage"),
    ).toBe(true);
  });
});
