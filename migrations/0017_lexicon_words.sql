-- The lexicon gains a third kind of concept besides topics and facets: a word with its equivalents (synonyms,
-- spellings, the same word in other languages: src/search/words.json), so an operator may add a hotel's own words
-- to it; a word and a topic may share a name, so the kind is part of the key. SQLite cannot change a CHECK constraint or
-- a primary key in place: the table is made again with its rows.
CREATE TABLE lexicon_terms_new (
  concept    TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('topic', 'facet', 'word')),
  language   TEXT NOT NULL,
  term       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (kind, concept, language, term)
);
INSERT INTO lexicon_terms_new (concept, kind, language, term, created_at) SELECT concept, kind, language, term, created_at FROM lexicon_terms;
DROP TABLE lexicon_terms;
ALTER TABLE lexicon_terms_new RENAME TO lexicon_terms;
