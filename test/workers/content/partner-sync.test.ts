import { describe, expect, it } from "vitest";
import type { ContentRecord } from "../../../src/catalogue/records";
import { importRecords, newApiKey } from "../support/admin";
import { get } from "../support/content";
import { brandRecords, changesPath, rawFaqPage, streamLines, UNCOUNTED, withNewAnswer, type FeedPage } from "../support/partner-sync";

/**
 * A partner that keeps a whole brand, as docs/partner-sync.md tells it to: the stream once, then the change
 * feed, fetching each changed entity's feed, or the stream again when many changed. It counts its requests.
 */
class Partner {
  readonly pages = new Map<string, string>();
  cursor = "";
  requests = 0;

  constructor(
    readonly key: string,
    readonly brandId: string,
    readonly restreamAbove = 10,
  ) {}

  private async call(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const res = await get(path, this.key, headers);
    this.requests++;
    if (res.status >= 400) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  }

  async fullSync(): Promise<void> {
    const res = await this.call(`/api/v3/content/${this.brandId}/faq.ndjson`);
    this.pages.clear();
    for (const line of await streamLines(res)) this.pages.set(line.entityId, rawFaqPage(line));
    this.cursor = res.headers.get("X-Changes-Cursor")!;
  }

  /** One poll: every page of changes since the cursor, then what they name. */
  async poll(): Promise<number> {
    const changes: FeedPage["changes"] = [];
    for (;;) {
      const page = await (await this.call(changesPath({ cursor: this.cursor, brandId: this.brandId }))).json<FeedPage>();
      changes.push(...page.changes);
      this.cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    if (changes.length > this.restreamAbove || changes.some((c) => c.kind === "brand")) {
      await this.fullSync();
      return changes.length;
    }
    for (const change of changes) {
      if (change.change === "removed") this.pages.delete(change.entityId);
      else this.pages.set(change.entityId, await (await this.call(new URL(change.url).pathname)).text());
    }
    return changes.length;
  }
}

/** What the brand holds now, read with a key whose use is not counted. */
async function truth(brandId: string): Promise<Map<string, string>> {
  const lines = await streamLines(await get(`/api/v3/content/${brandId}/faq.ndjson`, UNCOUNTED));
  return new Map(lines.map((line) => [line.entityId, rawFaqPage(line)]));
}

const boreal = (): ContentRecord[] => brandRecords("HO-BOR");

describe("a partner on the default key keeps HO-BOR in sync within its hour", () => {
  it("takes HO-BOR in one request, then follows changes and removals with a few requests each", async () => {
    const { key } = await newApiKey({ partner: "Sync Partner" });
    const other = await newApiKey({ partner: "Another Partner" });
    const otherRemaining = async () =>
      Number((await get("/api/v3/content/HO-CAS/properties", other.key)).headers.get("X-RateLimit-Remaining"));
    const otherBefore = await otherRemaining();
    const partner = new Partner(key, "HO-BOR");

    await partner.fullSync();
    expect(partner.pages.size).toBe(1201);
    expect(partner.requests).toBe(1);

    // A few properties change and one leaves the brand: one poll and one request per changed property.
    const records = boreal();
    const few = records
      .filter((r) => r.id !== "HO-BOR-1200")
      .map((r) => (["HO-BOR-0001", "HO-BOR-0500", "HO-BOR-0999"].includes(r.id) ? withNewAnswer(r, "Changed a little.") : r));
    await importRecords(few);
    expect(await partner.poll()).toBe(4);
    expect(partner.requests).toBe(1 + 1 + 3);
    expect(partner.pages.has("HO-BOR-1200")).toBe(false);
    expect(partner.pages).toEqual(await truth("HO-BOR"));

    // Every property changes: two pages of the feed and the stream again, not 1,199 requests.
    await importRecords(few.map((r) => (r.kind === "property" ? withNewAnswer(r, "Changed everywhere.") : r)));
    expect(await partner.poll()).toBe(1199);
    expect(partner.requests).toBe(5 + 2 + 1);
    expect(partner.pages).toEqual(await truth("HO-BOR"));

    // The rest of the hour: a poll a minute finds nothing and costs one request each.
    for (let minute = 0; minute < 60; minute++) expect(await partner.poll()).toBe(0);
    // A conditional stream of the whole brand is one request too.
    const check = await get("/api/v3/content/HO-BOR/faq.ndjson", key, {
      "If-None-Match": (await get("/api/v3/content/HO-BOR/faq.ndjson", key)).headers.get("ETag")!,
    });
    expect(check.status).toBe(304);
    partner.requests += 2;

    expect(partner.requests).toBe(70);
    expect(Number(check.headers.get("X-RateLimit-Remaining"))).toBe(1000 - partner.requests);
    // Keys are counted apart, from both sides: the other partner's hour is untouched, and its request cost this one nothing.
    expect(await otherRemaining()).toBe(otherBefore - 1);
    expect(Number((await get("/api/v3/content/HO-CAS/properties", key)).headers.get("X-RateLimit-Remaining"))).toBe(1000 - 71);
  });
});
