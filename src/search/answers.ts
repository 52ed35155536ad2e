import type { D1Reader } from "../storage/reader";
import { entityFaqRows, scopeCandidateRows, type IndexedFaqRow, type ShownFaq } from "../storage/scoped-content";
import type { EntityKind } from "../storage/entities";
import { ANALYZER_VERSION } from "./analyze";
import { judge, type Confidence } from "./confidence";
import { languageOf } from "./languages";
import { phrasedBy, phrasedFaqTerms } from "./phrasings";
import { rankingInput, type QueryPlan } from "./plan";
import { rankRows, type Ranking, type RankRow } from "./rank";

/**
 * A question answered from what the caller may see: one entity's FAQs, or a whole scope's (a brand with its
 * hotels, or everything an organization sees). The one path every surface that answers a question takes: the MCP
 * tools, ChatGPT's search, the console's "ask as a guest". It reads the rows (storage), ranks them (rank.ts) and
 * judges how sure it is (confidence.ts).
 */

export interface FoundFaq extends ShownFaq {
  entity_id: string;
  entity_name: string;
  entity_url: string | null;
  /** How well it matched: for ordering only, never shown (a score says nothing across questions). */
  score: number;
}

export interface Answer {
  /** The FAQs that match, best first; none when the confidence is "none". */
  found: FoundFaq[];
  confidence: Confidence;
}

interface EntityRef {
  id: string;
  name: string;
  url: string | null;
}

/** A row as the ranking reads it: analysed again, from its text, when an older analysis wrote its terms. */
const rankable = <T extends IndexedFaqRow>(row: T, faq: string): T & RankRow => ({
  ...row,
  faq,
  ...(row.analyzer < ANALYZER_VERSION ? phrasedFaqTerms(row, languageOf(row.language)) : {}),
});

/**
 * The ranking and confidence for `question`: when the question is one of the ways guests ask an FAQ of `rows`
 * (src/search/phrasings.ts), that FAQ first and `high`, whatever the ranking and the models say; else the
 * ranking as it is, judged (confidence.ts).
 */
function judged<R extends RankRow & IndexedFaqRow>(
  plan: QueryPlan,
  ranking: Ranking<R>,
  rows: readonly R[],
  question: string | undefined,
): { ranked: { row: R; score: number }[]; confidence: Confidence } {
  const phrased = question === undefined ? undefined : phrasedBy(question, rows);
  if (!phrased) return { ranked: ranking.ranked, confidence: judge(plan, ranking) };
  const rest = ranking.ranked.filter((r) => r.row.faq !== phrased.faq);
  return { ranked: [{ row: phrased, score: Math.max(0, ...ranking.ranked.map((r) => r.score)) }, ...rest], confidence: "high" };
}

/** Per position, the row to show: the first of `languages` it is translated into, else its default language's. */
function shownRows(rows: readonly IndexedFaqRow[], languages: readonly string[]): Map<number, ShownFaq> {
  const priority = (row: IndexedFaqRow) =>
    row.translation === 0 ? languages.length : languages.findIndex((l) => l.toLowerCase() === row.language.toLowerCase());
  const shown = new Map<number, { row: IndexedFaqRow; source: IndexedFaqRow }>();
  for (const row of rows) {
    const current = shown.get(row.position);
    if (row.translation === 0) shown.set(row.position, { row: current?.row ?? row, source: row });
    else if (current && priority(row) >= 0 && priority(row) < priority(current.row)) shown.set(row.position, { ...current, row });
  }
  return new Map(
    [...shown].map(([position, { row, source }]) => [
      position,
      {
        question: row.question,
        answer: row.answer,
        language: row.language,
        translation: row.translation,
        source_question: source.question,
        category: source.category,
      },
    ]),
  );
}

/**
 * One entity's FAQs for `plan`: those that match best first, then (`others`) the rest in stored order; when nothing
 * answers, none is found and every FAQ is among the others, for browsing.
 */
export async function answerInEntity(
  db: D1Reader,
  plan: QueryPlan,
  entity: EntityRef,
  options: { languages: string[]; category?: string; question?: string },
): Promise<Answer & { others: FoundFaq[] }> {
  const rows = (await entityFaqRows(db, entity.id, options)).map((row) => rankable(row, String(row.position)));
  const { ranked, confidence } = judged(plan, rankRows(plan, rows), rows, options.question);
  const shown = shownRows(rows, options.languages);
  const asFound = (position: number, score: number): FoundFaq => ({
    ...shown.get(position)!,
    entity_id: entity.id,
    entity_name: entity.name,
    entity_url: entity.url,
    score,
  });
  const found = confidence === "none" ? [] : ranked.map((r) => asFound(r.row.position, r.score));
  const foundPositions = new Set(confidence === "none" ? [] : ranked.map((r) => r.row.position));
  const others = [...shown.keys()].filter((p) => !foundPositions.has(p)).map((p) => asFound(p, 0));
  return { found, others, confidence };
}

/**
 * The FAQs of the organization's scope (of one entity and its hotels, of a kind or a category, when asked) for
 * `plan`, best first; none when nothing answers.
 */
export async function answerInScope(
  db: D1Reader,
  plan: QueryPlan,
  organizationId: string,
  options: { languages: string[]; entityId?: string; kind?: EntityKind; category?: string; question?: string },
): Promise<Answer> {
  if (plan.groups.length === 0) return { found: [], confidence: "none" };
  const { documents, frequencies, rows } = await scopeCandidateRows(db, organizationId, rankingInput(plan, options.languages), options);
  const candidates = rows.map((row) => rankable(row, `${row.entity_id}\u0000${row.position}`));
  const { ranked, confidence } = judged(plan, rankRows(plan, candidates, { documents, frequencies }), candidates, options.question);
  if (confidence === "none") return { found: [], confidence };
  return {
    found: ranked.map(({ row, score }) => ({
      ...row.shown,
      entity_id: row.entity_id,
      entity_name: row.entity_name,
      entity_url: row.entity_url,
      score,
    })),
    confidence,
  };
}
