-- Organization users who sign in through the assistant connector flow (DESIGN §6). The password is a
-- PBKDF2-SHA256 hash with its own salt and iteration count, encoded in one column.
-- Grants made at or before tokens_valid_after are refused (set by disabling the user or resetting the password).
CREATE TABLE users (
  id                 TEXT PRIMARY KEY,
  email              TEXT NOT NULL UNIQUE,
  organization_id    TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  password_hash      TEXT NOT NULL,
  disabled_at        TEXT,
  tokens_valid_after TEXT,
  created_at         TEXT NOT NULL
);
CREATE INDEX users_by_organization ON users (organization_id);

-- Redirect URIs the operator allowed for one OAuth client, besides ALLOWED_REDIRECT_URIS.
CREATE TABLE oauth_client_redirect_uris (
  client_id    TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (client_id, redirect_uri)
);

-- OAuth clients the operator deleted: grants made at or before revoked_at are refused at /v1/sse and
-- /token. A client whose ID comes back (a metadata-document client authorizing again) starts afresh.
CREATE TABLE oauth_client_revocations (
  client_id  TEXT PRIMARY KEY,
  revoked_at TEXT NOT NULL
);
