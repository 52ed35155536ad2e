-- A property's FAQs carry their brand's scope key too, so a brand in an organization's scope is one key in
-- the search expression however many properties it has (per-entity keys made a 1,200-property brand an
-- expression of 1,201 keys). faqs.brand_id repeats the entity's brand: written with the FAQ, corrected by
-- a trigger if an insert left it out, and rewritten when a property moves to another brand.
DROP TRIGGER faqs_search_insert;
DROP TRIGGER faqs_search_delete;
DROP TRIGGER faqs_search_update;
DROP TABLE faq_search;
ALTER TABLE faqs DROP COLUMN scope_key;
ALTER TABLE faqs ADD COLUMN brand_id TEXT;
UPDATE faqs SET brand_id = (SELECT e.brand_id FROM entities e WHERE e.id = faqs.entity_id);
ALTER TABLE faqs ADD COLUMN scope_key TEXT GENERATED ALWAYS AS ('k' || hex(entity_id) || coalesce(' k' || hex(brand_id), '')) VIRTUAL;
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
CREATE TRIGGER faqs_brand_on_insert AFTER INSERT ON faqs
  WHEN new.brand_id IS NOT (SELECT e.brand_id FROM entities e WHERE e.id = new.entity_id)
BEGIN
  UPDATE faqs SET brand_id = (SELECT e.brand_id FROM entities e WHERE e.id = new.entity_id) WHERE id = new.id;
END;
CREATE TRIGGER entities_brand_of_faqs AFTER UPDATE OF brand_id ON entities
  WHEN new.brand_id IS NOT old.brand_id
BEGIN
  UPDATE faqs SET brand_id = new.brand_id WHERE entity_id = new.id;
END;
INSERT INTO faq_search (faq_search) VALUES ('rebuild');
