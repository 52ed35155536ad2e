/** SQL for `people`: who signs in to the content console. Emails are stored lower-cased. */

export interface PersonRow {
  id: string;
  organization_id: string;
  email: string;
  password_hash: string;
  display_name: string;
  created_at: string;
}

const COLUMNS = "id, organization_id, email, password_hash, display_name, created_at";

export const findPersonByEmail = (db: D1Database, email: string): Promise<PersonRow | null> =>
  db.prepare(`SELECT ${COLUMNS} FROM people WHERE email = ?`).bind(email).first<PersonRow>();

export const insertPerson = (db: D1Database, person: PersonRow): D1PreparedStatement =>
  db
    .prepare(`INSERT INTO people (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`)
    .bind(person.id, person.organization_id, person.email, person.password_hash, person.display_name, person.created_at);

export const findPerson = (db: D1Database, id: string): Promise<PersonRow | null> =>
  db.prepare(`SELECT ${COLUMNS} FROM people WHERE id = ?`).bind(id).first<PersonRow>();
