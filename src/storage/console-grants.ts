/** SQL for `console_grants`: what each person may do in the content console. */

export const CONSOLE_ROLES = ["viewer", "editor", "administrator"] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export interface ConsoleGrantRow {
  role: ConsoleRole;
  /** The entity the grant is on (a brand's covers its properties); null for the organization's administrator. */
  entity_id: string | null;
}

export const insertGrant = (db: D1Database, personId: string, grant: ConsoleGrantRow, createdAt: string): D1PreparedStatement =>
  db
    .prepare("INSERT INTO console_grants (person_id, role, entity_id, created_at) VALUES (?, ?, ?, ?)")
    .bind(personId, grant.role, grant.entity_id, createdAt);

export async function grantsOf(db: D1Database, personId: string): Promise<ConsoleGrantRow[]> {
  const { results } = await db
    .prepare("SELECT role, entity_id FROM console_grants WHERE person_id = ? ORDER BY role, entity_id")
    .bind(personId)
    .all<ConsoleGrantRow>();
  return results;
}
