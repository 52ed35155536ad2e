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

/**
 * The newest entries (at most `limit`, before `beforeId` when given) whose actor is one of `actors` or whose target is
 * one of `targets`, narrowed to what one person did or had done to them (`person`: their actor name and ID), to one
 * entity (as the target), and to a time range (`from` inclusive, `to` exclusive, ISO 8601).
 */
export async function auditOfOrganization(
  db: D1Database,
  filter: {
    actors: string[];
    targets: string[];
    person?: { actor: string; id: string };
    entity?: string;
    from?: string;
    to?: string;
    beforeId?: number;
    limit: number;
  },
): Promise<(AuditEntry & { id: number })[]> {
  const { results } = await db
    .prepare(
      `SELECT id, at, actor, action, target, detail FROM admin_audit
       WHERE (actor IN (SELECT value FROM json_each(?1)) OR target IN (SELECT value FROM json_each(?2)))
         AND (?3 IS NULL OR actor = ?3 OR target = ?4) AND (?5 IS NULL OR target = ?5)
         AND (?6 IS NULL OR at >= ?6) AND (?7 IS NULL OR at < ?7) AND (?9 IS NULL OR id < ?9)
       ORDER BY id DESC LIMIT ?8`,
    )
    .bind(
      JSON.stringify(filter.actors),
      JSON.stringify(filter.targets),
      filter.person?.actor ?? null,
      filter.person?.id ?? null,
      filter.entity ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.limit,
      filter.beforeId ?? null,
    )
    .all<AuditEntry & { id: number; detail: string | null }>();
  return results.map((row) => ({ ...row, detail: row.detail === null ? null : (JSON.parse(row.detail) as unknown) }));
}
