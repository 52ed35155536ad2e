import {
  entityStatement,
  propertyCountStatement,
  rosterStatement,
  type EntityKind,
  type EntityRow,
  type RosterRow,
} from "../storage/entities";
import { faqsStatement, groupByEntity, listEntityFaqPage, type FaqRow } from "../storage/faqs";
import type { D1Reader } from "../storage/reader";
import { contentError, FALLBACK_URL_PATTERN } from "./errors";
import type { BrandPropertiesResponse, FaqFlags, FaqPage } from "./schemas";

/** Builders of the content API's bodies. Each returns the exact serialized bytes, so equal data gives equal ETags. */

/**
 * JSON whose `<`, `>`, `&` (and U+2028/U+2029) are written as `\u` escapes: the same JSON value, but a
 * partner may paste it into `<script type="application/ld+json">` and an answer containing `</script>`
 * or `<!--` cannot end the element early.
 */
export const embeddableJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const ABOUT_TYPE: Record<EntityKind, FaqPage["about"]["@type"]> = {
  property: "Hotel",
  brand: "Brand",
  destination: "Organization",
  airport: "Airport",
};

export interface GraphLimits {
  maxEntities: number;
  maxBytes: number;
}

type PageEntity = Pick<EntityRow, "id" | "kind" | "name" | "property_id" | "url" | "updated_at">;

/** What a feed is built from, read in one D1 round trip: the entity, its own FAQs, and (for a brand) its property count. */
export interface FeedSource {
  entity: EntityRow;
  faqs: FaqRow[];
  propertyCount: number;
}

export async function readFeedSource(db: D1Reader, entityId: string): Promise<FeedSource | null> {
  const [entity, faqs, count] = await db.batch([
    entityStatement(db, entityId),
    faqsStatement(db, entityId),
    propertyCountStatement(db, entityId),
  ]);
  const row = (entity as D1Result<EntityRow>).results[0];
  if (!row) return null;
  return { entity: row, faqs: (faqs as D1Result<FaqRow>).results, propertyCount: (count as D1Result<{ n: number }>).results[0]?.n ?? 0 };
}

/** A brand and its roster, in one D1 round trip; null when `brandId` names no brand. */
export async function readRoster(db: D1Reader, brandId: string): Promise<{ brand: EntityRow; properties: RosterRow[] } | null> {
  const [brand, roster] = await db.batch([entityStatement(db, brandId), rosterStatement(db, brandId)]);
  const row = (brand as D1Result<EntityRow>).results[0];
  return row?.kind === "brand" ? { brand: row, properties: (roster as D1Result<RosterRow>).results } : null;
}

export function buildRoster(brand: EntityRow, properties: RosterRow[]): string {
  const body: BrandPropertiesResponse = {
    brandId: brand.id,
    brandName: brand.name,
    count: properties.length,
    properties: properties.map((p) => ({ name: p.name, serviceId: p.id, propertyId: p.property_id })),
  };
  return embeddableJson(body);
}

function faqPage(entity: PageEntity, faqs: FaqRow[], flags: FaqFlags, apiOrigin: string): FaqPage {
  return {
    "@type": "FAQPage",
    "@id": `${apiOrigin}/api/v3/content/${encodeURIComponent(entity.id)}/faq.json`,
    about: {
      "@type": ABOUT_TYPE[entity.kind],
      identifier: entity.id,
      name: entity.name,
      ...(entity.url === null ? {} : { url: entity.url }),
      ...(flags.includePropertyId ? { propertyId: entity.property_id } : {}),
    },
    dateModified: entity.updated_at,
    mainEntity: faqs.map((faq) => ({
      "@type": "Question",
      name: faq.question,
      acceptedAnswer: { "@type": "Answer", text: faq.answer },
      ...(flags.includeCategory ? { category: faq.category } : {}),
    })),
  };
}

/** The schema.org FAQPage of one entity. */
export function buildEntityFeed({ entity, faqs }: FeedSource, flags: FaqFlags, apiOrigin: string): string {
  return embeddableJson({ "@context": "https://schema.org", ...faqPage(entity, faqs, flags, apiOrigin) });
}

const PROPERTY_PAGE_SIZE = 100;
const utf8Length = (() => {
  const encoder = new TextEncoder();
  return (text: string) => encoder.encode(text).byteLength;
})();

/**
 * The bulk `@graph` of a brand: its own FAQPage when it has FAQs, then one per property by ID.
 * The entity guard runs on a count before anything is built; the byte guard stops building as soon
 * as the budget is passed, so an oversized brand never costs a whole body.
 */
export async function buildBrandGraph(
  db: D1Reader,
  { entity: brand, faqs: brandFaqs, propertyCount }: FeedSource,
  flags: FaqFlags,
  apiOrigin: string,
  limits: GraphLimits,
  path: string,
): Promise<string | Response> {
  const entityCount = propertyCount + (brandFaqs.length > 0 ? 1 : 0);
  if (entityCount > limits.maxEntities) {
    return payloadTooLarge(
      `The @graph of ${brand.id} would hold ${entityCount} entities; the limit is ${limits.maxEntities}. Fetch each entity's feed instead.`,
      path,
    );
  }

  const head = '{"@context":"https://schema.org","@graph":[';
  const tail = "]}";
  const parts: string[] = [];
  let bytes = utf8Length(head) + utf8Length(tail);
  const append = (page: FaqPage): boolean => {
    const json = embeddableJson(page);
    bytes += utf8Length(json) + (parts.length > 0 ? 1 : 0);
    parts.push(json);
    return bytes <= limits.maxBytes;
  };
  const overBudget = () =>
    payloadTooLarge(`The @graph of ${brand.id} exceeds the limit of ${limits.maxBytes} bytes. Fetch each entity's feed instead.`, path);

  if (brandFaqs.length > 0 && !append(faqPage(brand, brandFaqs, flags, apiOrigin))) return overBudget();

  for (let afterId = ""; ;) {
    const pages = groupByEntity(await listEntityFaqPage(db, { brandId: brand.id, afterId, limit: PROPERTY_PAGE_SIZE }));
    for (const { entity, faqs } of pages) if (!append(faqPage(entity, faqs, flags, apiOrigin))) return overBudget();
    if (pages.length < PROPERTY_PAGE_SIZE) break;
    afterId = pages[pages.length - 1]!.entity.id;
  }
  return head + parts.join(",") + tail;
}

const payloadTooLarge = (message: string, path: string): Response =>
  contentError(413, message, path, undefined, { fallbackUrlPattern: FALLBACK_URL_PATTERN });
