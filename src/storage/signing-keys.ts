/** SQL for `signing_keys` of the built-in realm. */

export interface SigningKeyRow {
  kid: string;
  private_jwk: string;
  public_jwk: string;
  created_at: string;
  retired_at: string | null;
}

export const activeSigningKey = (db: D1Database): Promise<SigningKeyRow | null> =>
  db
    .prepare("SELECT * FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid LIMIT 1")
    .first<SigningKeyRow>();

/** Keys still trusted: unretired ones, and retired ones retired after `retiredAfter`. */
export async function publishedSigningKeys(db: D1Database, retiredAfter: string): Promise<SigningKeyRow[]> {
  const { results } = await db
    .prepare("SELECT * FROM signing_keys WHERE retired_at IS NULL OR retired_at > ? ORDER BY created_at DESC, kid")
    .bind(retiredAfter)
    .all<SigningKeyRow>();
  return results;
}

export const insertSigningKey = (db: D1Database, key: SigningKeyRow): D1PreparedStatement =>
  db
    .prepare("INSERT INTO signing_keys (kid, private_jwk, public_jwk, created_at, retired_at) VALUES (?, ?, ?, ?, ?)")
    .bind(key.kid, key.private_jwk, key.public_jwk, key.created_at, key.retired_at);

export const retireSigningKeysExcept = (db: D1Database, kid: string, at: string): D1PreparedStatement =>
  db.prepare("UPDATE signing_keys SET retired_at = ? WHERE retired_at IS NULL AND kid <> ?").bind(at, kid);
