import type { D1Reader } from "./reader";
import { ENTITY_COLUMNS, type EntityRow } from "./entities";
import { jsonChunks } from "./json-chunks";

/** SQL for the `faqs` table (its FTS5 index follows through triggers). */

export interface FaqRow {
  category: string;
  question: string;
  answer: string;
}

export interface FaqInput extends FaqRow {
  entity_id: string;
  position: number;
}

export interface StoredFaq extends FaqInput {
  id: number;
  /** The version of the analysis its index terms were written with (src/search/analyze.ts). */
  analyzer: number;
}

/** What the search index keeps of an FAQ: question, answer and category as analysed term strings (migration 0010). */
export interface FaqIndexTerms {
  terms_q: string;
  terms_a: string;
  terms_c: string;
  analyzer: number;
}

/** One entity's FAQs in their stored order. */
export const faqsStatement = (db: D1Reader, entityId: string): D1PreparedStatement =>
  db.prepare("SELECT category, question, answer FROM faqs WHERE entity_id = ? ORDER BY position").bind(entityId);

export type EntityFaqRow = EntityRow & { [K in keyof FaqRow]: FaqRow[K] | null };

/**
 * The next `limit` entities after `afterId` (by ID), all of them or only a brand's properties, each
 * with its FAQs in stored order; an entity without FAQs comes as one row with null FAQ columns.
 */
export async function listEntityFaqPage(db: D1Reader, page: { brandId?: string; afterId: string; limit: number }): Promise<EntityFaqRow[]> {
  const { results } = await db
    .prepare(
      `WITH page AS (
         SELECT ${ENTITY_COLUMNS} FROM entities
         WHERE (?1 IS NULL OR brand_id = ?1) AND id > ?2 ORDER BY id LIMIT ?3
       )
       SELECT page.*, f.category, f.question, f.answer
       FROM page LEFT JOIN faqs f ON f.entity_id = page.id
       ORDER BY page.id, f.position`,
    )
    .bind(page.brandId ?? null, page.afterId, page.limit)
    .all<EntityFaqRow>();
  return results;
}

/** Rows of `listEntityFaqPage` as one entry per entity, FAQs in order. */
export function groupByEntity(rows: EntityFaqRow[]): { entity: EntityRow; faqs: FaqRow[] }[] {
  const groups: { entity: EntityRow; faqs: FaqRow[] }[] = [];
  for (const { category, question, answer, ...entity } of rows) {
    let group = groups[groups.length - 1];
    if (group?.entity.id !== entity.id) groups.push((group = { entity, faqs: [] }));
    if (question !== null) group.faqs.push({ category: category ?? "", question, answer: answer ?? "" });
  }
  return groups;
}

/** Stored FAQs of the given entities. */
export async function faqsOfEntities(db: D1Reader, entityIds: string[]): Promise<StoredFaq[]> {
  const statements = jsonChunks(entityIds).map((chunk) =>
    db
      .prepare(
        "SELECT id, entity_id, position, category, question, answer, analyzer FROM faqs WHERE entity_id IN (SELECT value FROM json_each(?))",
      )
      .bind(chunk),
  );
  if (statements.length === 0) return [];
  return (await db.batch<StoredFaq>(statements)).flatMap((result) => result.results);
}

export const insertFaqs = (db: D1Reader, faqs: (FaqInput & FaqIndexTerms)[]): D1PreparedStatement[] =>
  jsonChunks(faqs).map((chunk) =>
    db
      .prepare(
        // brand_id repeats the entity's brand for the FAQ's scope key (migration 0009).
        `INSERT INTO faqs (entity_id, position, category, question, answer, brand_id, terms_q, terms_a, terms_c, analyzer)
         SELECT json_extract(value, '$.entity_id'), json_extract(value, '$.position'), json_extract(value, '$.category'),
           json_extract(value, '$.question'), json_extract(value, '$.answer'),
           (SELECT e.brand_id FROM entities e WHERE e.id = json_extract(value, '$.entity_id')),
           json_extract(value, '$.terms_q'), json_extract(value, '$.terms_a'), json_extract(value, '$.terms_c'),
           json_extract(value, '$.analyzer') FROM json_each(?)`,
      )
      .bind(chunk),
  );

/** Rewrites FAQs' text and index terms (a changed FAQ, or one analysed again). */
export const updateFaqs = (db: D1Reader, faqs: (StoredFaq & FaqIndexTerms)[]): D1PreparedStatement[] =>
  jsonChunks(
    faqs.map(({ id, category, question, answer, terms_q, terms_a, terms_c, analyzer }) => ({
      id,
      category,
      question,
      answer,
      terms_q,
      terms_a,
      terms_c,
      analyzer,
    })),
  ).map((chunk) =>
    db
      .prepare(
        `UPDATE faqs SET category = j.category, question = j.question, answer = j.answer,
           terms_q = j.terms_q, terms_a = j.terms_a, terms_c = j.terms_c, analyzer = j.analyzer
         FROM (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.category') AS category,
                 json_extract(value, '$.question') AS question, json_extract(value, '$.answer') AS answer,
                 json_extract(value, '$.terms_q') AS terms_q, json_extract(value, '$.terms_a') AS terms_a,
                 json_extract(value, '$.terms_c') AS terms_c, json_extract(value, '$.analyzer') AS analyzer FROM json_each(?)) AS j
         WHERE faqs.id = j.id`,
      )
      .bind(chunk),
  );

export const deleteFaqs = (db: D1Reader, ids: number[]): D1PreparedStatement[] =>
  jsonChunks(ids).map((chunk) => db.prepare("DELETE FROM faqs WHERE id IN (SELECT value FROM json_each(?))").bind(chunk));
