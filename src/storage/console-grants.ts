import { entityIdsAmong } from "./json-chunks";

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

export const deleteGrant = (db: D1Database, personId: string, grant: ConsoleGrantRow): D1PreparedStatement =>
  db
    .prepare("DELETE FROM console_grants WHERE person_id = ? AND role = ? AND ifnull(entity_id, '') = ifnull(?, '')")
    .bind(personId, grant.role, grant.entity_id);

/** The grants of every person of an organization, by person. */
export async function grantsOfOrganization(db: D1Database, organizationId: string): Promise<Map<string, ConsoleGrantRow[]>> {
  const { results } = await db
    .prepare(
      `SELECT g.person_id, g.role, g.entity_id FROM console_grants g JOIN people p ON p.id = g.person_id
       WHERE p.organization_id = ? ORDER BY g.role, g.entity_id`,
    )
    .bind(organizationId)
    .all<ConsoleGrantRow & { person_id: string }>();
  const byPerson = new Map<string, ConsoleGrantRow[]>();
  for (const { person_id, role, entity_id } of results) byPerson.set(person_id, [...(byPerson.get(person_id) ?? []), { role, entity_id }]);
  return byPerson;
}

/** Which of `entityIds` a person of another organization than `organizationId` holds a role on. */
export const entitiesGrantedOutside = (db: D1Database, entityIds: string[], organizationId: string): Promise<string[]> =>
  entityIdsAmong(
    db,
    `SELECT g.entity_id FROM console_grants g JOIN people p ON p.id = g.person_id
     WHERE g.entity_id IN (SELECT value FROM json_each(?1)) AND p.organization_id != ?2`,
    entityIds,
    organizationId,
  );

/** The names of an organization's administrators who may sign in, by name: whom its people ask. */
export async function administratorNames(db: D1Database, organizationId: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT p.display_name FROM console_grants g JOIN people p ON p.id = g.person_id
       WHERE p.organization_id = ? AND g.role = 'administrator' AND p.disabled_at IS NULL ORDER BY p.display_name LIMIT 5`,
    )
    .bind(organizationId)
    .all<{ display_name: string }>();
  return results.map((row) => row.display_name);
}
