import { entityIdsAmong } from "./json-chunks";
/** SQL for `organizations` and `organization_scopes`. */

export interface OrganizationInput {
  id: string;
  name: string;
  created_at: string;
}

export interface OrganizationRow extends OrganizationInput {
  /** The most requests an hour its partner keys may add up to. */
  api_key_quota: number;
  scope: string[];
  users: number;
  clients: number;
}

export const insertOrganization = (db: D1Database, org: OrganizationInput): D1PreparedStatement =>
  db.prepare("INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)").bind(org.id, org.name, org.created_at);

export const renameOrganization = (db: D1Database, id: string, name: string): D1PreparedStatement =>
  db.prepare("UPDATE organizations SET name = ? WHERE id = ?").bind(name, id);

export const setApiKeyQuota = (db: D1Database, id: string, quota: number): D1PreparedStatement =>
  db.prepare("UPDATE organizations SET api_key_quota = ? WHERE id = ?").bind(quota, id);

export const deleteOrganization = (db: D1Database, id: string): D1PreparedStatement =>
  db.prepare("DELETE FROM organizations WHERE id = ?").bind(id);

export const insertScope = (db: D1Database, organizationId: string, entityId: string): D1PreparedStatement =>
  db.prepare("INSERT INTO organization_scopes (organization_id, entity_id) VALUES (?, ?)").bind(organizationId, entityId);

export const deleteScope = (db: D1Database, organizationId: string, entityId: string): D1PreparedStatement =>
  db.prepare("DELETE FROM organization_scopes WHERE organization_id = ? AND entity_id = ?").bind(organizationId, entityId);

export const findOrganization = (db: D1Database, id: string): Promise<{ id: string; name: string } | null> =>
  db.prepare("SELECT id, name FROM organizations WHERE id = ?").bind(id).first<{ id: string; name: string }>();

/** Organizations (one, or all by ID) with their scope and how many users and realm clients they have. */
export async function listOrganizations(db: D1Database, id?: string): Promise<OrganizationRow[]> {
  const { results } = await db
    .prepare(
      `SELECT o.id, o.name, o.created_at, o.api_key_quota,
         (SELECT json_group_array(entity_id) FROM (SELECT entity_id FROM organization_scopes WHERE organization_id = o.id ORDER BY entity_id)) AS scope,
         (SELECT count(*) FROM users WHERE organization_id = o.id) AS users,
         (SELECT count(*) FROM identity_clients WHERE organization_id = o.id) AS clients
       FROM organizations o WHERE ?1 IS NULL OR o.id = ?1 ORDER BY o.id`,
    )
    .bind(id ?? null)
    .all<Omit<OrganizationRow, "scope"> & { scope: string }>();
  return results.map((row) => ({ ...row, scope: JSON.parse(row.scope) as string[] }));
}

/** The entities an organization's scope names (a brand stands for its properties too). */
export async function scopeOf(db: D1Database, organizationId: string): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT entity_id FROM organization_scopes WHERE organization_id = ? ORDER BY entity_id")
    .bind(organizationId)
    .all<{ entity_id: string }>();
  return results.map((row) => row.entity_id);
}

/** Which of `entityIds` another organization than `organizationId` has in its scope. */
export const entitiesInOtherScopes = (db: D1Database, entityIds: string[], organizationId: string): Promise<string[]> =>
  entityIdsAmong(
    db,
    "SELECT entity_id FROM organization_scopes WHERE entity_id IN (SELECT value FROM json_each(?1)) AND organization_id != ?2",
    entityIds,
    organizationId,
  );
