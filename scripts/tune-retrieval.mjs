// Fits the weights of the plan and the ranking (src/search/weights.json) on the tune properties of the training
// corpus (bench/corpus/), by coordinate ascent from the weights in the file, and writes them back; then `npm run
// train` fits the confidence on rankings with them. `node scripts/tune-retrieval.mjs` (`--dry-run` prints without
// writing). Each step ranks a fixed sample of the tune questions (every SAMPLE_EVERY-th, in file order), which is
// what keeps a fit to minutes; held-out properties are never read here: `npm run bench -- --retrieval` reports them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadCorpus } from "./lib/corpus.mjs";
import { figures } from "./lib/guest-set.mjs";
import { offlineRanking } from "./lib/offline-ranking.mjs";
import { ROOT } from "./lib/servers.mjs";

const WEIGHTS_FILE = join(ROOT, "src", "search", "weights.json");
/** Ranking weights fitted, each within its bounds. */
const FITTED = {
  plan: {
    context: [0.05, 1],
    equivalent: [0.2, 1],
    translation: [0.2, 1],
    loanword: [0.1, 1],
    near: [0.2, 1],
    spelling: [0.2, 1],
    expansion: [0, 2],
    form: [0, 1],
    topic: [0, 2],
    unknown: [0.05, 1],
    clock: [0, 1],
    part: [0.1, 1],
    association: [0, 2],
  },
  rank: {
    k1: [0.2, 3],
    question: [0.5, 5],
    answer: [0.1, 3],
    category: [0, 3],
    bQuestion: [0, 1],
    bAnswer: [0, 1],
    answerKind: [0, 1],
    unmatched: [0, 1.5],
  },
};
const SAMPLE_EVERY = 6;

const dryRun = process.argv.includes("--dry-run");
const roundsArg = process.argv.indexOf("--rounds");
/** Rounds of coordinate ascent at most (`--rounds N`): each ranks the sample four times per weight. */
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 8;
const corpus = loadCorpus({ split: "tune" });
const hotels = corpus.hotels;
const questions = corpus.questions.filter((q, i) => q.answers.length > 0 && i % SAMPLE_EVERY === 0);
const offline = await offlineRanking();
const rows = new Map();

// The demo set (templated Aurora hotels, questions labelled by category) must stay where it is: at least DEMO_TOP1 of
// first places on its tune half, over the first five hotels.
const DEMO_TOP1 = 0.97;
const demoQuestions = offline.demoTuneQuestions(1, 5);
function demoTop1() {
  let asked = 0;
  let first = 0;
  for (const { question, hotels } of demoQuestions) {
    const plan = offline.plan(question.text);
    for (const rows of hotels) {
      asked += 1;
      if (offline.rank(plan, rows)[0] === question.category) first += 1;
    }
  }
  return first / asked;
}

// Plans depend on the plan's weights only: kept while the ranking's change.
let plans = { key: "", plans: [] };
function run() {
  const key = JSON.stringify(offline.weights.plan);
  if (plans.key !== key) plans = { key, plans: questions.map((q) => offline.plan(q.text)) };
  return questions.map((q, i) => ({
    q,
    plan: plans.plans[i],
    refs: offline.rank(plans.plans[i], offline.rowsFor(rows, hotels.get(q.hotel), plans.plans[i])),
  }));
}

/** What ranking is fitted for: first place in English (long messages too) and the top 3 in other languages. */
function rankingObjective(results) {
  const f = figures(results);
  const get = (group, key) => f.get(group)?.[key] ?? 0;
  return (
    0.35 * get("English", "top1") +
    0.15 * get("English", "mrr") +
    0.2 * get("English, 12+ words", "top1") +
    0.15 * get("other languages, English FAQs", "top3") +
    0.15 * get("other languages, English FAQs", "mrr")
  );
}

function coordinateAscent(objective, space, rounds = 8) {
  let best = objective();
  for (let round = 0; round < rounds; round++) {
    let improved = false;
    for (const [section, params] of Object.entries(space)) {
      for (const [name, [low, high]] of Object.entries(params)) {
        const before = best;
        const target = offline.weights[section];
        const start = target[name];
        for (const factor of [0.6, 0.85, 1.2, 1.6]) {
          const value = Math.min(high, Math.max(low, Math.round((start === 0 ? 0.05 : start) * factor * 1000) / 1000));
          const previous = target[name];
          target[name] = value;
          const score = objective();
          if (score > best + 1e-9) {
            best = score;
            improved = true;
          } else target[name] = previous;
        }
        if (best > before) console.log(`  ${section}.${name} = ${target[name]}: ${best.toFixed(4)}`);
      }
    }
    console.log(`round ${round + 1}: ${best.toFixed(4)}`);
    if (!improved) break;
  }
  return best;
}

console.log(`Tune properties: ${questions.length} answerable questions of ${hotels.size} properties`);
coordinateAscent(() => rankingObjective(run()) + 5 * Math.min(0, demoTop1() - DEMO_TOP1), FITTED, ROUNDS);
console.log(`demo set, first five hotels: top-1 ${(100 * demoTop1()).toFixed(1)}%`);
const final = figures(run());
for (const [group, f] of final) {
  console.log(
    f.top1 === undefined
      ? `${group}: ${(100 * f.share).toFixed(1)}% of ${f.n}`
      : `${group}: top-1 ${(100 * f.top1).toFixed(1)}%, top-3 ${(100 * f.top3).toFixed(1)}%, MRR ${f.mrr.toFixed(2)} (${f.n})`,
  );
}
const file = JSON.parse(readFileSync(WEIGHTS_FILE, "utf8"));
const written = { about: file.about, plan: offline.weights.plan, rank: offline.weights.rank, confidence: file.confidence };
if (dryRun) console.log(JSON.stringify(written, null, 2));
else writeFileSync(WEIGHTS_FILE, `${JSON.stringify(written, null, 2)}\n`);
