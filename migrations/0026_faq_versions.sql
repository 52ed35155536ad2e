-- Every version of every FAQ, written in the same D1 batch as the change that made it (an edit, a restore, an
-- import), so an earlier text, its translations, or a removed FAQ can be brought back. `faq_id` names one FAQ
-- through its rewordings; `question_key` is the version's question as duplicates are compared, by which the next
-- change finds the FAQ's `faq_id`. `faq` is the FAQ with its translations (LocalizedFaq as JSON); a removal keeps
-- the FAQ as it was. `actor` is null for the text an FAQ had before its first recorded change.
CREATE TABLE faq_versions (
  id           INTEGER PRIMARY KEY,
  faq_id       TEXT NOT NULL,
  entity_id    TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  position     INTEGER NOT NULL,
  question_key TEXT NOT NULL,
  faq          TEXT NOT NULL,
  removed      INTEGER NOT NULL DEFAULT 0,
  at           TEXT NOT NULL,
  actor        TEXT,
  action       TEXT NOT NULL
);
CREATE INDEX faq_versions_by_entity ON faq_versions (entity_id, question_key, id);
CREATE INDEX faq_versions_by_faq ON faq_versions (faq_id, id);
CREATE INDEX faq_versions_by_age ON faq_versions (at);
