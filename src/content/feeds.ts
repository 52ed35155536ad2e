import {
  entityStatement,
  propertyCountStatement,
  rosterStatement,
  type EntityKind,
  type EntityRow,
  type RosterRow,
} from "../storage/entities";
import {
  faqsStatement,
  groupByEntity,
  listEntityFaqPage,
  localizedFaqs,
  type FaqLanguageRow,
  type FaqTranslation,
  type LocalizedFaq,
} from "../storage/faqs";
import type { D1Reader } from "../storage/reader";
import type { LanguagePreference } from "../http/language-tags";
import { PayloadTooLarge, type LocalizedBody } from "./caching";
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

type PageEntity = Pick<EntityRow, "id" | "kind" | "name" | "property_id" | "url" | "updated_at" | "default_language" | "translated_names">;

/** What a feed is built from, read in one D1 round trip: the entity, its own FAQs, and (for a brand) its property count. */
export interface FeedSource {
  entity: EntityRow;
  faqs: LocalizedFaq[];
  propertyCount: number;
}

/**
 * The languages of a body built for a request that asked for some: each text is served in the language RFC 4647
 * lookup picks among those it exists in, else in its entity's default language, and the languages picked are
 * remembered in the order first used, for Content-Language.
 */
class ServedLanguages {
  private readonly served = new Set<string>();
  constructor(private readonly preference: LanguagePreference) {}

  pick(available: readonly string[], fallback: string): string {
    const language = this.preference.pick(available, fallback);
    this.served.add(language);
    return language;
  }

  /**
   * The entity's name in the language picked for it. A name is translated only where it differs, so one without a
   * translation there is its name in every language, and only a translated one adds its language to what was served.
   */
  name(entity: Pick<EntityRow, "name" | "default_language" | "translated_names">): string {
    const names = JSON.parse(entity.translated_names) as Record<string, string>;
    const language = this.preference.pick(Object.keys(names), entity.default_language);
    const name = names[language];
    if (name === undefined) return entity.name;
    this.served.add(language);
    return name;
  }

  /** `body` with the languages served, or `unlessAny` when no text was in a language of its own (names alone, untranslated). */
  localized(body: string, unlessAny: string): LocalizedBody {
    return { body, contentLanguage: this.served.size > 0 ? [...this.served].join(", ") : unlessAny };
  }
}

export async function readFeedSource(db: D1Reader, entityId: string): Promise<FeedSource | null> {
  const [entity, faqs, count] = await db.batch([
    entityStatement(db, entityId),
    faqsStatement(db, entityId),
    propertyCountStatement(db, entityId),
  ]);
  const row = (entity as D1Result<EntityRow>).results[0];
  if (!row) return null;
  return {
    entity: row,
    faqs: localizedFaqs((faqs as D1Result<FaqLanguageRow>).results),
    propertyCount: (count as D1Result<{ n: number }>).results[0]?.n ?? 0,
  };
}

/** A brand and its roster, in one D1 round trip; null when `brandId` names no brand. */
export async function readRoster(db: D1Reader, brandId: string): Promise<{ brand: EntityRow; properties: RosterRow[] } | null> {
  const [brand, roster] = await db.batch([entityStatement(db, brandId), rosterStatement(db, brandId)]);
  const row = (brand as D1Result<EntityRow>).results[0];
  return row?.kind === "brand" ? { brand: row, properties: (roster as D1Result<RosterRow>).results } : null;
}

/** The roster; with a language request, each name in the language picked for it (the order stays the registered names'). */
export function buildRoster(brand: EntityRow, properties: RosterRow[], preference: LanguagePreference | null): string | LocalizedBody {
  const languages = preference && new ServedLanguages(preference);
  const body: BrandPropertiesResponse = {
    brandId: brand.id,
    brandName: languages ? languages.name(brand) : brand.name,
    count: properties.length,
    properties: properties.map((p) => ({
      name: languages ? languages.name(p) : p.name,
      serviceId: p.id,
      propertyId: p.property_id,
    })),
  };
  return languages ? languages.localized(embeddableJson(body), brand.default_language) : embeddableJson(body);
}

