import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { encodeCursor, REMOVALS_KEPT_DAYS } from "../../../src/catalogue/changes";
import worker from "../../../src/index";
import { admin, adminJson, importRecords, newApiKey } from "../support/admin";
import { API, expectErrorResponse, get, sha256Hex16 } from "../support/content";
import { changesPath, feedPage, fixtureRecords, followFeed, syntheticBrand, UNCOUNTED, withNewAnswer } from "../support/partner-sync";

/** The feed's latest position, from a last page of one brand's changes. */
const latest = async (brandId = "HO-CAS") => (await followFeed({ brandId })).cursor;

/** The daily upkeep as the cron trigger runs it, `days` from now. */
async function upkeepIn(days: number): Promise<void> {
  const ctx = createExecutionContext();
  const scheduledTime = Date.now() + days * 86_400_000;
  void worker.scheduled(createScheduledController({ scheduledTime, cron: "17 3 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("GET /api/v3/content/changes", () => {
  it("lists every entity of a brand once, oldest first, in pages of `limit` joined by nextCursor", async () => {
    const pages = [];
    for (let cursor: string | undefined; ;) {
      const page = await feedPage({ brandId: "HO-AUR", limit: 50, cursor });
      pages.push(page);
      if (!page.hasMore) break;
      cursor = page.nextCursor;
    }
    expect(pages.map((p) => p.changes.length)).toEqual([50, 50, 21]);
    const changes = pages.flatMap((p) => p.changes);
    expect(new Set(changes.map((c) => c.entityId)).size).toBe(121);
    expect(changes.every((c) => c.change === "upserted" && c.brandId === "HO-AUR")).toBe(true);
    expect(changes.map((c) => c.changedAt)).toEqual(changes.map((c) => c.changedAt).sort());
    expect(changes.find((c) => c.entityId === "HO-AUR")).toEqual({
      entityId: "HO-AUR",
      kind: "brand",
      brandId: "HO-AUR",
      change: "upserted",
      changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      url: `${API}/api/v3/content/HO-AUR/faq.ndjson`,
    });
    expect(changes.find((c) => c.entityId === "HO-AUR-0007")?.url).toBe(`${API}/api/v3/content/HO-AUR-0007/faq.json`);
  });

  it("lists a changed entity again after the cursor, once, in its latest state and in the order of the last changes", async () => {
    const cursor = await latest("HO-AUR");
    const [first, second] = fixtureRecords(["HO-AUR-0003", "HO-AUR-0004"]);
    await importRecords([withNewAnswer(first!, "Changed once."), withNewAnswer(second!, "Changed once.")]);
    await importRecords([withNewAnswer(first!, "Changed twice.")]);
    const { changes } = await followFeed({ cursor, brandId: "HO-AUR" });
    expect(changes.map((c) => [c.entityId, c.change])).toEqual([
      ["HO-AUR-0004", "upserted"],
      ["HO-AUR-0003", "upserted"],
    ]);
  });

  it("adds nothing for an import that changes nothing, and answers the same page with the same ETag", async () => {
    await importRecords(syntheticBrand("HO-SAME", 3));
    const cursor = await latest("HO-SAME");
    const before = await get(changesPath({ cursor, brandId: "HO-SAME" }), UNCOUNTED);
    const etag = before.headers.get("ETag")!;
    expect(await before.json()).toEqual({ changes: [], nextCursor: cursor, hasMore: false });
    const result = await importRecords(syntheticBrand("HO-SAME", 3));
    expect(result.summary.entities).toMatchObject({ added: 0, changed: 0, removed: 0, unchanged: 4 });
    const after = await get(changesPath({ cursor, brandId: "HO-SAME" }), UNCOUNTED, { "If-None-Match": etag });
    expect(after.status).toBe(304);
    expect(after.headers.get("ETag")).toBe(etag);
    // Nor anything in the whole feed.
    expect((await feedPage({ cursor })).changes).toEqual([]);
  });

  it("adds nothing for what search reindex rewrites (name keys), which no feed shows", async () => {
    const cursor = await latest();
    await env.DB.prepare("UPDATE entities SET name_key = 'stale' WHERE id IN ('HO-AUR-0011', 'DMO-LIS')").run();
    expect((await adminJson("POST", "/search/reindex", { after: "" })).entities).toBeGreaterThanOrEqual(2);
    expect((await feedPage({ cursor })).changes).toEqual([]);
  });

  it("keeps removals as tombstones: a property dropped from its brand's roster, a brand removed with its properties", async () => {
    await importRecords(syntheticBrand("HO-GONE", 3));
    const cursor = await latest("HO-GONE");
    const [brand, p1, p2] = syntheticBrand("HO-GONE", 3);
    await importRecords([brand!, p1!, p2!]); // the brand's roster without HO-GONE-0003
    expect((await followFeed({ cursor, brandId: "HO-GONE" })).changes).toEqual([
      expect.objectContaining({ entityId: "HO-GONE-0003", kind: "property", brandId: "HO-GONE", change: "removed" }),
    ]);
    const afterRoster = await latest("HO-GONE");
    expect((await admin("DELETE", "/content/entities/HO-GONE")).status).toBe(204);
    const removed = (await followFeed({ cursor: afterRoster, brandId: "HO-GONE" })).changes;
    expect(removed.map((c) => [c.entityId, c.change]).sort()).toEqual([
      ["HO-GONE", "removed"],
      ["HO-GONE-0001", "removed"],
      ["HO-GONE-0002", "removed"],
    ]);
    expect(removed.find((c) => c.entityId === "HO-GONE")?.url).toBe(`${API}/api/v3/content/HO-GONE/faq.ndjson`);
    // The brand is gone but its tombstones are not: the feed still answers for it.
    expect((await get("/api/v3/content/HO-GONE/properties", UNCOUNTED)).status).toBe(404);
    const all = (await feedPage({ brandId: "HO-GONE" })).changes;
    expect(all.map((c) => c.change)).toEqual(["removed", "removed", "removed", "removed"]);
  });

  it("tells the old brand that a property moved away, and the new brand that it arrived", async () => {
    await importRecords([...syntheticBrand("HO-OLD", 2), ...syntheticBrand("HO-NEW", 1)]);
    const [oldCursor, newCursor] = [await latest("HO-OLD"), await latest("HO-NEW")];
    const moved = { ...syntheticBrand("HO-OLD", 2)[2]!, brandId: "HO-NEW" };
    await importRecords([moved]);
    expect((await followFeed({ cursor: oldCursor, brandId: "HO-OLD" })).changes).toEqual([
      expect.objectContaining({ entityId: "HO-OLD-0002", brandId: "HO-OLD", change: "removed" }),
    ]);
    expect((await followFeed({ cursor: newCursor, brandId: "HO-NEW" })).changes).toEqual([
      expect.objectContaining({ entityId: "HO-OLD-0002", brandId: "HO-NEW", change: "upserted" }),
    ]);
  });

  it("filters by brand: a brand's changes never appear in another brand's feed, from both sides", async () => {
    const [aurora, boreal] = [await latest("HO-AUR"), await latest("HO-BOR")];
    await importRecords([
      withNewAnswer(fixtureRecords(["HO-AUR-0010"])[0]!, "Aurora only."),
      withNewAnswer(fixtureRecords(["HO-BOR-0010"])[0]!, "Boreal only."),
    ]);
    expect((await followFeed({ cursor: aurora, brandId: "HO-AUR" })).changes.map((c) => c.entityId)).toEqual(["HO-AUR-0010"]);
    expect((await followFeed({ cursor: boreal, brandId: "HO-BOR" })).changes.map((c) => c.entityId)).toEqual(["HO-BOR-0010"]);
    // Without a brand, both; destinations and airports have no brand.
    const everything = await followFeed({});
    expect(everything.changes.find((c) => c.entityId === "DMO-LIS")).toMatchObject({ kind: "destination", brandId: null });
  });

  it("answers a brand the feed has never held with 404, and a brandId that cannot be one with 400", async () => {
    for (const brandId of ["HO-NOPE", "HO-AUR-0001"]) {
      const res = await get(changesPath({ brandId }), UNCOUNTED);
      await expectErrorResponse(res, 404, "Not Found", "/api/v3/content/changes");
    }
    for (const path of [
      changesPath({ brandId: "DMO-LIS" }),
      changesPath({ cursor: "not-a-cursor" }),
      changesPath({ limit: 0 }),
      changesPath({ limit: 1001 }),
      "/api/v3/content/changes?limit=ten",
    ]) {
      const body = await expectErrorResponse(await get(path, UNCOUNTED), 400, "Bad Request", "/api/v3/content/changes");
      expect(body.message, path).toMatch(/^Invalid query: (brandId|cursor|limit)/);
    }
  });

  it("carries the weak ETag of its body, no-cache, and honours If-None-Match", async () => {
    const res = await get(changesPath({ brandId: "HO-CAS" }), UNCOUNTED);
    const etag = res.headers.get("ETag")!;
    expect(etag).toBe(`W/"${await sha256Hex16(await res.arrayBuffer())}"`);
    expect(res.headers.get("Cache-Control")).toBe("no-cache");
    expect(res.headers.get("Vary")).toBe("X-API-Key, Authorization");
    const again = await get(changesPath({ brandId: "HO-CAS" }), UNCOUNTED, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("needs an API key and counts one request per page, 304s included", async () => {
    await expectErrorResponse(await get(changesPath(), null), 401, "Unauthorized", "/api/v3/content/changes");
    const { key } = await newApiKey({ partner: "Feed Partner" });
    const first = await get(changesPath({ limit: 1 }), key);
    expect(first.headers.get("X-RateLimit-Remaining")).toBe("999");
    const second = await get(changesPath({ limit: 1 }), key, { "If-None-Match": first.headers.get("ETag")! });
    expect(second.status).toBe(304);
    expect(second.headers.get("X-RateLimit-Remaining")).toBe("998");
  });
});

describe("cursors that cannot be continued from answer 410 with how to resynchronise", () => {
  it(`keeps removals ${REMOVALS_KEPT_DAYS} days; after the upkeep deletes them, a cursor from before them is gone`, async () => {
    await importRecords(syntheticBrand("HO-OLDIE", 2));
    const beforeRemoval = await latest("HO-OLDIE");
    expect((await admin("DELETE", "/content/entities/HO-OLDIE-0002")).status).toBe(204);
    const afterRemoval = await latest("HO-OLDIE");

    await upkeepIn(REMOVALS_KEPT_DAYS - 1);
    expect((await followFeed({ cursor: beforeRemoval, brandId: "HO-OLDIE" })).changes).toEqual([
      expect.objectContaining({ entityId: "HO-OLDIE-0002", change: "removed" }),
    ]);

    await upkeepIn(REMOVALS_KEPT_DAYS + 1);
    const gone = await get(changesPath({ cursor: beforeRemoval, brandId: "HO-OLDIE" }), UNCOUNTED);
    const body = await expectErrorResponse(gone, 410, "Gone", "/api/v3/content/changes");
    expect(body.message).toMatch(
      /older than the 30 days of removals.*Resynchronise: fetch GET \/api\/v3\/content\/\{brandId\}\/faq\.ndjson/,
    );
    // A cursor after the removal, and the start of the feed, still work; the brand's current entities are all there.
    expect((await feedPage({ cursor: afterRemoval, brandId: "HO-OLDIE" })).changes).toEqual([]);
    expect((await followFeed({ brandId: "HO-OLDIE" })).changes.map((c) => c.entityId).sort()).toEqual(["HO-OLDIE", "HO-OLDIE-0001"]);
  });

  it("moves a quiet brand's cursor along, so that other brands' deleted removals never make it stale", async () => {
    const quiet = await latest("HO-CAS");
    await importRecords(syntheticBrand("HO-BUSY", 2));
    expect((await admin("DELETE", "/content/entities/HO-BUSY")).status).toBe(204);
    const polled = (await feedPage({ cursor: quiet, brandId: "HO-CAS" })).nextCursor;
    await upkeepIn(REMOVALS_KEPT_DAYS + 1);
    expect((await get(changesPath({ cursor: quiet, brandId: "HO-CAS" }), UNCOUNTED)).status).toBe(410);
    expect((await get(changesPath({ cursor: polled, brandId: "HO-CAS" }), UNCOUNTED)).status).toBe(200);
  });

  it("refuses a cursor of another database's feed, and one ahead of this feed", async () => {
    const { feed_id, high_water } = (await env.DB.prepare(
      "SELECT feed_id, (SELECT max(seq) FROM content_changes) AS high_water FROM content_change_feed",
    ).first<{ feed_id: string; high_water: number }>())!;
    for (const [cursor, reason] of [
      [encodeCursor({ feedId: "0123456789abcdef", seq: 1 }), /another database's feed/],
      [encodeCursor({ feedId: feed_id, seq: high_water + 1000 }), /ahead of the feed/],
    ] as const) {
      const body = await expectErrorResponse(await get(changesPath({ cursor }), UNCOUNTED), 410, "Gone", "/api/v3/content/changes");
      expect(body.message).toMatch(reason);
    }
  });
});

describe("the content API's OpenAPI document", () => {
  it("describes the change feed, the brand stream and the webhook event from the same schemas", async () => {
    const doc = await (await get("/api/v3/openapi.json")).json<any>();
    const feed = doc.paths["/api/v3/content/changes"].get;
    expect(feed.parameters.map((p: any) => p.name).sort()).toEqual(["brandId", "cursor", "if-none-match", "limit"]);
    expect(Object.keys(feed.responses).sort()).toEqual(["200", "304", "400", "401", "404", "410", "429", "503"]);
    expect(doc.components.schemas.ChangesResponse.required).toEqual(["changes", "nextCursor", "hasMore"]);
    const stream = doc.paths["/api/v3/content/{brandId}/faq.ndjson"].get;
    expect(Object.keys(stream.responses[200].content)).toEqual(["application/x-ndjson"]);
    expect(stream.responses[200].headers["X-Changes-Cursor"]).toBeDefined();
    expect(doc.components.schemas.FAQStreamLine.required).toEqual(["entityId", "etag", "faqPage"]);
    expect(doc.webhooks["content.changed"].post.requestBody.content["application/json"].schema.$ref).toBe(
      "#/components/schemas/ContentChangedEvent",
    );
  });
});
