import { findEntity } from "../storage/entities";
import { brandFaqCounts } from "../storage/faqs";

/** What of a brand is not translated yet into one of its languages: counts, and the entities that lack most first. */
export interface Untranslated {
  language: string;
  /** FAQs without a translation into `language`. */
  missing: number;
  /** FAQs of entities written in another language: those that could have one. */
  of: number;
  entities: { id: string; name: string; missing: number }[];
}

/**
 * Per language a brand's content is in (any FAQ, name or default language of the brand or a property), what is not
 * translated into it yet; null when `brandId` is not a brand. Entities missing nothing are left out.
 */
export async function untranslatedOf(db: D1Database, brandId: string): Promise<Untranslated[] | null> {
  const brand = await findEntity(db, brandId);
  if (brand?.kind !== "brand") return null;
  const counts = await brandFaqCounts(db, brandId);
  const translated = new Map(counts.translations.map((row) => [`${row.entity_id}\n${row.language.toLowerCase()}`, row.faqs]));
  return counts.languages.flatMap((language) => {
    const candidates = counts.entities.filter((entity) => entity.default_language.toLowerCase() !== language.toLowerCase());
    if (candidates.length === 0) return [];
    const entities = candidates
      .map(({ id, name, faqs }) => ({ id, name, missing: faqs - (translated.get(`${id}\n${language.toLowerCase()}`) ?? 0) }))
      .filter((entity) => entity.missing > 0)
      .sort((a, b) => b.missing - a.missing || (a.id < b.id ? -1 : 1));
    const of = candidates.reduce((sum, entity) => sum + entity.faqs, 0);
    return [{ language, missing: entities.reduce((sum, entity) => sum + entity.missing, 0), of, entities }];
  });
}
