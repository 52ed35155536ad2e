/** SQL for `people`: who signs in to the content console. Emails are stored lower-cased. */

export interface PersonRow {
  id: string;
  organization_id: string;
  email: string;
  password_hash: string;
  display_name: string;
  created_at: string;
  /** 1 while the password is one someone else set: the person must choose their own before anything else. */
  must_choose_password: number;
}

const COLUMNS = "id, organization_id, email, password_hash, display_name, created_at, must_choose_password";

/** A person as written: a password someone else set (`must_choose_password` 1) or the person's own (0, the default). */
export type NewPersonRow = Omit<PersonRow, "must_choose_password"> & { must_choose_password?: number };

export const findPersonByEmail = (db: D1Database, email: string): Promise<(PersonRow & { disabled_at: string | null }) | null> =>
  db.prepare(`SELECT ${COLUMNS}, disabled_at FROM people WHERE email = ?`).bind(email).first<PersonRow & { disabled_at: string | null }>();

export const insertPerson = (db: D1Database, person: NewPersonRow): D1PreparedStatement =>
  db
    .prepare(`INSERT INTO people (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`)
    .bind(
      person.id,
      person.organization_id,
      person.email,
      person.password_hash,
      person.display_name,
      person.created_at,
      person.must_choose_password ?? 0,
    );

/** A person who may use the console: a disabled person's session is worth nothing, however it was made. */
export const findActivePerson = (db: D1Database, id: string): Promise<PersonRow | null> =>
  db.prepare(`SELECT ${COLUMNS} FROM people WHERE id = ? AND disabled_at IS NULL`).bind(id).first<PersonRow>();

/** A person as the people pages and the operator API list them: without the password's hash. */
export interface PersonListing {
  id: string;
  organization_id: string;
  email: string;
  display_name: string;
  created_at: string;
  disabled_at: string | null;
  must_choose_password: number;
}

const LISTING = "id, organization_id, email, display_name, created_at, disabled_at, must_choose_password";

/** The person who may sign in with `email`: null when there is none or they are disabled. */
export const findSignInPerson = (db: D1Database, email: string): Promise<PersonRow | null> =>
  db.prepare(`SELECT ${COLUMNS} FROM people WHERE email = ? AND disabled_at IS NULL`).bind(email).first<PersonRow>();

export const findPersonListing = (db: D1Database, id: string): Promise<PersonListing | null> =>
  db.prepare(`SELECT ${LISTING} FROM people WHERE id = ?`).bind(id).first<PersonListing>();

/** The people of one organization (all when none is named), by e-mail. */
export async function listPeople(db: D1Database, organizationId?: string): Promise<PersonListing[]> {
  const { results } = await db
    .prepare(`SELECT ${LISTING} FROM people WHERE (?1 IS NULL OR organization_id = ?1) ORDER BY email LIMIT 1000`)
    .bind(organizationId ?? null)
    .all<PersonListing>();
  return results;
}

export const disablePerson = (db: D1Database, id: string, at: string): D1PreparedStatement =>
  db.prepare("UPDATE people SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL").bind(at, id);

export const enablePerson = (db: D1Database, id: string): D1PreparedStatement =>
  db.prepare("UPDATE people SET disabled_at = NULL WHERE id = ? AND disabled_at IS NOT NULL").bind(id);

/** A new password: set by someone else (`chosenByThemselves` false), the person must choose their own next. */
export const setPersonPasswordHash = (db: D1Database, id: string, passwordHash: string, chosenByThemselves: boolean): D1PreparedStatement =>
  db
    .prepare("UPDATE people SET password_hash = ?, must_choose_password = ? WHERE id = ?")
    .bind(passwordHash, chosenByThemselves ? 0 : 1, id);
