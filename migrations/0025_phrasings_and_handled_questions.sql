-- The ways guests ask an FAQ, verbatim short questions in any language, as a JSON array of text on the FAQ's row in
-- its entity's default language (translations keep '[]'). Their analysed terms are indexed with the question's.
ALTER TABLE faqs ADD COLUMN phrasings TEXT NOT NULL DEFAULT '[]';

-- What a content team did about a question guests could not get answered, per entity and question as counted
-- (src/search/unanswered.ts), whichever organization's guests asked it, since it is about the entity's content:
-- attached to an FAQ as a way guests ask it, answered by a new FAQ, or dismissed; by whom and when, and the FAQ's
-- question (in its entity's default language) when there is one. The counts stay in unanswered_questions; a
-- handled question is listed as handled, not as open. Kept as long as its counts: the daily upkeep deletes those
-- no count is left of (src/upkeep.ts).
CREATE TABLE unanswered_outcomes (
  entity_id    TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  question     TEXT NOT NULL,
  outcome      TEXT NOT NULL CHECK (outcome IN ('attached', 'answered', 'dismissed')),
  faq_question TEXT,
  actor        TEXT NOT NULL,
  at           TEXT NOT NULL,
  PRIMARY KEY (entity_id, question)
);
