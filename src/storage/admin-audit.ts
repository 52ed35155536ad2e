/** SQL for `admin_audit`: one row per change made through the operator API. */

export interface AuditEntry {
  at: string;
  actor: string;
  action: string;
  target: string;
  detail: unknown;
}

export const insertAudit = (db: D1Database, entry: AuditEntry): D1PreparedStatement =>
  db
    .prepare("INSERT INTO admin_audit (at, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)")
    .bind(entry.at, entry.actor, entry.action, entry.target, entry.detail === undefined ? null : JSON.stringify(entry.detail));

/** The newest entries first, before `beforeId` when given, for one target when given. */
export async function listAudit(
  db: D1Database,
  page: { beforeId?: number; target?: string; limit: number },
): Promise<(AuditEntry & { id: number })[]> {
  const { results } = await db
    .prepare(
      `SELECT id, at, actor, action, target, detail FROM admin_audit
       WHERE (?1 IS NULL OR id < ?1) AND (?2 IS NULL OR target = ?2) ORDER BY id DESC LIMIT ?3`,
    )
    .bind(page.beforeId ?? null, page.target ?? null, page.limit)
    .all<AuditEntry & { id: number; detail: string | null }>();
  return results.map((row) => ({ ...row, detail: row.detail === null ? null : (JSON.parse(row.detail) as unknown) }));
}
