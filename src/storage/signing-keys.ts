/** SQL for `signing_keys` of the built-in realm. */

export interface SigningKeyRow {
  kid: string;
  /** Sealed (src/crypto/sealed.ts) since KEY_ENCRYPTION_KEY; rows written before hold a plain JWK until sealed. */
  private_jwk: string;
  public_jwk: string;
  created_at: string;
  retired_at: string | null;
}

export const activeSigningKey = (db: D1Database): Promise<SigningKeyRow | null> =>
  db.prepare("SELECT * FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid LIMIT 1").first<SigningKeyRow>();

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

/** Rows whose private key is still a plain JWK (written before keys were sealed). */
export async function unsealedSigningKeys(db: D1Database): Promise<Pick<SigningKeyRow, "kid" | "private_jwk">[]> {
  const { results } = await db
    .prepare("SELECT kid, private_jwk FROM signing_keys WHERE private_jwk LIKE '{%'")
    .all<Pick<SigningKeyRow, "kid" | "private_jwk">>();
  return results;
}

/** Replaces a plain private key by its sealed form, unless another isolate already did. */
export const sealSigningKey = (db: D1Database, kid: string, plain: string, sealed: string): D1PreparedStatement =>
  db.prepare("UPDATE signing_keys SET private_jwk = ? WHERE kid = ? AND private_jwk = ?").bind(sealed, kid, plain);
