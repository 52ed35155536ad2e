// The service's own ranking, run in Node over the benchmark hotels: src/search/ bundled (source-modules.mjs) and fed
// the rows the Worker would read for one hotel (each FAQ analysed by faqTerms, as the import writes it). Used by the
// tuning script, which needs thousands of rankings; `npm run bench -- --retrieval` measures the same through /v1/sse.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./servers.mjs";
import { importSource } from "./source-modules.mjs";

export async function offlineRanking() {
  const m = await importSource(
    "src/fixture/demo.ts",
    "src/search/normalize.ts",
    "src/search/languages.ts",
    "src/search/analyze.ts",
    "src/search/plan.ts",
    "src/search/lexicon.ts",
    "src/search/rank.ts",
    "src/search/confidence.ts",
  );
  const content = m.languageOf("en");
  const lexicon = new m.Lexicon(m.BUILT_IN_TERMS);
  /**
   * One hotel's FAQs as the rows the ranking reads (rank.ts RankRow, prepared once), the FAQ's ref as its key: each in
   * English and, as service_query reads them for a question in `language`, in its translation into it when it has one.
   */
  const rowsOf = (hotel, language) =>
    m.prepareRows(
      hotel.faqs.flatMap((faq) => {
        const english = { faq: faq.ref, ...m.faqTerms(faq, content), answer: faq.answer, question: faq.question };
        const translated = language && language !== "en" ? faq.translations?.[language] : undefined;
        if (!translated) return [english];
        const row = { ...translated, category: faq.category };
        return [english, { faq: faq.ref, ...m.faqTerms(row, m.languageOf(language)), answer: row.answer, question: row.question }];
      }),
    );
  /** The rows a question is ranked over as service_query reads them: with translations into the language it shows. */
  const rowsFor = (rowCache, hotel, planned) => {
    const language = planned.detected && planned.language.code !== "en" ? planned.language.code : "en";
    const key = `${hotel.id} ${language}`;
    if (!rowCache.has(key)) rowCache.set(key, rowsOf(hotel, language));
    return rowCache.get(key);
  };
  /** The plan of a question (without a language, as a client that does not say it). */
  const plan = (text) => m.planQuery(text, lexicon, { content });
  /** The refs of the FAQs `planned` ranks over `rows`, best first. */
  const rank = (planned, rows) => m.rankPrepared(planned, rows).ranked.map((r) => r.row.faq);
  /** The ranking and confidence of `text` over `rows`: the refs best first, as the tools list them. */
  const answer = (planned, rows) => {
    const ranking = m.rankPrepared(planned, rows);
    return { ranking, refs: ranking.ranked.map((r) => r.row.faq), confidence: m.judge(planned, ranking) };
  };
  /** The demo fixture's Aurora hotels `first`…`last` as rows, each FAQ keyed by its category (the demo set's label). */
  const demoRows = (first, last) =>
    new Map(
      m
        .buildDemoContent()
        .filter((r) => r.brandId === "HO-AUR" && Number(r.id.slice(-4)) >= first && Number(r.id.slice(-4)) <= last)
        .map((r) => [
          r.id,
          m.prepareRows(
            r.faqs.map((faq) => ({ faq: faq.category, ...m.faqTerms(faq, content), answer: faq.answer, question: faq.question })),
          ),
        ]),
    );
  /**
   * The demo set's tune half as fitting asks it: each question (labelled by its category) with the rows of the Aurora
   * hotels `first`…`last` that have an FAQ of that category, in the file's order.
   */
  const demoTuneQuestions = (first, last) => {
    const hotels = [...demoRows(first, last).values()];
    return JSON.parse(readFileSync(join(ROOT, "bench", "retrieval", "questions.json"), "utf8"))
      .questions.filter((q) => q.split === "tune")
      .map((question) => ({ question, hotels: hotels.filter((rows) => rows.some((r) => r.row.faq === question.category)) }));
  };
  return {
    modules: m,
    demoRows,
    demoTuneQuestions,
    weights: { plan: m.PLAN_WEIGHTS, rank: m.RANK_WEIGHTS, confidence: m.CONFIDENCE_WEIGHTS },
    rowsOf,
    rowsFor,
    plan,
    rank,
    answer,
  };
}
