import type { D1Reader } from "./reader";

/** SQL for `lexicon_terms`: what an operator added to the built-in lexicon. */

/** The kinds of concept (src/search/lexicon.ts): what an FAQ is about, the kind of answer asked for, a word and its equivalents. */
export const CONCEPT_KINDS = ["topic", "facet", "word"] as const;
export type ConceptKind = (typeof CONCEPT_KINDS)[number];

export interface LexiconTermRow {
  concept: string;
  kind: ConceptKind;
  language: string;
  term: string;
  created_at: string;
}

export async function listLexiconTerms(db: D1Reader): Promise<LexiconTermRow[]> {
  const { results } = await db
    .prepare("SELECT concept, kind, language, term, created_at FROM lexicon_terms ORDER BY concept, language, term")
    .all<LexiconTermRow>();
  return results;
}

export const insertLexiconTerm = (db: D1Database, row: LexiconTermRow): D1PreparedStatement =>
  db
    .prepare("INSERT INTO lexicon_terms (concept, kind, language, term, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(row.concept, row.kind, row.language, row.term, row.created_at);

export const deleteLexiconTerm = (
  db: D1Database,
  key: Pick<LexiconTermRow, "kind" | "concept" | "language" | "term">,
): D1PreparedStatement =>
  db
    .prepare("DELETE FROM lexicon_terms WHERE kind = ? AND concept = ? AND language = ? AND term = ?")
    .bind(key.kind, key.concept, key.language, key.term);
