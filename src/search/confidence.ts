import { answersWith } from "./answer-types";
import model from "./confidence.json";
import type { QueryPlan } from "./plan";
import type { Ranking, RankRow } from "./rank";
import weights from "./weights.json";

/**
 * How sure the service is that its first FAQ answers the question, in words an assistant can act on:
 *
 * - `high`: the first FAQ answers it;
 * - `low`: the FAQs found are related, but none is known to answer it: say so, and offer what they say;
 * - `none`: nothing in the content answers it. Any FAQs listed are the entity's others, for browsing, never the answer.
 *
 * Two steps. The question's own words first: a topic it names that no FAQ is about, a thing a hotel has (a sauna, a
 * cash machine) that no FAQ mentions, the share of its words no FAQ has in any spelling or language, and how little
 * of it the best FAQ matches, weighed as weights.json says, make it `none` outright. Then two logistic models over the
 * ranking's evidence (confidence.json, fitted by `npm run train` on the tune properties of the training corpus): the
 * probability that nothing answers, and that the first FAQ does, each cut where its promise held on those properties.
 */

export const CONFIDENCES = ["high", "low", "none"] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const CONFIDENCE_WEIGHTS = weights.confidence;

/** The evidence both models weigh, each from 0 to about 1. */
export const CONFIDENCE_FEATURES = [
  "bias",
  "topicGone",
  "absentThing",
  "unmentioned",
  "uncovered",
  "questionCoverage",
  "coverage",
  "margin",
  "secondCoverage",
  "literal",
  "topical",
  "learnedOnly",
  "score",
  "crossLanguage",
  "words",
  "found",
  "asksKind",
  "answersKind",
] as const;
export type ConfidenceFeature = (typeof CONFIDENCE_FEATURES)[number];

export interface LogisticModel {
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
    coverage: first?.coverage ?? 0,
    // A score may be below zero (an FAQ that asks much more than the question): the margin is kept within 0 and 1.
    margin: first && second ? Math.min(1, Math.max(0, (first.score - second.score) / Math.max(first.score, 1e-9))) : first ? 1 : 0,
    secondCoverage: second?.questionCoverage ?? 0,
    literal: first?.literal ? 1 : 0,
    topical: first?.topical ? 1 : 0,
    learnedOnly: first?.learnedOnly ? 1 : 0,
    score: first ? Math.min(1, Math.log1p(Math.max(0, first.score)) / 4) : 0,
    crossLanguage: plan.language.code === plan.content.code ? 0 : 1,
    words: Math.min(1, wordGroups / 8),
    found: Math.min(1, ranking.ranked.length / 10),
    // "How much", "what time": whether the question asks for a kind of answer, and whether the first FAQ's has it.
    asksKind: plan.kinds.length > 0 ? 1 : 0,
    answersKind: first && plan.kinds.some((kind) => answersWith(kind, first.row.answer)) ? 1 : 0,
  };
}

/** The probability a logistic model gives `features`. */
export function probability(logistic: LogisticModel, features: Record<ConfidenceFeature, number>): number {
  const z = CONFIDENCE_FEATURES.reduce((sum, name) => sum + logistic.weights[name] * features[name], 0);
  return 1 / (1 + Math.exp(-z));
}

/**
 * Whether the question's own words say nothing answers, before any model: nothing found, only learned associations
 * found something (they rank, but are no evidence that the content says anything of what is asked), or the evidence
 * of absence weighs more than the rest.
 */
export function plainlyAbsent<R extends RankRow>(plan: QueryPlan, ranking: Ranking<R>): boolean {
  if (ranking.ranked.length === 0 || plan.groups.length === 0 || ranking.ranked.every((r) => r.learnedOnly)) return true;
  const f = confidenceFeatures(plan, ranking);
  const W = CONFIDENCE_WEIGHTS.none;
  return W.bias + W.topicGone * f.topicGone + W.absentThing * f.absentThing + W.unmentioned * f.unmentioned + W.uncovered * f.uncovered > 0;
}

export function judge<R extends RankRow>(plan: QueryPlan, ranking: Ranking<R>): Confidence {
  if (plainlyAbsent(plan, ranking)) return "none";
  const features = confidenceFeatures(plan, ranking);
  if (probability(CONFIDENCE_MODEL.none, features) >= CONFIDENCE_MODEL.none.threshold) return "none";
  return probability(CONFIDENCE_MODEL.high, features) >= CONFIDENCE_MODEL.high.threshold ? "high" : "low";
}
