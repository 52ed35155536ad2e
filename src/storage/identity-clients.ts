/** SQL for `identity_clients`: clients of the built-in realm (`issuer = 'realm'`, secret as SHA-256) or of an external issuer. */

/** The issuer key of the built-in realm's clients; an external issuer's clients are stored under its exact `iss`. */
export const REALM_ISSUER_KEY = "realm";

export interface IdentityClientInput {
  issuer: string;
  client_id: string;
  /** Realm clients only: external clients authenticate at their own issuer. */
  secret_hash: string | null;
  organization_id: string | null;
  created_at: string;
}

export type IdentityClientRow = IdentityClientInput;
export type IdentityClientView = Omit<IdentityClientRow, "secret_hash">;

export const insertIdentityClient = (db: D1Database, client: IdentityClientInput): D1PreparedStatement =>
  db
    .prepare("INSERT INTO identity_clients (issuer, client_id, secret_hash, organization_id, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(client.issuer, client.client_id, client.secret_hash, client.organization_id, client.created_at);

export const findIdentityClient = (db: D1Database, issuer: string, clientId: string): Promise<IdentityClientRow | null> =>
  db
    .prepare("SELECT issuer, client_id, secret_hash, organization_id, created_at FROM identity_clients WHERE issuer = ? AND client_id = ?")
    .bind(issuer, clientId)
    .first<IdentityClientRow>();

/**
 * The organization a token of `issuer` naming `clientId` acts for: null when the client is unknown,
 * has no organization, or its organization's scope is empty (SPEC: no provisioned scope).
 */
export async function scopedClientOrganization(db: D1Database, issuer: string, clientId: string): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT c.organization_id FROM identity_clients c
       WHERE c.issuer = ? AND c.client_id = ?
         AND EXISTS (SELECT 1 FROM organization_scopes s WHERE s.organization_id = c.organization_id)`,
    )
    .bind(issuer, clientId)
    .first<{ organization_id: string }>();
  return row?.organization_id ?? null;
}

/** Every client, or those of `organizationId`. */
export async function listIdentityClients(db: D1Database, organizationId?: string): Promise<IdentityClientView[]> {
  const { results } = await db
    .prepare(
      `SELECT issuer, client_id, organization_id, created_at FROM identity_clients
       WHERE ?1 IS NULL OR organization_id = ?1 ORDER BY issuer, client_id`,
    )
    .bind(organizationId ?? null)
    .all<IdentityClientView>();
  return results;
}

export const setClientOrganization = (
  db: D1Database,
  issuer: string,
  clientId: string,
  organizationId: string | null,
): D1PreparedStatement =>
  db.prepare("UPDATE identity_clients SET organization_id = ? WHERE issuer = ? AND client_id = ?").bind(organizationId, issuer, clientId);

export const setClientSecret = (db: D1Database, clientId: string, secretHash: string): D1PreparedStatement =>
  db.prepare("UPDATE identity_clients SET secret_hash = ? WHERE issuer = ? AND client_id = ?").bind(secretHash, REALM_ISSUER_KEY, clientId);

export const deleteIdentityClient = (db: D1Database, issuer: string, clientId: string): D1PreparedStatement =>
  db.prepare("DELETE FROM identity_clients WHERE issuer = ? AND client_id = ?").bind(issuer, clientId);
