-- Every change made through the operator API: who (a fingerprint of the operator token, never the
-- token), what, to what, when.
CREATE TABLE admin_audit (
  id     INTEGER PRIMARY KEY,
  at     TEXT NOT NULL,
  actor  TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  detail TEXT
);
CREATE INDEX admin_audit_by_target ON admin_audit (target, id);

-- Content imports being uploaded in chunks. Rows wait here, each with its validation errors, until
-- the import is committed (all at once) or discarded; nothing reaches the content tables before.
CREATE TABLE content_imports (
  id         TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  actor      TEXT NOT NULL
);
CREATE TABLE content_import_rows (
  import_id TEXT NOT NULL REFERENCES content_imports (id) ON DELETE CASCADE,
  line      INTEGER NOT NULL,
  entity_id TEXT,
  record    TEXT NOT NULL,
  errors    TEXT,
  PRIMARY KEY (import_id, line)
);
