/** SQL for `console_made_passwords`: a password the console made, kept sealed for the session that made it. */

export interface MadePasswordRow {
  session_hash: string;
  person_id: string;
  sealed_password: string;
  made_for: "invite" | "reset";
  expires_at: string;
}

/** Keeps a made password for a session, in place of one it kept for the same person. */
export const insertMadePassword = (db: D1Database, row: MadePasswordRow): D1PreparedStatement =>
  db
    .prepare(
      `INSERT INTO console_made_passwords (session_hash, person_id, sealed_password, made_for, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (session_hash, person_id) DO UPDATE SET sealed_password = excluded.sealed_password,
         made_for = excluded.made_for, expires_at = excluded.expires_at`,
    )
    .bind(row.session_hash, row.person_id, row.sealed_password, row.made_for, row.expires_at);

export const findMadePassword = (db: D1Database, sessionHash: string, personId: string): Promise<MadePasswordRow | null> =>
  db
    .prepare(
      "SELECT session_hash, person_id, sealed_password, made_for, expires_at FROM console_made_passwords WHERE session_hash = ? AND person_id = ?",
    )
    .bind(sessionHash, personId)
    .first<MadePasswordRow>();

export const deleteMadePassword = (db: D1Database, sessionHash: string, personId: string): D1PreparedStatement =>
  db.prepare("DELETE FROM console_made_passwords WHERE session_hash = ? AND person_id = ?").bind(sessionHash, personId);

/** Forgets every password made for a person: once their password changes again, none of them is theirs. */
export const deleteMadePasswordsOf = (db: D1Database, personId: string): D1PreparedStatement =>
  db.prepare("DELETE FROM console_made_passwords WHERE person_id = ?").bind(personId);
