-- ES256 signing keys of the built-in realm. The newest unretired key signs; a retired key stays
-- published in the JWKS until every token it signed has expired.
CREATE TABLE signing_keys (
  kid         TEXT PRIMARY KEY,
  private_jwk TEXT NOT NULL,
  public_jwk  TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  retired_at  TEXT
);
CREATE INDEX signing_keys_active ON signing_keys (retired_at, created_at);
