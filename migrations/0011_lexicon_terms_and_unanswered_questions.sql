-- Terms an operator adds to the hospitality lexicon of this deployment (brand words, local words), besides the
-- built-in ones of src/search/lexicon.json: a concept (one of the built-in ones or a new one), its kind, the
-- language, the term as written.
CREATE TABLE lexicon_terms (
  concept    TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('topic', 'facet')),
  language   TEXT NOT NULL,
  term       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (concept, language, term)
);

-- Questions the content did not answer, or only weakly, counted per organization, day and normalised question
-- (personal data such as e-mail addresses and phone numbers removed before it is stored). Rows older than 30
-- days are never shown and are deleted by the daily upkeep (src/upkeep.ts).
CREATE TABLE unanswered_questions (
  organization_id TEXT NOT NULL,
  day             TEXT NOT NULL,
  question        TEXT NOT NULL,
  tool            TEXT NOT NULL,
  count           INTEGER NOT NULL,
  last_seen_at    TEXT NOT NULL,
  PRIMARY KEY (organization_id, day, question, tool)
);
CREATE INDEX unanswered_questions_by_day ON unanswered_questions (day);
