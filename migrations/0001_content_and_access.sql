-- Content: brands, properties, destinations and airports share one table; a property points at its brand.
CREATE TABLE entities (
  id          TEXT PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('brand', 'property', 'destination', 'airport')),
  name        TEXT NOT NULL,
  brand_id    TEXT REFERENCES entities (id) ON DELETE CASCADE,
  property_id INTEGER,
  updated_at  TEXT NOT NULL,
  CHECK ((kind = 'property') = (brand_id IS NOT NULL))
);
CREATE INDEX entities_by_brand ON entities (brand_id, id);
CREATE INDEX entities_by_name ON entities (name COLLATE NOCASE);

CREATE TABLE faqs (
  id        INTEGER PRIMARY KEY,
  entity_id TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  position  INTEGER NOT NULL,
  category  TEXT NOT NULL,
  question  TEXT NOT NULL,
  answer    TEXT NOT NULL,
  UNIQUE (entity_id, position)
);

-- Derived index over FAQ text; rebuildable with INSERT INTO faq_search(faq_search) VALUES ('rebuild').
CREATE VIRTUAL TABLE faq_search USING fts5 (
  question, answer,
  content = 'faqs', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER faqs_search_insert AFTER INSERT ON faqs BEGIN
  INSERT INTO faq_search (rowid, question, answer) VALUES (new.id, new.question, new.answer);
END;
CREATE TRIGGER faqs_search_delete AFTER DELETE ON faqs BEGIN
  INSERT INTO faq_search (faq_search, rowid, question, answer) VALUES ('delete', old.id, old.question, old.answer);
END;
CREATE TRIGGER faqs_search_update AFTER UPDATE ON faqs BEGIN
  INSERT INTO faq_search (faq_search, rowid, question, answer) VALUES ('delete', old.id, old.question, old.answer);
  INSERT INTO faq_search (rowid, question, answer) VALUES (new.id, new.question, new.answer);
END;

-- One row; every content change moves it so cached responses keyed by it are never served stale.
CREATE TABLE content_version (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO content_version (id, version) VALUES (1, 1);
CREATE TRIGGER entities_version_insert AFTER INSERT ON entities BEGIN UPDATE content_version SET version = version + 1; END;
CREATE TRIGGER entities_version_update AFTER UPDATE ON entities BEGIN UPDATE content_version SET version = version + 1; END;
CREATE TRIGGER entities_version_delete AFTER DELETE ON entities BEGIN UPDATE content_version SET version = version + 1; END;
CREATE TRIGGER faqs_version_insert AFTER INSERT ON faqs BEGIN UPDATE content_version SET version = version + 1; END;
CREATE TRIGGER faqs_version_update AFTER UPDATE ON faqs BEGIN UPDATE content_version SET version = version + 1; END;
CREATE TRIGGER faqs_version_delete AFTER DELETE ON faqs BEGIN UPDATE content_version SET version = version + 1; END;

-- Access: organizations see the entities in their scope (a scoped brand brings its properties).
CREATE TABLE organizations (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE organization_scopes (
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  entity_id       TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  PRIMARY KEY (organization_id, entity_id)
);

-- Identity clients of the built-in realm; secrets are stored as SHA-256 only.
CREATE TABLE identity_clients (
  client_id       TEXT PRIMARY KEY,
  secret_hash     TEXT NOT NULL,
  organization_id TEXT REFERENCES organizations (id) ON DELETE SET NULL,
  created_at      TEXT NOT NULL
);

-- Partner API keys; the key itself is shown once and stored as SHA-256.
CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  key_hash     TEXT NOT NULL UNIQUE,
  partner      TEXT NOT NULL,
  hourly_limit INTEGER NOT NULL DEFAULT 1000 CHECK (hourly_limit > 0),
  expires_at   TEXT,
  revoked_at   TEXT,
  created_at   TEXT NOT NULL
);
