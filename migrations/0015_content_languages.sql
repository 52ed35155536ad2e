-- Content in several languages (BCP 47 tags). Each entity has a default language, the one its name and FAQs are
-- written in (English for everything stored so far), and may name itself otherwise in other languages
-- (`translated_names`: a JSON object of tag to name, written by imports).
ALTER TABLE entities ADD COLUMN default_language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE entities ADD COLUMN translated_names TEXT NOT NULL DEFAULT '{}';

-- An FAQ's translations are rows of `faqs` beside it: the same entity and position, another `language`, and
-- `translation` 1; the row in the entity's default language has `translation` 0. A position may now hold one row
-- per language, so the table is rebuilt with that key; ids are kept, and with them the full-text index's rows.
-- The index keys every row by its language (`l` and the hex of the tag) and the rows in their entity's default
-- language by `lsource` too, besides the entity's and brand's scope keys it shares with its source: a search
-- admits the languages it asks for together with the caller's scope, so a translation is found exactly where its
-- source is, and a search in no particular language finds the rows it always found.
DROP TRIGGER faqs_search_insert;
DROP TRIGGER faqs_search_delete;
DROP TRIGGER faqs_search_update;
DROP TRIGGER faqs_brand_on_insert;
DROP TRIGGER entities_brand_of_faqs;
DROP TABLE faq_search;

CREATE TABLE faqs_in_languages (
  id          INTEGER PRIMARY KEY,
  entity_id   TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  language    TEXT NOT NULL DEFAULT 'en',
  translation INTEGER NOT NULL DEFAULT 0 CHECK (translation IN (0, 1)),
  category    TEXT NOT NULL,
  question    TEXT NOT NULL,
  answer      TEXT NOT NULL,
  brand_id    TEXT,
  terms_q     TEXT NOT NULL DEFAULT '',
  terms_a     TEXT NOT NULL DEFAULT '',
  terms_c     TEXT NOT NULL DEFAULT '',
  analyzer    INTEGER NOT NULL DEFAULT 0,
  scope_key   TEXT GENERATED ALWAYS AS (
    'k' || hex(entity_id) || coalesce(' k' || hex(brand_id), '') || ' l' || hex(lower(language))
      || CASE translation WHEN 0 THEN ' lsource' ELSE '' END
  ) VIRTUAL,
  UNIQUE (entity_id, position, language)
);
INSERT INTO faqs_in_languages (id, entity_id, position, category, question, answer, brand_id, terms_q, terms_a, terms_c, analyzer)
  SELECT id, entity_id, position, category, question, answer, brand_id, terms_q, terms_a, terms_c, analyzer FROM faqs;
DROP TABLE faqs;
ALTER TABLE faqs_in_languages RENAME TO faqs;
-- One row per position in the default language.
CREATE UNIQUE INDEX faqs_source_position ON faqs (entity_id, position) WHERE translation = 0;

-- What dropping the old table took with it, as migrations 0007 and 0009 wrote it.
CREATE TRIGGER faqs_version_insert AFTER INSERT ON faqs BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
CREATE TRIGGER faqs_version_update AFTER UPDATE ON faqs BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
CREATE TRIGGER faqs_version_delete AFTER DELETE ON faqs BEGIN UPDATE content_version SET version = version + 1, epoch = lower(hex(randomblob(8))); END;
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
