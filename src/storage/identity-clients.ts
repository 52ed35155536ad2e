/** SQL for `identity_clients` of the built-in realm; secrets are stored as SHA-256 only. */

export interface IdentityClientInput {
  client_id: string;
  secret_hash: string;
  organization_id: string | null;
  created_at: string;
}

export const insertIdentityClient = (db: D1Database, client: IdentityClientInput): D1PreparedStatement =>
  db
    .prepare("INSERT INTO identity_clients (client_id, secret_hash, organization_id, created_at) VALUES (?, ?, ?, ?)")
    .bind(client.client_id, client.secret_hash, client.organization_id, client.created_at);

export type IdentityClientRow = IdentityClientInput;

export const findIdentityClient = (db: D1Database, clientId: string): Promise<IdentityClientRow | null> =>
  db
    .prepare("SELECT client_id, secret_hash, organization_id, created_at FROM identity_clients WHERE client_id = ?")
    .bind(clientId)
    .first<IdentityClientRow>();

export async function listIdentityClients(db: D1Database): Promise<Omit<IdentityClientInput, "secret_hash">[]> {
  const { results } = await db
    .prepare("SELECT client_id, organization_id, created_at FROM identity_clients ORDER BY client_id")
    .all<Omit<IdentityClientInput, "secret_hash">>();
  return results;
}

export const setClientOrganization = (db: D1Database, clientId: string, organizationId: string | null): D1PreparedStatement =>
  db.prepare("UPDATE identity_clients SET organization_id = ? WHERE client_id = ?").bind(organizationId, clientId);

export const setClientSecret = (db: D1Database, clientId: string, secretHash: string): D1PreparedStatement =>
  db.prepare("UPDATE identity_clients SET secret_hash = ? WHERE client_id = ?").bind(secretHash, clientId);

export const deleteIdentityClient = (db: D1Database, clientId: string): D1PreparedStatement =>
  db.prepare("DELETE FROM identity_clients WHERE client_id = ?").bind(clientId);
