/** SQL for the `api_keys` table; keys are looked up by their SHA-256 only. */

export interface ApiKeyRow {
  id: string;
  partner: string;
  hourly_limit: number;
  expires_at: string | null;
  revoked_at: string | null;
}

/** A key as listed: everything but its hash. */
export interface ApiKeyListing extends ApiKeyRow {
  /** The organization whose administrators manage the key; null for the operator's own. */
  organization_id: string | null;
  created_at: string;
}

export interface ApiKeyInput extends ApiKeyListing {
  key_hash: string;
}

export const apiKeyByHashStatement = (db: D1Database, keyHash: string): D1PreparedStatement =>
  db.prepare("SELECT id, partner, hourly_limit, expires_at, revoked_at FROM api_keys WHERE key_hash = ?").bind(keyHash);

export function insertApiKey(db: D1Database, key: ApiKeyInput): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO api_keys (id, key_hash, partner, hourly_limit, expires_at, revoked_at, organization_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(key.id, key.key_hash, key.partner, key.hourly_limit, key.expires_at, key.revoked_at, key.organization_id, key.created_at);
}

/** Keys without their hashes, newest first: one (`id`), an organization's (`organizationId`), or all. */
export async function listApiKeys(db: D1Database, filter: { id?: string; organizationId?: string } = {}): Promise<ApiKeyListing[]> {
  const { results } = await db
    .prepare(
      `SELECT id, partner, hourly_limit, expires_at, revoked_at, organization_id, created_at FROM api_keys
       WHERE (?1 IS NULL OR id = ?1) AND (?2 IS NULL OR organization_id = ?2) ORDER BY created_at DESC, id`,
    )
    .bind(filter.id ?? null, filter.organizationId ?? null)
    .all<ApiKeyListing>();
  return results;
}

export const revokeApiKey = (db: D1Database, id: string, at: string): D1PreparedStatement =>
  db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").bind(at, id);

/** Sets a key's hourly limit and expiry (its partner, hash and revocation stay). */
export const updateApiKeyTerms = (db: D1Database, id: string, hourlyLimit: number, expiresAt: string | null): D1PreparedStatement =>
  db.prepare("UPDATE api_keys SET hourly_limit = ?, expires_at = ? WHERE id = ?").bind(hourlyLimit, expiresAt, id);

/** What an organization's keys add up to now: the hourly limits of those neither revoked nor expired, and its quota. */
export async function apiKeyQuotaOf(db: D1Database, organizationId: string, now: string): Promise<{ used: number; quota: number } | null> {
  return db
    .prepare(
      `SELECT api_key_quota AS quota,
         (SELECT coalesce(sum(hourly_limit), 0) FROM api_keys
          WHERE organization_id = ?1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?2)) AS used
       FROM organizations WHERE id = ?1`,
    )
    .bind(organizationId, now)
    .first<{ used: number; quota: number }>();
}

/**
 * A statement that fails, so the batch it closes writes nothing, when an organization's keys add up to more than
 * its quota: checked after the writes in the same transaction, so two changes at once cannot both pass.
 */
export const withinApiKeyQuota = (db: D1Database, organizationId: string, now: string): D1PreparedStatement =>
  db
    .prepare(
      `SELECT CASE WHEN (SELECT coalesce(sum(hourly_limit), 0) FROM api_keys
          WHERE organization_id = ?1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?2))
        <= (SELECT api_key_quota FROM organizations WHERE id = ?1) THEN 1 ELSE json_extract('over the quota', '$') END`,
    )
    .bind(organizationId, now);
