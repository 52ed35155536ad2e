/** SQL for the `api_keys` table; keys are looked up by their SHA-256 only. */

export interface ApiKeyRow {
  id: string;
  partner: string;
  hourly_limit: number;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface ApiKeyInput extends ApiKeyRow {
  key_hash: string;
  created_at: string;
}

export const apiKeyByHashStatement = (db: D1Database, keyHash: string): D1PreparedStatement =>
  db.prepare("SELECT id, partner, hourly_limit, expires_at, revoked_at FROM api_keys WHERE key_hash = ?").bind(keyHash);

export function insertApiKey(db: D1Database, key: ApiKeyInput): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO api_keys (id, key_hash, partner, hourly_limit, expires_at, revoked_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(key.id, key.key_hash, key.partner, key.hourly_limit, key.expires_at, key.revoked_at, key.created_at);
}

/** Keys without their hashes, one or all, newest first. */
export async function listApiKeys(db: D1Database, id?: string): Promise<Omit<ApiKeyInput, "key_hash">[]> {
  const { results } = await db
    .prepare(
      `SELECT id, partner, hourly_limit, expires_at, revoked_at, created_at FROM api_keys
       WHERE ?1 IS NULL OR id = ?1 ORDER BY created_at DESC, id`,
    )
    .bind(id ?? null)
    .all<Omit<ApiKeyInput, "key_hash">>();
  return results;
}

export const revokeApiKey = (db: D1Database, id: string, at: string): D1PreparedStatement =>
  db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").bind(at, id);

/** Sets a key's hourly limit and expiry (its partner, hash and revocation stay). */
export const updateApiKeyTerms = (db: D1Database, id: string, hourlyLimit: number, expiresAt: string | null): D1PreparedStatement =>
  db.prepare("UPDATE api_keys SET hourly_limit = ?, expires_at = ? WHERE id = ?").bind(hourlyLimit, expiresAt, id);
