import {
  deleteEntities,
  entitiesByIdOrBrand,
  insertEntities,
  updateEntities,
  type EntityRow,
  type StoredEntity,
} from "../storage/entities";
import { deleteFaqs, faqsOfEntities, insertFaqs, updateFaqs, type FaqIndexTerms, type FaqInput, type FaqRow } from "../storage/faqs";
import { phrasedFaqTerms } from "../search/phrasings";
import { nameKey } from "../search/normalize";
import { languageOf } from "../search/languages";
import { planContent, type ContentChanges, type ContentPlan, type CurrentContent, type StagedRecord } from "./plan";

/** What is stored of the entities the records name, the brands they point at, and the properties of their brands. */
export async function currentContentFor(db: D1Database, rows: StagedRecord[]): Promise<CurrentContent> {
  const ids = new Set<string>();
  const brands: string[] = [];
  for (const { record } of rows) {
    ids.add(record.id);
    if (record.kind === "property") ids.add(record.brandId);
    if (record.kind === "brand") brands.push(record.id);
  }
  const entities = await entitiesByIdOrBrand(db, [...ids], brands);
  return {
    entities,
    faqs: await faqsOfEntities(
      db,
      entities.map((e) => e.id),
    ),
  };
}

export async function planImport(db: D1Database, rows: StagedRecord[], now = new Date().toISOString()): Promise<ContentPlan> {
  return planContent(rows, await currentContentFor(db, rows), now);
}

/**
 * The writes of a plan, in an order the constraints accept: new entities before their FAQs, freed
 * FAQ positions before new ones, removed entities (with everything that cascades) last. In one D1
 * batch they are one transaction.
 */
export const changeStatements = (db: D1Database, changes: ContentChanges): D1PreparedStatement[] => [
  ...insertEntities(db, changes.entities.insert.map(keyed)),
  ...updateEntities(db, changes.entities.update.map(keyed)),
  ...deleteFaqs(db, changes.faqs.remove),
  ...updateFaqs(db, changes.faqs.update.map(indexed)),
  ...insertFaqs(db, changes.faqs.insert.map(indexed)),
  ...deleteEntities(db, changes.entities.remove),
];

/** An entity with the key its name is looked up by. */
const keyed = (entity: EntityRow): StoredEntity => ({ ...entity, name_key: nameKey(entity.name) });

/**
 * An FAQ with the terms the search index keeps of it, analysed in its own language (English analysis for one not
 * analysed), the ways guests ask it among its question's.
 */
export const indexed = <T extends FaqRow & Pick<FaqInput, "language"> & { phrasings?: string }>(faq: T): T & FaqIndexTerms => ({
  ...faq,
  ...phrasedFaqTerms(faq, languageOf(faq.language)),
});
