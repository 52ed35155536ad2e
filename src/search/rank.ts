import { termString } from "./analyze";
import { answersWith } from "./answer-types";
import type { Alternative, QueryGroup, QueryPlan } from "./plan";
import { typoDistance } from "./spelling";
import weights from "./weights.json";

/**
 * The ranking of FAQs for a question (plan.ts), FAQ by FAQ: pure, over the rows the caller may see (one entity's
 * FAQs, or the candidates a search of a whole scope chose in D1). Per FAQ it weighs:
 *
 * - each group of the question by BM25F over the FAQ's analysed question, answer and category (k1, a weight and
 *   a length normalisation per field), by its best alternative, and by its rarity among the rows (IDF), so the
 *   word that tells near-duplicates apart ("heated", "adults") counts more than the topic they share ("pool");
 * - the question's topics: an FAQ whose question or category is about one gains what the plan says;
 * - the kind of answer asked for: "how much" prefers an answer with a price, "what time" one with a time;
 * - the FAQ's own question words the question did not ask about (weighted by rarity): "Is the adults-only pool
 *   heated?" is not the answer to "is the pool heated" when "Is the main pool heated?" is there.
 *
 * A word of the question no row has may be a misspelling of one that a row has (a letter off, two in a long
 * word, the first letter right): it is then searched as that word, weighing less.
 */

export const RANK_WEIGHTS = weights.rank;

/** What the ranking reads of an FAQ row: which FAQ it is (its translations are the same FAQ), its terms and answer. */
export interface RankRow {
  faq: string;
  terms_q: string;
  terms_a: string;
  terms_c: string;
  answer: string;
}

/** Document frequencies from the whole set searched, when the rows are only some of it (a scope's candidates). */
export interface RankStats {
  documents: number;
  /** By group key: how many documents hold one of its alternatives in their question or answer. */
  frequencies: ReadonlyMap<string, number>;
}

export interface RankedFaq<R extends RankRow> {
  /** The FAQ's best row. */
  row: R;
  score: number;
  /** The share of the question (its words by weight and rarity) the FAQ matches anywhere, and in its question or category. */
  coverage: number;
  questionCoverage: number;
  /** Whether one of the question's own words (not only a topic's terms) matched. */
  literal: boolean;
  /** Whether it is about a topic of the question. */
  topical: boolean;
  /** Whether only learned associations found it (no word of the question, no lexicon term, no topic). */
  learnedOnly: boolean;
}

export interface Ranking<R extends RankRow> {
  /** Best first; FAQs nothing matched are left out. */
  ranked: RankedFaq<R>[];
  /** The topics the question names that no row is about (in its question or category). */
  absentTopics: string[];
  /**
   * The share of what the question says (its words by weight, rarity and whether they are hotel words) that no row
   * holds in any spelling or language the plan searches: what the content never mentions.
   */
  unmentioned: number;
  /** Whether the question names a thing a hotel has (a sauna, a cash machine) that no row mentions. */
  absentThing: boolean;
}

/** How many times `pattern` (` a  b `) occurs in the term string `terms`. */
export function occurrences(terms: string, pattern: string): number {
  let count = 0;
  for (let at = terms.indexOf(pattern); at >= 0; at = terms.indexOf(pattern, at + pattern.length)) count++;
  return count;
}

const tokensOf = (terms: string): string[] => terms.split(" ").filter((t) => t !== "");
const idf = (documents: number, frequency: number) => Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));

/** A field of a row, read once: its term string, each token's count, and its length in tokens. */
interface Field {
  terms: string;
  counts: Map<string, number>;
  length: number;
}

function field(terms: string): Field {
  const counts = new Map<string, number>();
  const tokens = tokensOf(terms);
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return { terms, counts, length: tokens.length };
}

/** How many times an alternative occurs in a field: a token by its count, a phrase in the term string. */
const countIn = (f: Field, a: Alternative): number =>
  a.phrase.includes(" ") ? occurrences(f.terms, a.pattern) : (f.counts.get(a.phrase) ?? 0);

const MIN_SPELLING_LENGTH = 4;

/** Letters a misspelt word may run on past a stem it starts with ("parkng" is "park", "hotell" "hotel"). */
const MAX_OVERRUN = 3;

/**
 * The rows' tokens `token` misspells: within a letter of it (two from 8 letters), or a stem of four letters or more
 * it starts with and overruns by a few letters (the stemmer leaves a misspelt word whole); the first letter right.
 */
