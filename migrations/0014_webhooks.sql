-- Partner webhook endpoints: where content changes of some brands are delivered as signed events (Standard Webhooks).
-- The signing secret is kept sealed (AES-256-GCM under KEY_ENCRYPTION_KEY, bound to the endpoint's ID) because every
-- delivery signs with it. `cursor_seq` is the last content_changes.seq the endpoint's events cover.
CREATE TABLE webhook_endpoints (
  id              TEXT PRIMARY KEY,
  url             TEXT NOT NULL,
  description     TEXT,
  secret_sealed   TEXT NOT NULL,
  api_origin      TEXT NOT NULL,
  cursor_seq      INTEGER NOT NULL,
  last_success_at TEXT,
  disabled_at     TEXT,
  disabled_reason TEXT,
  created_at      TEXT NOT NULL
);
CREATE TABLE webhook_endpoint_brands (
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  brand_id    TEXT NOT NULL,
  PRIMARY KEY (endpoint_id, brand_id)
);

-- One event for one endpoint (its ID is the webhook-id header), retried until delivered or dead.
CREATE TABLE webhook_deliveries (
  id              TEXT PRIMARY KEY,
  endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_type      TEXT NOT NULL,
  payload         TEXT NOT NULL,
  change_count    INTEGER NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  created_at      TEXT NOT NULL,
  finished_at     TEXT
);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);
CREATE INDEX webhook_deliveries_by_status ON webhook_deliveries (status, next_attempt_at);

-- The delivery log: every attempt, its answer or why there was none.
CREATE TABLE webhook_attempts (
  delivery_id     TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt         INTEGER NOT NULL,
  at              TEXT NOT NULL,
  response_status INTEGER,
  error           TEXT,
  duration_ms     INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);