/** The FAQ in `language` when it has a translation there, else as written in its entity's default language. */
const faqIn = (faq: LocalizedFaq, language: string): Omit<FaqTranslation, "language"> =>
  faq.translations.find((t) => t.language === language) ?? faq;

/**
 * An entity's FAQPage. With a language request, the page is in the language lookup picks among those its FAQs
 * exist in (`inLanguage`), each question in the one picked among its own (its `inLanguage` when that is not the
 * page's), and the name in the one picked among its names.
 */
function faqPage(entity: PageEntity, faqs: LocalizedFaq[], flags: FaqFlags, apiOrigin: string, languages: ServedLanguages | null): FaqPage {
  const own = entity.default_language;
  const pageLanguage = languages?.pick([own, ...faqs.flatMap((faq) => faq.translations.map((t) => t.language))], own);
  return {
    "@type": "FAQPage",
    "@id": `${apiOrigin}/api/v3/content/${encodeURIComponent(entity.id)}/faq.json`,
    about: {
      "@type": ABOUT_TYPE[entity.kind],
      identifier: entity.id,
      name: languages ? languages.name(entity) : entity.name,
      ...(entity.url === null ? {} : { url: entity.url }),
      ...(flags.includePropertyId ? { propertyId: entity.property_id } : {}),
    },
    dateModified: entity.updated_at,
    ...(pageLanguage === undefined ? {} : { inLanguage: pageLanguage }),
    mainEntity: faqs.map((faq) => {
      const language = languages?.pick([own, ...faq.translations.map((t) => t.language)], own);
      const { question, answer } = language === undefined ? faq : faqIn(faq, language);
      return {
        "@type": "Question",
        name: question,
        acceptedAnswer: { "@type": "Answer", text: answer },
        ...(language === pageLanguage ? {} : { inLanguage: language }),
        ...(flags.includeCategory ? { category: faq.category } : {}),
      };
    }),
  };
}

/** The schema.org FAQPage of one entity; localized when a language was asked for. */
export function buildEntityFeed(
  { entity, faqs }: Pick<FeedSource, "entity" | "faqs">,
  flags: FaqFlags,
  apiOrigin: string,
  preference: LanguagePreference | null,
): string | LocalizedBody {
  const languages = preference && new ServedLanguages(preference);
  const body = embeddableJson({ "@context": "https://schema.org", ...faqPage(entity, faqs, flags, apiOrigin, languages) });
  return languages ? languages.localized(body, entity.default_language) : body;
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
  preference: LanguagePreference | null,
): Promise<string | LocalizedBody | PayloadTooLarge> {
  const entityCount = propertyCount + (brandFaqs.length > 0 ? 1 : 0);
  if (entityCount > limits.maxEntities) {
    return new PayloadTooLarge(
      `The @graph of ${brand.id} would hold ${entityCount} entities; the limit is ${limits.maxEntities}. Fetch each entity's feed instead.`,
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
    new PayloadTooLarge(`The @graph of ${brand.id} exceeds the limit of ${limits.maxBytes} bytes. Fetch each entity's feed instead.`);

  const languages = preference && new ServedLanguages(preference);
  if (brandFaqs.length > 0 && !append(faqPage(brand, brandFaqs, flags, apiOrigin, languages))) return overBudget();

  for (let afterId = ""; ;) {
    const pages = groupByEntity(await listEntityFaqPage(db, { brandId: brand.id, afterId, limit: PROPERTY_PAGE_SIZE }));
    for (const { entity, faqs } of pages) if (!append(faqPage(entity, faqs, flags, apiOrigin, languages))) return overBudget();
    if (pages.length < PROPERTY_PAGE_SIZE) break;
    afterId = pages[pages.length - 1]!.entity.id;
  }
  const body = head + parts.join(",") + tail;
  return languages ? languages.localized(body, brand.default_language) : body;
}