function spellings(token: string, vocabulary: ReadonlyMap<string, number>): string[] {
  if (token.length < MIN_SPELLING_LENGTH) return [];
  const allowed = token.length >= 8 ? 2 : 1;
  return [...vocabulary.keys()].filter(
    (word) =>
      word[0] === token[0] &&
      word !== token &&
      ((Math.abs(word.length - token.length) <= allowed && typoDistance(word, token) <= allowed) ||
        (word.length >= MIN_SPELLING_LENGTH && token.startsWith(word) && token.length - word.length <= MAX_OVERRUN)),
  );
}

/** Rows read for ranking: each field's tokens counted once, whatever is asked of them. */
export interface Prepared<R> {
  row: R;
  q: Field;
  a: Field;
  c: Field;
}

export const prepareRows = <R extends RankRow>(rows: readonly R[]): Prepared<R>[] =>
  rows.map((row) => ({ row, q: field(row.terms_q), a: field(row.terms_a), c: field(row.terms_c) }));

/** Whether a row holds one of a group's alternatives in its question or answer: what a document frequency counts. */
const holds = (p: Prepared<RankRow>, g: QueryGroup) => g.alternatives.some((a) => countIn(p.q, a) + countIn(p.a, a) > 0);

export const rankRows = <R extends RankRow>(plan: QueryPlan, rows: readonly R[], stats?: RankStats): Ranking<R> =>
  rankPrepared(plan, prepareRows(rows), stats);

