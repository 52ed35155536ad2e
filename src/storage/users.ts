/** SQL for `users`: organization members who sign in through the connector flow. Emails are stored lower-cased. */

export interface UserRow {
  id: string;
  email: string;
  organization_id: string;
  password_hash: string;
  disabled_at: string | null;
  tokens_valid_after: string | null;
  created_at: string;
}

const COLUMNS = "id, email, organization_id, password_hash, disabled_at, tokens_valid_after, created_at";

export const findUserByEmail = (db: D1Database, email: string): Promise<UserRow | null> =>
  db.prepare(`SELECT ${COLUMNS} FROM users WHERE email = ?`).bind(email).first<UserRow>();

export const findUser = (db: D1Database, id: string): Promise<UserRow | null> =>
  db.prepare(`SELECT ${COLUMNS} FROM users WHERE id = ?`).bind(id).first<UserRow>();

export const insertUser = (db: D1Database, user: UserRow): D1PreparedStatement =>
  db
    .prepare(`INSERT INTO users (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`)
    .bind(user.id, user.email, user.organization_id, user.password_hash, user.disabled_at, user.tokens_valid_after, user.created_at);

/** What decides whether a connector grant of `userId` for `clientId` may still be used. */
export interface ConnectorAccessRow {
  organization_id: string;
  disabled_at: string | null;
  tokens_valid_after: string | null;
  /** 1 while the user's organization has at least one entity in scope. */
  organization_scoped: number;
  client_revoked_at: string | null;
}

export const connectorAccessRow = (db: D1Database, userId: string, clientId: string): Promise<ConnectorAccessRow | null> =>
  db
    .prepare(
      `SELECT u.organization_id, u.disabled_at, u.tokens_valid_after,
         EXISTS (SELECT 1 FROM organization_scopes s WHERE s.organization_id = u.organization_id) AS organization_scoped,
         (SELECT revoked_at FROM oauth_client_revocations WHERE client_id = ?2) AS client_revoked_at
       FROM users u WHERE u.id = ?1`,
    )
    .bind(userId, clientId)
    .first<ConnectorAccessRow>();

/** Disables a user and voids every grant they made so far. */
export const disableUser = (db: D1Database, id: string, at: string): D1PreparedStatement =>
  db.prepare("UPDATE users SET disabled_at = ?2, tokens_valid_after = ?2 WHERE id = ?1 AND disabled_at IS NULL").bind(id, at);

export async function listUsers(db: D1Database, organizationId?: string): Promise<UserRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM users WHERE ?1 IS NULL OR organization_id = ?1 ORDER BY email`)
    .bind(organizationId ?? null)
    .all<UserRow>();
  return results;
}

export const enableUser = (db: D1Database, id: string): D1PreparedStatement =>
  db.prepare("UPDATE users SET disabled_at = NULL WHERE id = ?").bind(id);

/** A new password also voids every grant made with the old one. */
export const setUserPassword = (db: D1Database, id: string, passwordHash: string, at: string): D1PreparedStatement =>
  db.prepare("UPDATE users SET password_hash = ?, tokens_valid_after = ? WHERE id = ?").bind(passwordHash, at, id);

/**
 * The same password's hash in a new form (peppered): grants made with it stay valid. Only while the row
 * still holds `fromHash`, so a password the operator set meanwhile is never overwritten.
 */
export const replacePasswordHash = (db: D1Database, id: string, fromHash: string, toHash: string): D1PreparedStatement =>
  db.prepare("UPDATE users SET password_hash = ?3 WHERE id = ?1 AND password_hash = ?2").bind(id, fromHash, toHash);
