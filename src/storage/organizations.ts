/** SQL for `organizations` and `organization_scopes`. */

export interface OrganizationInput {
  id: string;
  name: string;
  created_at: string;
}

export const insertOrganization = (db: D1Database, org: OrganizationInput): D1PreparedStatement =>
  db.prepare("INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)").bind(org.id, org.name, org.created_at);

export const insertScope = (db: D1Database, organizationId: string, entityId: string): D1PreparedStatement =>
  db
    .prepare("INSERT INTO organization_scopes (organization_id, entity_id) VALUES (?, ?)")
    .bind(organizationId, entityId);

export const findOrganization = (db: D1Database, id: string): Promise<{ id: string; name: string } | null> =>
  db.prepare("SELECT id, name FROM organizations WHERE id = ?").bind(id).first<{ id: string; name: string }>();