export function rankPrepared<R extends RankRow>(plan: QueryPlan, prepared: readonly Prepared<R>[], stats?: RankStats): Ranking<R> {
  const W = RANK_WEIGHTS;
  const rows = prepared.map((p) => p.row);
  // How many rows hold each token, in their question or answer: its rarity, and the words a misspelling may mean.
  const tokenRows = new Map<string, number>();
  for (const p of prepared)
    for (const t of new Set([...p.q.counts.keys(), ...p.a.counts.keys()])) tokenRows.set(t, (tokenRows.get(t) ?? 0) + 1);
  // A word of the question no row holds is also searched as the rows' words it misspells.
  const groups = plan.groups.map((group) => {
    if (group.own.length === 0 || prepared.some((p) => holds(p, group))) return group;
    const corrected = group.own.flatMap((token) => spellings(token, tokenRows));
    if (corrected.length === 0) return group;
    const alternatives: Alternative[] = corrected.map((t) => ({ phrase: t, pattern: termString([t]), weight: weights.plan.spelling }));
    return { ...group, key: `${group.key}~`, alternatives: [...group.alternatives, ...alternatives] };
  });
  const documents = Math.max(1, stats?.documents ?? rows.length);
  // Each alternative of a word weighs by its own rarity among the rows ("checkout" more than "room" in one group), or
  // by its group's when the rows are a scope's candidates and only the group's frequency in the scope is known.
  const held = (p: Prepared<RankRow>, a: Alternative) => countIn(p.q, a) + countIn(p.a, a) > 0;
  // A topic's terms all say the same (the FAQ is about the topic): they weigh by how many FAQs hold any of them.
  const rarity = new Map(
    groups.map((g) => {
      const known = stats?.frequencies.get(g.key) ?? (g.key.startsWith("t:") ? prepared.filter((p) => holds(p, g)).length : undefined);
      return [g, new Map(g.alternatives.map((a) => [a, a.weight * idf(documents, known ?? prepared.filter((p) => held(p, a)).length)]))];
    }),
  );
  /** What a group weighs at most: its weight times its best alternative's weight and rarity. */
  const mass = (g: QueryGroup) => g.weight * Math.max(0, ...rarity.get(g)!.values());
  // What a group says about what is asked: its weight and rarity, and whether it is a word hotels use (plan.ts).
  const said = (g: QueryGroup) => mass(g) * g.salience;
  const questionMass = groups.filter((g) => g.key.startsWith("w:")).reduce((sum, g) => sum + said(g), 0);
  const totalMass = groups.reduce((sum, g) => sum + mass(g), 0) * (W.k1 + 1);
  const average = {
    q: Math.max(1, prepared.reduce((s, p) => s + p.q.length, 0) / Math.max(1, rows.length)),
    a: Math.max(1, prepared.reduce((s, p) => s + p.a.length, 0) / Math.max(1, rows.length)),
  };
  // What the question asks about, and how it asks ("what time": an FAQ asking "What time is..." is not about more).
  const searched = new Set([...groups.flatMap((g) => g.alternatives.flatMap((a) => a.phrase.split(" "))), ...plan.kindTokens]);
  const tokenIdf = (t: string) => idf(rows.length, tokenRows.get(t) ?? 0);

  const best = new Map<string, RankedFaq<R>>();
  for (const { row, q, a: answer, c } of prepared) {
    const normQ = 1 - W.bQuestion + (W.bQuestion * q.length) / average.q;
    const normA = 1 - W.bAnswer + (W.bAnswer * answer.length) / average.a;
    let sum = 0;
    let covered = 0;
    let coveredInQuestion = 0;
    let literal = false;
    let foundOwn = false;
    for (const g of groups) {
      let value = 0;
      // The weight and rarity of the best alternative found, and of the best found in the FAQ's question or category.
      let found = 0;
      let foundInQuestion = 0;
      for (const a of g.alternatives) {
        const tfQ = countIn(q, a);
        const tfA = countIn(answer, a);
        const tfC = countIn(c, a);
        const tf = (W.question * tfQ) / normQ + (W.answer * tfA) / normA + W.category * tfC;
        if (tf === 0) continue;
        if (!a.learned) foundOwn = true;
        const weighed = rarity.get(g)!.get(a)!;
        value = Math.max(value, (weighed * tf * (W.k1 + 1)) / (tf + W.k1));
        // A word of a phrase found alone covers what it weighs alone, never the whole phrase; a learned association
        // ranks but covers nothing: what the question asks is covered by its own words and the lexicon's.
        const covers = a.learned ? 0 : a.partial ? weighed / g.alternatives.length : weighed;
        found = Math.max(found, covers);
        if (tfQ + tfC > 0) foundInQuestion = Math.max(foundInQuestion, covers);
      }
      if (value === 0) continue;
      sum += g.weight * value;
      if (g.key.startsWith("w:")) {
        covered += g.weight * g.salience * found;
        coveredInQuestion += g.weight * g.salience * foundInQuestion;
        literal = true;
      }
    }
    const about = plan.topics.filter((t) => t.patterns.some((p) => row.terms_q.includes(p) || row.terms_c.includes(p)));
    if (sum === 0 && about.length === 0) continue;
    const boost = Math.max(0, ...about.map((t) => t.boost));
    const kinds = plan.kinds.filter((kind) => answersWith(kind, row.answer)).length;
    let ownWeight = 0;
    let unasked = 0;
    for (const [t, n] of q.counts) {
      ownWeight += n * tokenIdf(t);
      if (!searched.has(t)) unasked += n * tokenIdf(t);
    }
    const score =
      (totalMass > 0 ? sum / totalMass : 0) +
      boost +
      (plan.kinds.length > 0 ? (W.answerKind * kinds) / plan.kinds.length : 0) -
      (ownWeight > 0 ? (W.unmatched * unasked) / ownWeight : 0);
    const ranked: RankedFaq<R> = {
      row,
      score,
      coverage: questionMass > 0 ? covered / questionMass : 0,
      questionCoverage: questionMass > 0 ? coveredInQuestion / questionMass : 0,
      literal,
      topical: about.length > 0,
      learnedOnly: !foundOwn && about.length === 0,
    };
    const previous = best.get(row.faq);
    if (!previous || ranked.score > previous.score) best.set(row.faq, ranked);
  }
  // A topic is in the content when an FAQ is about it (its question or category): an answer may name it in passing.
  const covered = (patterns: string[]) => rows.some((r) => patterns.some((p) => r.terms_q.includes(p) || r.terms_c.includes(p)));
  const absentTopics = plan.topics.filter((t) => !covered(t.patterns)).map((t) => t.concept);
  const mentioned = (g: QueryGroup) =>
    prepared.some((p) => g.alternatives.some((a) => !a.partial && !a.learned && countIn(p.q, a) + countIn(p.a, a) + countIn(p.c, a) > 0));
  // A word no row holds is still mentioned when it names a topic the rows are about ("car" where parking is).
  const unheld = groups.filter((g) => g.key.startsWith("w:") && !g.topics.some((t) => !absentTopics.includes(t)) && !mentioned(g));
  return {
    ranked: [...best.values()].sort((a, b) => b.score - a.score),
    absentTopics,
    unmentioned: questionMass > 0 ? unheld.reduce((sum, g) => sum + said(g), 0) / questionMass : 0,
    absentThing: groups.some((g) => g.thing && !mentioned(g)),
  };
}
