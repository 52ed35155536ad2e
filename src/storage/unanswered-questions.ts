/**
 * SQL for `unanswered_questions`: per organization, day, question, tool, entity and language, how often
 * (src/search/unanswered.ts). The entity and the language are null when the tool had none. And for
 * `unanswered_outcomes`: what a content team did about an entity's question (migration 0025).
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
  /** What was done about it, by whom and when; null while it is open. */
  outcome: UnansweredOutcome | null;
  faq_question: string | null;
  actor: string | null;
  handled_at: string | null;
}

export const UNANSWERED_OUTCOMES = ["attached", "answered", "dismissed"] as const;
export type UnansweredOutcome = (typeof UNANSWERED_OUTCOMES)[number];
/** Open: nothing done about it yet; handled: attached, answered or dismissed. */
export const UNANSWERED_STATES = ["open", "handled"] as const;
export type UnansweredState = (typeof UNANSWERED_STATES)[number];

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
  /** Only open or only handled questions; both when absent. */
  state?: UnansweredState;
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
              sum(u.count) AS count, group_concat(DISTINCT u.tool) AS tools, max(u.last_seen_at) AS last_seen_at,
              o.outcome, o.faq_question, o.actor, o.at AS handled_at
       FROM unanswered_questions u LEFT JOIN entities e ON e.id = u.entity_id
         LEFT JOIN unanswered_outcomes o ON o.entity_id = u.entity_id AND o.question = u.question
       WHERE u.day >= ?1 AND (?2 IS NULL OR u.organization_id = ?2)
         AND (?3 IS NULL
              OR u.entity_id IN (SELECT value FROM json_each(?3))
              OR e.brand_id IN (SELECT value FROM json_each(?3))
              OR (?4 = 1 AND u.entity_id IS NULL))
         AND (?5 IS NULL OR u.entity_id = ?5 OR e.brand_id = ?5)
         AND (?6 IS NULL OR u.language = ?6 OR u.language LIKE ?6 || '-%')
         AND (?8 IS NULL OR (?8 = 'open') = (o.outcome IS NULL))
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
      filter.state ?? null,
    )
    .all<UnansweredRow>();
  return results;
}

/** Records what was done about questions of an entity, replacing what was recorded of them before. */
export const recordOutcomes = (
  db: D1Database,
  entry: { entityId: string; questions: string[]; outcome: UnansweredOutcome; faqQuestion: string | null; actor: string; at: string },
): D1PreparedStatement =>
  db
    .prepare(
      `INSERT INTO unanswered_outcomes (entity_id, question, outcome, faq_question, actor, at)
       SELECT ?1, value, ?2, ?3, ?4, ?5 FROM json_each(?6) WHERE true
       ON CONFLICT (entity_id, question) DO UPDATE
         SET outcome = excluded.outcome, faq_question = excluded.faq_question, actor = excluded.actor, at = excluded.at`,
    )
    .bind(entry.entityId, entry.outcome, entry.faqQuestion, entry.actor, entry.at, JSON.stringify(entry.questions));

/** Forgets that questions of an entity were attached to an FAQ (the way of asking was taken off it): they are open again. */
export const forgetAttached = (db: D1Database, entityId: string, questions: string[]): D1PreparedStatement =>
  db
    .prepare(
      "DELETE FROM unanswered_outcomes WHERE entity_id = ? AND outcome = 'attached' AND question IN (SELECT value FROM json_each(?))",
    )
    .bind(entityId, JSON.stringify(questions));

export const deleteUnansweredBefore = (db: D1Database, day: string): D1PreparedStatement =>
  db.prepare("DELETE FROM unanswered_questions WHERE day < ?").bind(day);

/** Deletes what was done about questions no count is left of (after deleteUnansweredBefore). */
export const deleteOrphanOutcomes = (db: D1Database): D1PreparedStatement =>
  db.prepare(
    `DELETE FROM unanswered_outcomes
     WHERE NOT EXISTS (SELECT 1 FROM unanswered_questions u WHERE u.entity_id = unanswered_outcomes.entity_id AND u.question = unanswered_outcomes.question)`,
  );
