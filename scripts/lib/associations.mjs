// The association model of `npm run train` (scripts/train.mjs): IBM Model 1 fitted by expectation-maximisation on
// pairs of (a guest's words, the words of the FAQ that answers them), as the service's own analysis reads both
// (src/search/ bundled by source-modules.mjs). What it keeps is what src/search/plan.ts reads: for each guest word
// seen often enough, the few FAQ words it most likely stands for, with their probabilities.
import { importSource } from "./source-modules.mjs";

/** EM iterations: IBM Model 1's likelihood has one maximum, and the kept probabilities settle well before this. */
const ITERATIONS = 10;
/** A guest word is kept when it is in at least this many pairs: rarer ones are a writer's, not guests'. */
const MIN_PAIRS = 3;
/** FAQ words kept for a guest word, at most, and the least probability kept. */
const MAX_TARGETS = 4;
const MIN_PROBABILITY = 0.08;
const NULL = "\u0000";

const round = (x) => Math.round(x * 1000) / 1000;

/**
 * The model of `questions` (answerable ones, each paired with its first answer) and of the translations of the FAQs
 * of `hotels`: `{ about, pairs, associations: { "<language>:<stem>": [[faqStem, probability], ...] } }`, keys sorted.
 */
export async function trainAssociations(hotels, questions) {
  const m = await importSource("src/search/languages.ts", "src/search/analyze.ts", "src/search/plan.ts", "src/search/lexicon.ts");
  const english = m.languageOf("en");
  const lexicon = new m.Lexicon(m.BUILT_IN_TERMS);
  const unique = (tokens) => [...new Set(tokens)];
  const faqTokens = (faq) => unique(m.analyze(`${faq.question} ${faq.category}`, english));
  const pairs = [];
  for (const q of questions) {
    if (q.answers.length === 0) continue;
    const faq = hotels.get(q.hotel).faqs.find((f) => f.ref === q.answers[0]);
    // The question as the service reads it: its language as detected (or English), its own words' stems.
    const plan = m.planQuery(q.text, lexicon, { content: english });
    const source = unique(plan.groups.filter((g) => g.key.startsWith("w:")).flatMap((g) => g.own)).map((t) => `${plan.language.code}:${t}`);
    if (source.length > 0) pairs.push([source, faqTokens(faq)]);
  }
  for (const hotel of hotels.values()) {
    for (const faq of hotel.faqs) {
      for (const [code, translation] of Object.entries(faq.translations ?? {})) {
        const language = m.languageOf(code);
        pairs.push([unique(m.analyze(translation.question, language)).map((t) => `${code}:${t}`), faqTokens(faq)]);
        pairs.push([unique(m.analyze(translation.answer, language)).map((t) => `${code}:${t}`), unique(m.analyze(faq.answer, english))]);
      }
    }
  }
  const usable = pairs.filter(([source, target]) => source.length > 0 && target.length > 0);
  const t = ibmModel1(usable);
  const seen = new Map();
  for (const [source] of usable) for (const e of source) seen.set(e, (seen.get(e) ?? 0) + 1);
  const associations = {};
  for (const e of [...t.keys()].filter((e) => e !== NULL && (seen.get(e) ?? 0) >= MIN_PAIRS).sort()) {
    const self = e.startsWith("en:") ? e.slice(3) : null;
    const targets = [...t.get(e)]
      .filter(([f, p]) => f !== self && p >= MIN_PROBABILITY)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_TARGETS)
      .map(([f, p]) => [f, round(p)]);
    if (targets.length > 0) associations[e] = targets;
  }
  return {
    about:
      "Which words of an FAQ a guest's word stands for, learned by `npm run train` (scripts/train.mjs) from the tune properties of bench/corpus/: IBM Model 1 over guests' questions paired with the FAQ that answers them, and FAQs' translations paired with their English text. Keys are `<language>:<stem>` as the search analyses a guest's word; values the English FAQ stems it stands for with P(FAQ word | guest word), at most 4 of at least 0.08. Generated: do not edit by hand.",
    pairs: usable.length,
    associations,
  };
}

/** IBM Model 1: t(f | e) for every target word f and source word e (with NULL) of `pairs`, by EM from uniform. */
function ibmModel1(pairs) {
  let t = new Map();
  for (const [source, target] of pairs) {
    for (const e of [NULL, ...source]) {
      const row = t.get(e) ?? new Map();
      t.set(e, row);
      for (const f of target) row.set(f, 1);
    }
  }
  for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
    const counts = new Map();
    const totals = new Map();
    for (const [source, target] of pairs) {
      const sources = [NULL, ...source];
      for (const f of target) {
        let denominator = 0;
        for (const e of sources) denominator += t.get(e).get(f);
        for (const e of sources) {
          const share = t.get(e).get(f) / denominator;
          const row = counts.get(e) ?? new Map();
          counts.set(e, row);
          row.set(f, (row.get(f) ?? 0) + share);
          totals.set(e, (totals.get(e) ?? 0) + share);
        }
      }
    }
    t = new Map([...counts].map(([e, row]) => [e, new Map([...row].map(([f, c]) => [f, c / totals.get(e)]))]));
  }
  return t;
}
