import model from "./confidence.json";
import type { QueryPlan } from "./plan";
import type { Ranking, RankRow } from "./rank";

/**
 * How sure the service is that its first FAQ answers the question, in words an assistant can act on:
 *
 * - `high`: the first FAQ answers it;
 * - `low`: the FAQs found are related, but none is known to answer it: say so, and offer what they say;
 * - `none`: nothing in the content answers it. Any FAQs listed are the entity's others, for browsing, never the answer.
 *
 * Two logistic models over the ranking's evidence (confidence.json, fitted by `npm run train` on the tune properties
 * of the training corpus): the probability that nothing answers, and the probability that the first FAQ does. Each
 * is cut where the tune properties show `none` rarely said of an answerable question and `high` almost always right.
 */

export const CONFIDENCES = ["high", "low", "none"] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/** The evidence both models weigh, each from 0 to about 1. */
export const CONFIDENCE_FEATURES = [
  "bias",
  "topicGone",
  "absentThing",
  "unmentioned",
  "uncovered",
  "questionCoverage",
  "margin",
  "secondCoverage",
  "literal",
  "topical",
  "score",
  "crossLanguage",
  "words",
] as const;
export type ConfidenceFeature = (typeof CONFIDENCE_FEATURES)[number];

interface LogisticModel {
  weights: Record<ConfidenceFeature, number>;
  /** The probability from which the model's answer is given. */
  threshold: number;
}

export const CONFIDENCE_MODEL = model as unknown as { none: LogisticModel; high: LogisticModel };

/** The ranking's evidence for and against its first FAQ answering, by name. */
export function confidenceFeatures<R extends RankRow>(plan: QueryPlan, ranking: Ranking<R>): Record<ConfidenceFeature, number> {
  const [first, second] = ranking.ranked;
  const named = plan.topics.filter((t) => t.strength >= 1);
  const wordGroups = plan.groups.filter((g) => g.key.startsWith("w:") && !g.form).length;
  return {
    bias: 1,
    topicGone: named.length > 0 && named.every((t) => ranking.absentTopics.includes(t.concept)) ? 1 : 0,
    absentThing: ranking.absentThing ? 1 : 0,
    unmentioned: ranking.unmentioned,
    uncovered: 1 - (first?.coverage ?? 0),
    questionCoverage: first?.questionCoverage ?? 0,
    // A score may be below zero (an FAQ that asks much more than the question): the margin is kept within 0 and 1.
    margin: first && second ? Math.min(1, Math.max(0, (first.score - second.score) / Math.max(first.score, 1e-9))) : first ? 1 : 0,
    secondCoverage: second?.questionCoverage ?? 0,
    literal: first?.literal ? 1 : 0,
    topical: first?.topical ? 1 : 0,
    score: first ? Math.min(1, Math.log1p(Math.max(0, first.score)) / 4) : 0,
    crossLanguage: plan.language.code === plan.content.code ? 0 : 1,
    words: Math.min(1, wordGroups / 8),
  };
}

/** The probability a logistic model gives `features`. */
export function probability(model: LogisticModel, features: Record<ConfidenceFeature, number>): number {
  const z = CONFIDENCE_FEATURES.reduce((sum, name) => sum + (model.weights[name] ?? 0) * features[name], 0);
  return 1 / (1 + Math.exp(-z));
}

export function judge<R extends RankRow>(plan: QueryPlan, ranking: Ranking<R>): Confidence {
  if (ranking.ranked.length === 0 || plan.groups.length === 0) return "none";
  const features = confidenceFeatures(plan, ranking);
  if (probability(CONFIDENCE_MODEL.none, features) >= CONFIDENCE_MODEL.none.threshold) return "none";
  return probability(CONFIDENCE_MODEL.high, features) >= CONFIDENCE_MODEL.high.threshold ? "high" : "low";
}
