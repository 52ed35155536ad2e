import { buildDemoContent } from "../../../src/fixture/demo";
import type { ContentRecord } from "../../../src/catalogue/records";
import { get } from "./content";

/** The key of reads whose cost a test does not count (10,000,000 an hour). */
export const UNCOUNTED = "bench-key";

/** Fixture records (as an import takes them) of the entities `ids` names. */
export function fixtureRecords(ids: string[]): ContentRecord[] {
  const wanted = new Set(ids);
  return buildDemoContent().filter((record) => wanted.has(record.id));
}

/** Every fixture record of a brand: the brand, then its properties. */
export const brandRecords = (brandId: string): ContentRecord[] =>
  buildDemoContent().filter((record) => record.id === brandId || (record.kind === "property" && record.brandId === brandId));

/** The record with its first answer rewritten: a change an import writes. */
export const withNewAnswer = (record: ContentRecord, answer: string): ContentRecord => ({
  ...record,
  faqs: record.faqs.map((faq, i) => (i === 0 ? { ...faq, answer } : faq)),
});

/** A brand of `count` properties named `<brandId>-0001`…, each with two FAQs: a fresh brand a test may change at will. */
export function syntheticBrand(brandId: string, count: number, answer = "Yes."): ContentRecord[] {
  const properties = Array.from({ length: count }, (_, i) => {
    const id = `${brandId}-${String(i + 1).padStart(4, "0")}`;
    return {
      id,
      kind: "property" as const,
      brandId,
      name: `${brandId} hotel ${i + 1}`,
      propertyId: i + 1,
      faqs: [
        { category: "Parking", question: `Is there parking at ${id}?`, answer },
        { category: "Pets", question: "Are pets allowed?", answer: "Small dogs are welcome." },
      ],
    };
  });
  return [{ id: brandId, kind: "brand", name: `${brandId} brand`, faqs: [] }, ...properties];
}

export interface FeedPage {
  changes: { entityId: string; kind: string; brandId: string | null; change: string; changedAt: string; url: string }[];
  nextCursor: string;
  hasMore: boolean;
}

const query = (params: Record<string, string | number | undefined>) => {
  const defined = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return defined.length === 0 ? "" : `?${new URLSearchParams(defined.map(([k, v]) => [k, String(v)])).toString()}`;
};

export const changesPath = (params: { cursor?: string; brandId?: string; limit?: number } = {}): string =>
  `/api/v3/content/changes${query(params)}`;

/** One page of the change feed (HTTP 200 required). */
export async function feedPage(params: { cursor?: string; brandId?: string; limit?: number } = {}, key = UNCOUNTED): Promise<FeedPage> {
  const res = await get(changesPath(params), key);
  if (res.status !== 200) throw new Error(`${changesPath(params)}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every page of the feed from `cursor` on: the changes, the cursor after them and how many requests it took. */
export async function followFeed(
  params: { cursor?: string; brandId?: string; limit?: number },
  key = UNCOUNTED,
): Promise<{ changes: FeedPage["changes"]; cursor: string; requests: number }> {
  const changes: FeedPage["changes"] = [];
  for (let cursor = params.cursor, requests = 1; ; requests++) {
    const page = await feedPage({ ...params, cursor }, key);
    changes.push(...page.changes);
    if (!page.hasMore) return { changes, cursor: page.nextCursor, requests };
    cursor = page.nextCursor;
  }
}

export interface StreamLine {
  entityId: string;
  etag: string;
  faqPage: Record<string, unknown>;
  /** The line as sent, without its newline. */
  raw: string;
}

/** The bytes of a response as UTF-8 text (NDJSON is text; workerd's .text() warns on its media type). */
export const bodyText = async (res: Response): Promise<string> => new TextDecoder().decode(await res.arrayBuffer());

/** A brand's stream split into its lines. */
export async function streamLines(res: Response): Promise<StreamLine[]> {
  const text = await bodyText(res);
  if (!text.endsWith("\n")) throw new Error("the stream does not end with a newline");
  return text
    .slice(0, -1)
    .split("\n")
    .map((raw) => ({ ...(JSON.parse(raw) as Omit<StreamLine, "raw">), raw }));
}

/** The `faqPage` member of a line, as the bytes it was sent as. */
export const rawFaqPage = (line: StreamLine): string => {
  const start = line.raw.indexOf(',"faqPage":') + ',"faqPage":'.length;
  return line.raw.slice(start, -1);
};
