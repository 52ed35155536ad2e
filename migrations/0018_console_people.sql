-- The content console (/console): people of an organization who sign in with their own account, what each may do,
-- and their signed-in sessions. Passwords are hashed as the connector's users' are (src/crypto/password.ts).
CREATE TABLE people (
  id              TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email           TEXT NOT NULL UNIQUE,
  password_hash   TEXT NOT NULL,
  display_name    TEXT NOT NULL,
  created_at      TEXT NOT NULL
);
CREATE INDEX people_by_organization ON people (organization_id);

-- A viewer or editor of one entity (a brand's grant covers its properties), or the administrator of the person's
-- organization (no entity). A grant reaches only what the organization's scope holds.
CREATE TABLE console_grants (
  person_id  TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  role       TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'administrator')),
  entity_id  TEXT REFERENCES entities (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  CHECK ((role = 'administrator') = (entity_id IS NULL))
);
CREATE UNIQUE INDEX console_grants_once ON console_grants (person_id, role, ifnull(entity_id, ''));

-- Signed-in sessions: only the SHA-256 of the cookie's token is kept, so a copy of D1 cannot act as anyone.
CREATE TABLE console_sessions (
  token_hash   TEXT PRIMARY KEY,
  person_id    TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at   TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX console_sessions_by_person ON console_sessions (person_id);
