// The confidence's models of `npm run train` (scripts/train.mjs): two logistic regressions over the evidence
// src/search/confidence.ts reads from a ranking, fitted on the tune properties of the training corpus as the service
// ranks them (offline-ranking.mjs), over the questions its rules leave open, each cut where its promise holds on
// them: `none`, rules included, said of at most MAX_FALSE_NONE of the answerable questions; `high` right at least
// HIGH_PRECISION of the time (a question nothing answers counting as wrong).
import { offlineRanking } from "./offline-ranking.mjs";

export const MAX_FALSE_NONE = 0.02;
export const HIGH_PRECISION = 0.96;
const STEPS = 2000;
const RATE = 0.5;
const L2 = 1e-4;
const round = (x) => Math.round(x * 10000) / 10000;

/** Logistic regression by batch gradient descent from zero, each class weighing the same: deterministic. */
function fit(names, samples) {
  const w = new Float64Array(names.length);
  const positives = samples.filter((s) => s.y === 1).length;
  const weightOf = (y) =>
    y === 1 ? samples.length / (2 * Math.max(1, positives)) : samples.length / (2 * Math.max(1, samples.length - positives));
  for (let step = 0; step < STEPS; step += 1) {
    const gradient = new Float64Array(names.length);
    for (const { x, y } of samples) {
      let z = 0;
      for (let i = 0; i < x.length; i += 1) z += w[i] * x[i];
      const error = weightOf(y) * (1 / (1 + Math.exp(-z)) - y);
      for (let i = 0; i < x.length; i += 1) gradient[i] += error * x[i];
    }
    for (let i = 0; i < names.length; i += 1) w[i] -= RATE * (gradient[i] / samples.length + (i === 0 ? 0 : L2 * w[i]));
  }
  return Object.fromEntries(names.map((name, i) => [name, round(w[i])]));
}

const probabilityOf = (weights, names, x) => 1 / (1 + Math.exp(-names.reduce((z, name, i) => z + weights[name] * x[i], 0)));

/** The models of confidence.json, fitted on `questions` of `hotels` (the tune properties). */
export async function fitConfidence(hotels, questions) {
  const offline = await offlineRanking();
  const m = offline.modules;
  const names = [...m.CONFIDENCE_FEATURES];
  const rows = new Map();
  const answerable = questions.filter((q, i) => i % 2 === 0 && q.answers.length > 0).length;
  let ruledNone = 0;
  const samples = [];
  // Every second question: the models have sixteen inputs, and half the rankings keep the training (and its check in
  // the tests) within a minute or two.
  for (const q of questions.filter((_, i) => i % 2 === 0)) {
    const plan = offline.plan(q.text);
    const ranking = m.rankPrepared(plan, offline.rowsFor(rows, hotels.get(q.hotel), plan));
    if (m.plainlyAbsent(plan, ranking)) {
      ruledNone += q.answers.length > 0 ? 1 : 0;
      continue;
    }
    const features = m.confidenceFeatures(plan, ranking);
    const right = q.answers.includes(ranking.ranked[0].row.faq);
    samples.push({ x: names.map((name) => features[name]), unanswerable: q.answers.length === 0, right });
  }
  // The demo fixture's templated hotels (terse FAQs, every question answerable): their tune half's questions asked of
  // the first ten hotels that have the question's category, so that the models also know pages of that kind.
  let demoAnswerable = 0;
  for (const { question: q, hotels } of offline.demoTuneQuestions(1, 10)) {
    const plan = offline.plan(q.text);
    for (const hotelRows of hotels) {
      demoAnswerable += 1;
      const ranking = m.rankPrepared(plan, hotelRows);
      if (m.plainlyAbsent(plan, ranking)) {
        ruledNone += 1;
        continue;
      }
      const features = m.confidenceFeatures(plan, ranking);
      samples.push({
        x: names.map((name) => features[name]),
        unanswerable: false,
        right: ranking.ranked[0].row.faq === q.category,
        demo: true,
      });
    }
  }
  const none = fit(
    names,
    samples.map((s) => ({ x: s.x, y: s.unanswerable ? 1 : 0 })),
  );
  // The lowest threshold at which the rules and the model together judge at most MAX_FALSE_NONE of the answerable none.
  const left = Math.max(0, Math.floor(MAX_FALSE_NONE * (answerable + demoAnswerable)) - ruledNone);
  const answerableScores = samples
    .filter((s) => !s.unanswerable)
    .map((s) => probabilityOf(none, names, s.x))
    .sort((a, b) => b - a);
  const noneThreshold = round(Math.min(0.9999, (answerableScores[left] ?? 0) + 1e-4));
  // `high` is fitted and cut on the corpus alone: the demo's questions all have an answer, and their ease would make
  // the model surer than the corpus's guests warrant.
  const kept = samples.filter((s) => !s.demo && probabilityOf(none, names, s.x) < noneThreshold);
  const high = fit(
    names,
    kept.map((s) => ({ x: s.x, y: s.right ? 1 : 0 })),
  );
  // The lowest threshold above which the first FAQ is right at least HIGH_PRECISION of the time.
  const scored = kept.map((s) => ({ p: probabilityOf(high, names, s.x), right: s.right })).sort((a, b) => b.p - a.p);
  let highThreshold = 0.9999;
  let right = 0;
  scored.forEach((s, i) => {
    right += s.right ? 1 : 0;
    if (right / (i + 1) >= HIGH_PRECISION && (i + 1 === scored.length || scored[i + 1].p < s.p)) highThreshold = round(s.p);
  });
  return {
    about: `The confidence's two logistic models over the ranking's evidence (src/search/confidence.ts), fitted by \`npm run train\` on the tune properties of bench/corpus/: \`none\` where, with the rules, at most ${100 * MAX_FALSE_NONE}% of their answerable questions are judged it; \`high\` where its first FAQ is right at least ${100 * HIGH_PRECISION}% of the time. Generated: do not edit by hand.`,
    none: { weights: none, threshold: noneThreshold },
    high: { weights: high, threshold: highThreshold },
  };
}
