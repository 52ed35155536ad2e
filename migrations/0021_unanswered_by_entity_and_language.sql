-- The entity a question was asked of (when the tool had one) and its language (the one the caller named, else the
-- one its words show), so a hotel's content team sees its own guests' questions in their language. Both are
-- nullable: counts written before this migration, and questions asked of no entity or in no recognised language,
-- have none. The key grows by both, so the table is rebuilt (SQLite cannot change a primary key); the counts are
-- kept as they are, with the same redaction and the same 30-day retention (src/upkeep.ts).
CREATE TABLE unanswered_questions_new (
  organization_id TEXT NOT NULL,
  day             TEXT NOT NULL,
  question        TEXT NOT NULL,
  tool            TEXT NOT NULL,
  entity_id       TEXT,
  language        TEXT,
  count           INTEGER NOT NULL,
  last_seen_at    TEXT NOT NULL
);
INSERT INTO unanswered_questions_new (organization_id, day, question, tool, count, last_seen_at)
  SELECT organization_id, day, question, tool, count, last_seen_at FROM unanswered_questions;
DROP TABLE unanswered_questions;
ALTER TABLE unanswered_questions_new RENAME TO unanswered_questions;
-- One row per organization, day, question, tool, entity and language; a missing entity or language counts as one value.
CREATE UNIQUE INDEX unanswered_questions_key
  ON unanswered_questions (organization_id, day, question, tool, coalesce(entity_id, ''), coalesce(language, ''));
CREATE INDEX unanswered_questions_by_day ON unanswered_questions (day);
-- The console lists an organization's questions of the entities a person may see.
CREATE INDEX unanswered_questions_by_entity ON unanswered_questions (organization_id, entity_id, day);
