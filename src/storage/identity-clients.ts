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

export interface IdentityClientRow {
  client_id: string;
  secret_hash: string;
  organization_id: string | null;
}

export const findIdentityClient = (db: D1Database, clientId: string): Promise<IdentityClientRow | null> =>
  db
    .prepare("SELECT client_id, secret_hash, organization_id FROM identity_clients WHERE client_id = ?")
    .bind(clientId)
    .first<IdentityClientRow>();
