-- Search by analysed text. Each FAQ keeps its question, answer and category as analysed tokens (src/search:
-- case and diacritics folded, stop words out, Snowball stems, compounds also joined), written by the Worker with
-- the FAQ, each token between spaces; the FTS5 index is built over them and stays derived data. `analyzer` is
-- the version of the analysis a row was written with: rows written before this migration get their text folded
-- by lower() (0) until `npm run admin -- search reindex` analyses them, which a deployment runs once after it.
DROP TRIGGER faqs_search_insert;
DROP TRIGGER faqs_search_delete;
DROP TRIGGER faqs_search_update;
DROP TABLE faq_search;
ALTER TABLE faqs ADD COLUMN terms_q TEXT NOT NULL DEFAULT '';
ALTER TABLE faqs ADD COLUMN terms_a TEXT NOT NULL DEFAULT '';
ALTER TABLE faqs ADD COLUMN terms_c TEXT NOT NULL DEFAULT '';
ALTER TABLE faqs ADD COLUMN analyzer INTEGER NOT NULL DEFAULT 0;
UPDATE faqs SET terms_q = ' ' || lower(question) || ' ', terms_a = ' ' || lower(answer) || ' ', terms_c = ' ' || lower(category) || ' ';
CREATE VIRTUAL TABLE faq_search USING fts5 (
  terms_q, terms_a, scope_key,
  content = 'faqs', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER faqs_search_insert AFTER INSERT ON faqs BEGIN
  INSERT INTO faq_search (rowid, terms_q, terms_a, scope_key) VALUES (new.id, new.terms_q, new.terms_a, new.scope_key);
END;
CREATE TRIGGER faqs_search_delete AFTER DELETE ON faqs BEGIN
  INSERT INTO faq_search (faq_search, rowid, terms_q, terms_a, scope_key) VALUES ('delete', old.id, old.terms_q, old.terms_a, old.scope_key);
END;
CREATE TRIGGER faqs_search_update AFTER UPDATE ON faqs BEGIN
  INSERT INTO faq_search (faq_search, rowid, terms_q, terms_a, scope_key) VALUES ('delete', old.id, old.terms_q, old.terms_a, old.scope_key);
  INSERT INTO faq_search (rowid, terms_q, terms_a, scope_key) VALUES (new.id, new.terms_q, new.terms_a, new.scope_key);
END;
INSERT INTO faq_search (faq_search) VALUES ('rebuild');
