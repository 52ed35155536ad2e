/** SQL for `console_sessions`: signed-in console sessions, keyed by the SHA-256 of the cookie's token. */

export interface ConsoleSessionRow {
  token_hash: string;
  person_id: string;
  created_at: string;
  last_seen_at: string;
}

export const insertSession = (db: D1Database, session: ConsoleSessionRow): D1PreparedStatement =>
  db
    .prepare("INSERT INTO console_sessions (token_hash, person_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)")
    .bind(session.token_hash, session.person_id, session.created_at, session.last_seen_at);

export const findSession = (db: D1Database, tokenHash: string): Promise<ConsoleSessionRow | null> =>
  db
    .prepare("SELECT token_hash, person_id, created_at, last_seen_at FROM console_sessions WHERE token_hash = ?")
    .bind(tokenHash)
    .first<ConsoleSessionRow>();

export const touchSession = (db: D1Database, tokenHash: string, at: string): D1PreparedStatement =>
  db.prepare("UPDATE console_sessions SET last_seen_at = ? WHERE token_hash = ?").bind(at, tokenHash);

export const deleteSession = (db: D1Database, tokenHash: string): D1PreparedStatement =>
  db.prepare("DELETE FROM console_sessions WHERE token_hash = ?").bind(tokenHash);

/** Signs a person out everywhere. */
export const deleteSessionsOf = (db: D1Database, personId: string): D1PreparedStatement =>
  db.prepare("DELETE FROM console_sessions WHERE person_id = ?").bind(personId);

/** Sessions idle since before `idleBefore` or begun before `startedBefore`: ended, whether or not anyone comes back. */
export const deleteEndedSessions = (db: D1Database, idleBefore: string, startedBefore: string): D1PreparedStatement =>
  db.prepare("DELETE FROM console_sessions WHERE last_seen_at < ? OR created_at < ?").bind(idleBefore, startedBefore);
