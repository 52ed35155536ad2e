/**
 * SQL for `unanswered_questions`: per organization, day, question, tool, entity and language, how often
 * (src/search/unanswered.ts). The entity and the language are null when the tool had none.
 */

export const countUnanswered = (
  db: D1Database,
  row: {
    organizationId: string;
    day: string;
    question: string;
    tool: string;
    entityId: string | null;
    language: string | null;
    at: string;
  },
): D1PreparedStatement =>
  db
    .prepare(
      `INSERT INTO unanswered_questions (organization_id, day, question, tool, entity_id, language, count, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?, 1, ?)
       ON CONFLICT (organization_id, day, question, tool, coalesce(entity_id, ''), coalesce(language, ''))
       DO UPDATE SET count = count + 1, last_seen_at = excluded.last_seen_at`,
    )
    .bind(row.organizationId, row.day, row.question, row.tool, row.entityId, row.language, row.at);

export interface UnansweredRow {
  organization_id: string;
  question: string;
  /** The entity it was asked of, or null when it was asked of none. */
  entity_id: string | null;
  /** The entity's name and brand, null when it was asked of none or the entity is gone. */
  entity_name: string | null;
  brand_id: string | null;
  language: string | null;
  count: number;
  /** The tools it was asked through, comma-separated. */
  tools: string;
  last_seen_at: string;
}

export interface UnansweredFilter {
  /** One organization's, or every organization's. */
  organizationId?: string;
  sinceDay: string;
  /** Only questions asked of these entities or of a hotel of one of these brands; every question when absent. */
  reach?: string[];
  /** With `reach`: questions asked of no entity too. */
  withoutEntity?: boolean;
  /** Only questions asked of this entity, or of a hotel of this brand. */
  entityId?: string;
  /** Only questions asked in this language or one of its regional forms (`pt` takes `pt-BR`). */
  language?: string;
  limit: number;
}

/**
 * Questions counted from `sinceDay` on, one row per organization, question, entity and language, most often asked
 * first. The reach is bound as one JSON array, however long.
 */
export async function listUnanswered(db: D1Database, filter: UnansweredFilter): Promise<UnansweredRow[]> {
  const { results } = await db
    .prepare(
      `SELECT u.organization_id, u.question, u.entity_id, e.name AS entity_name, e.brand_id, u.language,
              sum(u.count) AS count, group_concat(DISTINCT u.tool) AS tools, max(u.last_seen_at) AS last_seen_at
       FROM unanswered_questions u LEFT JOIN entities e ON e.id = u.entity_id
       WHERE u.day >= ?1 AND (?2 IS NULL OR u.organization_id = ?2)
         AND (?3 IS NULL
              OR u.entity_id IN (SELECT value FROM json_each(?3))
              OR e.brand_id IN (SELECT value FROM json_each(?3))
              OR (?4 = 1 AND u.entity_id IS NULL))
         AND (?5 IS NULL OR u.entity_id = ?5 OR e.brand_id = ?5)
         AND (?6 IS NULL OR u.language = ?6 OR u.language LIKE ?6 || '-%')
       GROUP BY u.organization_id, u.question, u.entity_id, u.language
       ORDER BY count DESC, last_seen_at DESC LIMIT ?7`,
    )
    .bind(
      filter.sinceDay,
      filter.organizationId ?? null,
      filter.reach === undefined ? null : JSON.stringify(filter.reach),
      filter.withoutEntity ? 1 : 0,
      filter.entityId ?? null,
      filter.language ?? null,
      filter.limit,
    )
    .all<UnansweredRow>();
  return results;
}

export const deleteUnansweredBefore = (db: D1Database, day: string): D1PreparedStatement =>
  db.prepare("DELETE FROM unanswered_questions WHERE day < ?").bind(day);
