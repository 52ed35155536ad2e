// `npm run bench -- --retrieval`, the training corpus (bench/corpus/): its held-out properties, with the tune
// properties beside them (the gap is the overfitting), ranked by the Worker's own src/search/ modules over the rows
// service_query reads (offline-ranking.mjs: each FAQ in English and in its translation into the language the
// question shows), beside plain BM25 and MiniSearch over the same FAQs. Reports top-1, top-3 and MRR per language
// and style, and what the confidence says: unanswerable judged none, answerable judged none, how often high is
// right and how much of the answerable it covers.
import MiniSearch from "minisearch";
import { CORPUS_LANGUAGES, loadCorpus } from "./corpus.mjs";
import { rankOf } from "./guest-set.mjs";
import { offlineRanking } from "./offline-ranking.mjs";
import { plainBm25 } from "./retrieval-bench.mjs";

const percent = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "-");
const words = (text) => text.match(/[\p{L}\p{N}]+(?:[-‐‑–/.'’][\p{L}\p{N}]+)*/gu)?.length ?? 0;

function miniSearchOf(faqs) {
  const index = new MiniSearch({ fields: ["question", "answer"], storeFields: ["ref"], idField: "ref" });
  index.addAll(faqs);
  return (text) => index.search(text, { boost: { question: 2 }, prefix: true, fuzzy: 0.2 }).map((hit) => hit.ref);
}

/** Every question of `split` answered by the service's ranking and the two baselines. */
async function answered(split) {
  const { hotels, questions } = loadCorpus({ split });
  const offline = await offlineRanking();
  const rows = new Map();
  const baselines = new Map(
    [...hotels].map(([id, h]) => [id, { bm25: (text) => plainBm25(h.faqs, text).search.map((f) => f.ref), mini: miniSearchOf(h.faqs) }]),
  );
  return {
    hotels,
    results: questions.map((q) => {
      const plan = offline.plan(q.text);
      const service = offline.answer(plan, offline.rowsFor(rows, hotels.get(q.hotel), plan));
      const base = baselines.get(q.hotel);
      return { q, service, bm25: base.bm25(q.text), mini: base.mini(q.text) };
    }),
  };
}

const groupsOf = (q) =>
  q.answers.length === 0
    ? []
    : [
        q.lang,
        ...(q.lang === "en" ? [`en, ${q.style}`] : []),
        ...(q.lang === "en" && words(q.text) >= 12 ? ["en, 12+ words"] : []),
        ...(q.lang !== "en" ? ["other languages"] : []),
      ];

function table(results) {
  const groups = new Map();
  for (const r of results) for (const g of groupsOf(r.q)) groups.set(g, [...(groups.get(g) ?? []), r]);
  const cell = (rows, refsOf) => {
    const ranks = rows.map((r) => rankOf(r.q, refsOf(r)));
    const n = rows.length;
    return {
      top1: ranks.filter((x) => x === 1).length / n,
      top3: ranks.filter((x) => x !== null && x <= 3).length / n,
      mrr: ranks.reduce((s, x) => s + (x === null ? 0 : 1 / x), 0) / n,
    };
  };
  const order = [
    "en",
    "en, 12+ words",
    ...["plain", "typo", "fragment", "indirect", "long", "multi", "keyword"].map((s) => `en, ${s}`),
    ...CORPUS_LANGUAGES.slice(1),
    "other languages",
  ];
  return order
    .filter((g) => groups.has(g))
    .map((g) => {
      const rows = groups.get(g);
      return {
        group: g,
        n: rows.length,
        service: cell(rows, (r) => r.service.refs),
        bm25: cell(rows, (r) => r.bm25),
        mini: cell(rows, (r) => r.mini),
      };
    });
}

function confidenceFigures(results) {
  const answerable = results.filter((r) => r.q.answers.length > 0);
  const unanswerable = results.filter((r) => r.q.answers.length === 0);
  const high = answerable.filter((r) => r.service.confidence === "high");
  return {
    unanswerableNone: unanswerable.filter((r) => r.service.confidence === "none").length / unanswerable.length,
    unanswerableHigh: unanswerable.filter((r) => r.service.confidence === "high").length,
    unanswerable: unanswerable.length,
    answerableNone: answerable.filter((r) => r.service.confidence === "none").length / answerable.length,
    highRight: high.filter((r) => rankOf(r.q, r.service.refs) === 1).length / high.length,
    highShare: high.length / answerable.length,
  };
}

export async function corpusBench() {
  const held = await answered("holdout");
  const tune = await answered("tune");
  const tuneRows = new Map(table(tune.results).map((row) => [row.group, row]));
  const kinds = [...held.hotels.values()].map((h) => `${h.name} (${h.kind})`).join("; ");
  console.log(`\n## The training corpus: ${held.hotels.size} held-out properties, ${held.results.length} questions\n\n${kinds}\n`);
  console.log(
    "| group | questions | service_query top-1 / top-3 / MRR | tune properties top-1 / top-3 | plain BM25 top-1 / top-3 | MiniSearch top-1 / top-3 |",
  );
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const row of table(held.results)) {
    const t = tuneRows.get(row.group);
    console.log(
      `| ${row.group} | ${row.n} | ${percent(row.service.top1)} / ${percent(row.service.top3)} / ${row.service.mrr.toFixed(2)} | ${t ? `${percent(t.service.top1)} / ${percent(t.service.top3)}` : "-"} | ${percent(row.bm25.top1)} / ${percent(row.bm25.top3)} | ${percent(row.mini.top1)} / ${percent(row.mini.top3)} |`,
    );
  }
  const [h, t] = [confidenceFigures(held.results), confidenceFigures(tune.results)];
  console.log("\n| confidence | held out | tune |");
  console.log("|---|---:|---:|");
  console.log(
    `| unanswerable judged none | ${percent(h.unanswerableNone)} of ${h.unanswerable} | ${percent(t.unanswerableNone)} of ${t.unanswerable} |`,
  );
  console.log(`| unanswerable judged high | ${h.unanswerableHigh} | ${t.unanswerableHigh} |`);
  console.log(`| answerable judged none | ${percent(h.answerableNone)} | ${percent(t.answerableNone)} |`);
  console.log(`| high: first FAQ right | ${percent(h.highRight)} | ${percent(t.highRight)} |`);
  console.log(`| answerable judged high | ${percent(h.highShare)} | ${percent(t.highShare)} |`);
}
