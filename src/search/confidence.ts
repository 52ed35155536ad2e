import type { QueryPlan } from "./plan";
import type { Ranking, RankRow } from "./rank";
import weights from "./weights.json";

/**
 * How sure the service is that its first FAQ answers the question, in words an assistant can act on:
 *
 * - `high`: the first FAQ answers it: it matches most of what the question asks, in its own question, and clearly
 *   more than the next;
 * - `low`: the FAQs found are related, but none clearly answers it: say so, and offer what they say;
 * - `none`: nothing in the content answers it. Any FAQs listed are the entity's others, for browsing, never the answer.
 *
 * Whether nothing answers is weighed from what the question names that the content lacks: a topic it is about that
 * no FAQ is about, a thing a hotel has (a sauna, a cash machine) that no FAQ mentions, the share of its words no FAQ
 * has in any spelling or language, and how little of it the best FAQ matches. The weights and thresholds are data
 * (weights.json), fitted on the tune half of the benchmark so that almost no answerable question is judged `none`.
 */

export const CONFIDENCES = ["high", "low", "none"] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const CONFIDENCE_WEIGHTS = weights.confidence;

/** The evidence that nothing answers, each from 0 to 1, named as CONFIDENCE_WEIGHTS.none weighs them. */
export function absenceEvidence<R extends RankRow>(
  plan: QueryPlan,
  ranking: Ranking<R>,
): Record<keyof typeof weights.confidence.none, number> {
  const named = plan.topics.filter((t) => t.strength >= 1);
  return {
    bias: 1,
    topicGone: named.length > 0 && named.every((t) => ranking.absentTopics.includes(t.concept)) ? 1 : 0,
    absentThing: ranking.absentThing ? 1 : 0,
    unmentioned: ranking.unmentioned,
    uncovered: 1 - (ranking.ranked[0]?.coverage ?? 0),
  };
}

export function judge<R extends RankRow>(plan: QueryPlan, ranking: Ranking<R>): Confidence {
  const W = CONFIDENCE_WEIGHTS;
  const [first, second] = ranking.ranked;
  // FAQs found only through learned associations are ranked, but are no evidence that the content says anything of
  // what is asked: with nothing else found, nothing answers.
  if (!first || plan.groups.length === 0 || ranking.ranked.every((r) => r.learnedOnly)) return "none";
  const evidence = absenceEvidence(plan, ranking);
  const absence = Object.entries(evidence).reduce((sum, [name, value]) => sum + W.none[name as keyof typeof evidence] * value, 0);
  if (absence > 0) return "none";
  const margin = second ? (first.score - second.score) / Math.max(first.score, 1e-9) : 1;
  return first.questionCoverage >= W.high && margin >= W.margin ? "high" : "low";
}
