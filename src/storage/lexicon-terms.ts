import type { D1Reader } from "./reader";

/** SQL for `lexicon_terms`: what an operator added to the built-in lexicon. */

export interface LexiconTermRow {
  concept: string;
  kind: "topic" | "facet";
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

export const deleteLexiconTerm = (db: D1Database, key: Pick<LexiconTermRow, "concept" | "language" | "term">): D1PreparedStatement =>
  db.prepare("DELETE FROM lexicon_terms WHERE concept = ? AND language = ? AND term = ?").bind(key.concept, key.language, key.term);
