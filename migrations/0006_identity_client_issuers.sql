-- Identity clients belong to the issuer whose tokens name them: 'realm' (the built-in realm, whatever
-- AUTH_URL it is served under) or an external issuer's exact `iss` (OIDC_ISSUER). A token maps to an
-- organization only through the pair, so a client of one issuer can never borrow another's scope.
-- Only realm clients authenticate here, so only they have a secret. Existing rows were realm clients.
CREATE TABLE identity_clients_by_issuer (
  issuer          TEXT NOT NULL,
  client_id       TEXT NOT NULL,
  secret_hash     TEXT,
  organization_id TEXT REFERENCES organizations (id) ON DELETE SET NULL,
  created_at      TEXT NOT NULL,
  PRIMARY KEY (issuer, client_id),
  CHECK ((issuer = 'realm') = (secret_hash IS NOT NULL))
);
INSERT INTO identity_clients_by_issuer (issuer, client_id, secret_hash, organization_id, created_at)
  SELECT 'realm', client_id, secret_hash, organization_id, created_at FROM identity_clients;
DROP TABLE identity_clients;
ALTER TABLE identity_clients_by_issuer RENAME TO identity_clients;
CREATE INDEX identity_clients_by_organization ON identity_clients (organization_id);
