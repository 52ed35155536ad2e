-- Scope-first search: each FAQ's entity is indexed with its text as a scope key ('k' and the hex of the
-- entity ID: one token the tokenizer never splits, which no word of a question can spell). A search matches
-- the caller's keys together with the words, so FTS5 only finds and ranks FAQs in scope, and the cost
-- follows the caller's content, not the whole catalogue's. The key weighs nothing in bm25, so the ranking
-- of the words is what it was. The index is rebuilt from the FAQ rows, as it always can be.
DROP TRIGGER faqs_search_insert;
DROP TRIGGER faqs_search_delete;
DROP TRIGGER faqs_search_update;
DROP TABLE faq_search;
ALTER TABLE faqs ADD COLUMN scope_key TEXT GENERATED ALWAYS AS ('k' || hex(entity_id)) VIRTUAL;
CREATE VIRTUAL TABLE faq_search USING fts5 (
  question, answer, scope_key,
  content = 'faqs', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER faqs_search_insert AFTER INSERT ON faqs BEGIN
  INSERT INTO faq_search (rowid, question, answer, scope_key) VALUES (new.id, new.question, new.answer, new.scope_key);
END;
CREATE TRIGGER faqs_search_delete AFTER DELETE ON faqs BEGIN
  INSERT INTO faq_search (faq_search, rowid, question, answer, scope_key) VALUES ('delete', old.id, old.question, old.answer, old.scope_key);
END;
CREATE TRIGGER faqs_search_update AFTER UPDATE ON faqs BEGIN
  INSERT INTO faq_search (faq_search, rowid, question, answer, scope_key) VALUES ('delete', old.id, old.question, old.answer, old.scope_key);
  INSERT INTO faq_search (rowid, question, answer, scope_key) VALUES (new.id, new.question, new.answer, new.scope_key);
END;
INSERT INTO faq_search (faq_search) VALUES ('rebuild');
