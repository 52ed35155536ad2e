// `npm run bench -- --retrieval`, realistic half: the guest questions of bench/retrieval/guests/ asked of the Kestrel
// hotels (src/fixture/hotels/, in the demo fixture) through /v1/sse as kestrel-assistant, with service_query and
// service_search_documents, beside plain BM25 and MiniSearch ranking the same hotel's FAQs in the same run. Reports
// top-1, top-3 and MRR per group (English, English of 12 words or more, each other language against the English
// FAQs), how many answerable questions the tools judged "none" and how many unanswerable ones they did, and where
// service_query misses first place.
import MiniSearch from "minisearch";
import { figures, GROUP_ORDER, loadGuestQuestions, loadHotels, rankOf } from "./guest-set.mjs";
import { plainBm25, pool } from "./retrieval-bench.mjs";

const TOP = 3;
const percent = (x) => `${(100 * x).toFixed(1)}%`;

/** MiniSearch over one hotel's FAQs, as its README configures a typical FAQ search: both fields, the question boosted, prefix and fuzzy. */
function miniSearchOf(faqs) {
  const index = new MiniSearch({ fields: ["question", "answer"], storeFields: ["ref"], idField: "ref" });
  index.addAll(faqs);
  return (text) => index.search(text, { boost: { question: 2 }, prefix: true, fuzzy: 0.2 }).map((hit) => hit.ref);
}

export async function guestBench(client, { split = "holdout", misses = 30 } = {}) {
  const hotels = loadHotels();
  const questions = loadGuestQuestions().filter((q) => split === "all" || q.split === split);
  const refByQuestion = new Map([...hotels].map(([id, h]) => [id, new Map(h.faqs.map((f) => [f.question, f.ref]))]));
  const baselines = new Map(
    [...hotels].map(([id, h]) => [id, { bm25: (text) => plainBm25(h.faqs, text).search.map((f) => f.ref), mini: miniSearchOf(h.faqs) }]),
  );
  const asked = await pool(questions, 6, async (q) => {
    const refs = (faqs) => faqs.map((f) => refByQuestion.get(q.hotel).get(f.question) ?? null);
    const [query, search, withLanguage] = await Promise.all([
      client.call("service_query", { entity: q.hotel, question: q.text, limit: TOP }),
      client.call("service_search_documents", { query: q.text, entityId: q.hotel, limit: TOP }),
      q.lang === "en" ? null : client.call("service_query", { entity: q.hotel, question: q.text, language: q.lang, limit: TOP }),
    ]);
    const base = baselines.get(q.hotel);
    return {
      q,
      methods: {
        service_query: { refs: refs(query.faqs), confidence: query.confidence },
        service_search_documents: { refs: refs(search.results), confidence: search.confidence },
        "plain BM25": { refs: base.bm25(q.text) },
        MiniSearch: { refs: base.mini(q.text) },
      },
      withLanguage: withLanguage && { refs: refs(withLanguage.faqs), confidence: withLanguage.confidence },
    };
  });
  const names = ["service_query", "service_search_documents", "plain BM25", "MiniSearch"];
  const byMethod = Object.fromEntries(names.map((m) => [m, figures(asked.map((a) => ({ q: a.q, ...a.methods[m] })))]));
  const hotelNames = [...new Set(questions.map((q) => q.hotel))].map((id) => hotels.get(id).name);
  console.log(`\nRealistic hotels, ${split} half: ${questions.length} guest questions of ${hotelNames.join(", ")}\n`);
  console.log(`| group | questions | ${names.map((m) => `${m} top-1 / top-3 / MRR`).join(" | ")} |`);
  console.log(`|---|---:|${names.map(() => "---:").join("|")}|`);
  for (const group of GROUP_ORDER) {
    const counted = byMethod.service_query.get(group);
    if (!counted) continue;
    const cells = names.map((m) => {
      const f = byMethod[m].get(group);
      return `${percent(f.top1)} / ${percent(f.top3)} / ${f.mrr.toFixed(2)}`;
    });
    console.log(`| ${group} | ${counted.n} | ${cells.join(" | ")} |`);
  }
  const languageGiven = figures(asked.filter((a) => a.withLanguage).map((a) => ({ q: a.q, ...a.withLanguage })));
  const given = languageGiven.get("other languages, English FAQs");
  if (given) {
    console.log(
      `| other languages, \`language\` given | ${given.n} | ${percent(given.top1)} / ${percent(given.top3)} / ${given.mrr.toFixed(2)} | | | |`,
    );
  }
  console.log('\n| judged "none" | questions | service_query | service_search_documents |');
  console.log("|---|---:|---:|---:|");
  for (const row of ["answerable marked none", "unanswerable marked none"]) {
    const [query, search] = [byMethod.service_query.get(row), byMethod.service_search_documents.get(row)];
    console.log(`| ${row} | ${query.n} | ${percent(query.share)} | ${percent(search.share)} |`);
  }
  const confidences = ["high", "low", "none"].map((c) => {
    const judged = asked.filter((a) => a.q.answers.length > 0 && a.methods.service_query.confidence === c);
    const right = judged.filter((a) => rankOf(a.q, a.methods.service_query.refs) === 1).length;
    return `${c} ${judged.length} (first FAQ right in ${judged.length === 0 ? "-" : percent(right / judged.length)})`;
  });
  console.log(`\nservice_query's confidence on the answerable: ${confidences.join(", ")}`);
  const missed = asked.filter((a) =>
    a.q.answers.length === 0 ? a.methods.service_query.confidence !== "none" : rankOf(a.q, a.methods.service_query.refs) !== 1,
  );
  console.log(`\nWhere service_query misses (${missed.length} questions, the first ${Math.min(misses, missed.length)} shown)\n`);
  for (const a of missed.slice(0, misses)) {
    const got = a.methods.service_query.refs[0] ?? "-";
    console.log(
      `- ${a.q.lang} ${a.q.style} ${JSON.stringify(a.q.text)}: wanted ${a.q.answers.join(" or ") || "none"}, got ${got} (${a.methods.service_query.confidence})`,
    );
  }
  return { asked, byMethod };
}
