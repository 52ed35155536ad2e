import type { EntityRow } from "./entities";

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

/** One entity's FAQs in their stored order. */
export async function listFaqs(db: D1Database, entityId: string): Promise<FaqRow[]> {
  const { results } = await db
    .prepare("SELECT category, question, answer FROM faqs WHERE entity_id = ? ORDER BY position")
    .bind(entityId)
    .all<FaqRow>();
  return results;
}

export type PropertyFaqRow = Pick<EntityRow, "id" | "name" | "property_id" | "updated_at"> & {
  [K in keyof FaqRow]: FaqRow[K] | null;
};

/**
 * The next `limit` properties of a brand after `afterId` (by ID), each with its FAQs in stored order;
 * a property without FAQs comes as one row with null FAQ columns.
 */
export async function listPropertyFaqPage(
  db: D1Database,
  brandId: string,
  afterId: string,
  limit: number,
): Promise<PropertyFaqRow[]> {
  const { results } = await db
    .prepare(
      `WITH page AS (
         SELECT id, name, property_id, updated_at FROM entities WHERE brand_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3
       )
       SELECT page.id, page.name, page.property_id, page.updated_at, f.category, f.question, f.answer
       FROM page LEFT JOIN faqs f ON f.entity_id = page.id
       ORDER BY page.id, f.position`,
    )
    .bind(brandId, afterId, limit)
    .all<PropertyFaqRow>();
  return results;
}

export function insertFaq(db: D1Database, faq: FaqInput): D1PreparedStatement {
  return db
    .prepare("INSERT INTO faqs (entity_id, position, category, question, answer) VALUES (?, ?, ?, ?, ?)")
    .bind(faq.entity_id, faq.position, faq.category, faq.question, faq.answer);
}
