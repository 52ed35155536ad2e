-- A console person whose password someone else set (an administrator at the invite or a reset, or the operator)
-- must choose their own before doing anything else; choosing it clears the flag. People already there keep the
-- passwords they have.
ALTER TABLE people ADD COLUMN must_choose_password INTEGER NOT NULL DEFAULT 0 CHECK (must_choose_password IN (0, 1));

-- A password the console made for a person (at an invite or a reset), kept for the administrator's session that made
-- it, so the page after the form shows it again on a reload. Sealed with a key derived from that session's cookie
-- token, which D1 never holds: a copy of the database cannot open it. It goes with the session, when it expires,
-- and when the person's password changes again.
CREATE TABLE console_made_passwords (
  session_hash    TEXT NOT NULL REFERENCES console_sessions (token_hash) ON DELETE CASCADE,
  person_id       TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  sealed_password TEXT NOT NULL,
  made_for        TEXT NOT NULL CHECK (made_for IN ('invite', 'reset')),
  expires_at      TEXT NOT NULL,
  PRIMARY KEY (session_hash, person_id)
);
CREATE INDEX console_made_passwords_by_person ON console_made_passwords (person_id);
