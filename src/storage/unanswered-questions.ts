/** SQL for `unanswered_questions`: per organization, day, question and tool, how often (src/search/unanswered.ts). */

export const countUnanswered = (
  db: D1Database,
  row: { organizationId: string; day: string; question: string; tool: string; at: string },
): D1PreparedStatement =>
  db
    .prepare(
      `INSERT INTO unanswered_questions (organization_id, day, question, tool, count, last_seen_at) VALUES (?, ?, ?, ?, 1, ?)
       ON CONFLICT (organization_id, day, question, tool) DO UPDATE SET count = count + 1, last_seen_at = excluded.last_seen_at`,
    )
    .bind(row.organizationId, row.day, row.question, row.tool, row.at);

export interface UnansweredRow {
  organization_id: string;
  question: string;
  count: number;
  /** The tools it was asked through, comma-separated. */
  tools: string;
  last_seen_at: string;
}

/** Questions counted from `sinceDay` on, most often asked first, for one organization or all. */
export async function listUnanswered(
  db: D1Database,
  filter: { organizationId?: string; sinceDay: string; limit: number },
): Promise<UnansweredRow[]> {
  const { results } = await db
    .prepare(
      `SELECT organization_id, question, sum(count) AS count, group_concat(DISTINCT tool) AS tools, max(last_seen_at) AS last_seen_at
       FROM unanswered_questions WHERE day >= ?1 AND (?2 IS NULL OR organization_id = ?2)
       GROUP BY organization_id, question ORDER BY count DESC, last_seen_at DESC LIMIT ?3`,
    )
    .bind(filter.sinceDay, filter.organizationId ?? null, filter.limit)
    .all<UnansweredRow>();
  return results;
}

export const deleteUnansweredBefore = (db: D1Database, day: string): D1PreparedStatement =>
  db.prepare("DELETE FROM unanswered_questions WHERE day < ?").bind(day);
