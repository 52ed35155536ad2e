/** SQL for what the operator keeps about OAuth clients in D1: extra redirect URIs, and deletions. */

export async function clientRedirectUris(db: D1Database, clientId: string): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT redirect_uri FROM oauth_client_redirect_uris WHERE client_id = ? ORDER BY redirect_uri")
    .bind(clientId)
    .all<{ redirect_uri: string }>();
  return results.map((r) => r.redirect_uri);
}

export const insertClientRedirectUri = (db: D1Database, clientId: string, redirectUri: string, at: string): D1PreparedStatement =>
  db
    .prepare("INSERT INTO oauth_client_redirect_uris (client_id, redirect_uri, created_at) VALUES (?, ?, ?)")
    .bind(clientId, redirectUri, at);

/** Records that a client's grants up to `at` are revoked (a later deletion moves the instant forward). */
export const revokeClientGrants = (db: D1Database, clientId: string, at: string): D1PreparedStatement =>
  db
    .prepare(
      `INSERT INTO oauth_client_revocations (client_id, revoked_at) VALUES (?, ?)
       ON CONFLICT (client_id) DO UPDATE SET revoked_at = excluded.revoked_at`,
    )
    .bind(clientId, at);

export const deleteClientRedirectUri = (db: D1Database, clientId: string, redirectUri: string): D1PreparedStatement =>
  db.prepare("DELETE FROM oauth_client_redirect_uris WHERE client_id = ? AND redirect_uri = ?").bind(clientId, redirectUri);

export const deleteClientRedirectUris = (db: D1Database, clientId: string): D1PreparedStatement =>
  db.prepare("DELETE FROM oauth_client_redirect_uris WHERE client_id = ?").bind(clientId);

/** Every client that has operator-added redirect URIs, with them. */
export async function allClientRedirectUris(db: D1Database): Promise<Map<string, string[]>> {
  const { results } = await db
    .prepare("SELECT client_id, redirect_uri FROM oauth_client_redirect_uris ORDER BY client_id, redirect_uri")
    .all<{ client_id: string; redirect_uri: string }>();
  const byClient = new Map<string, string[]>();
  for (const row of results) byClient.set(row.client_id, [...(byClient.get(row.client_id) ?? []), row.redirect_uri]);
  return byClient;
}
