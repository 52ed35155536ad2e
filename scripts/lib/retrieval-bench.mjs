// `npm run bench -- --retrieval`: how often the tools put the right FAQ first, in the top 3, and its mean
// reciprocal rank, on the labelled guest questions of bench/retrieval/, each asked of every one of the first
// 20 Aurora hotels that has the question's category; and how often a hotel named as people name it resolves.
// Plain BM25, the ranking the service used before text analysis and the lexicon, is computed from the same
// FAQs in the same run (plainBm25 below reproduces its tokenizer and formula). The set is split in halves:
// tuning looked at the "tune" half only, and the "holdout" half says whether the method generalises.
// The questions in Portuguese, Spanish, French and German are also asked, with `language`, of every Aurora hotel
// whose FAQs are translated into their language, and ranked against those translations.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./servers.mjs";

const HOTELS = Array.from({ length: 20 }, (_, i) => `HO-AUR-${String(i + 1).padStart(4, "0")}`);
const TOP = 3;

export const loadSet = (name) => JSON.parse(readFileSync(join(ROOT, "bench", "retrieval", name), "utf8"));

/** Lower-cased, diacritics removed, split on anything but letters and digits: FTS5's unicode61 with remove_diacritics. */
const plainTokens = (text) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The ranking before text analysis: BM25 (k1 1.2, b 0.75, length in characters) over one entity's FAQs, the
 * question's distinct words as terms, question and answer as one text; FAQs without a match follow in stored order.
 */
export function plainBm25(faqs, question) {
  const terms = [...new Set(plainTokens(question.normalize("NFKC")))].slice(0, 32);
  const docs = faqs.map((faq, position) => {
    const tokens = [...plainTokens(faq.question), ...plainTokens(faq.answer)];
    return { faq, position, tokens, length: faq.question.length + faq.answer.length };
  });
  const df = new Map(terms.map((t) => [t, docs.filter((d) => d.tokens.includes(t)).length]));
  const n = docs.length;
  const avg = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const scored = docs.map((d) => {
    let score = null;
    for (const t of terms) {
      const tf = d.tokens.filter((x) => x === t).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + (n - df.get(t) + 0.5) / (df.get(t) + 0.5));
      score = (score ?? 0) + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avg));
    }
    return { ...d, score };
  });
  const hits = scored.filter((d) => d.score !== null).sort((a, b) => b.score - a.score || a.position - b.position);
  const rest = scored.filter((d) => d.score === null);
  return { query: [...hits, ...rest].map((d) => d.faq), search: hits.map((d) => d.faq) };
}

/** 1-based position of the first FAQ of `category` among the first TOP, or null. */
const rankOf = (faqs, category) => {
  const index = faqs.slice(0, TOP).findIndex((faq) => faq.category === category);
  return index < 0 ? null : index + 1;
};

/** Runs `work` over `items` with `concurrency` in flight, in order of the results. */
export async function pool(items, concurrency, work) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]);
      }
    }),
  );
  return results;
}

const METHODS = ["service_query", "service_search_documents", "plain BM25 (query)", "plain BM25 (search)"];
const TRANSLATED_METHODS = [
  "service_query",
  "service_search_documents",
  "service_query, language not given",
  "plain BM25 (query)",
  "plain BM25 (search)",
];

/** Every (question, hotel) pair's rank under each method. */
async function questionRanks(client, faqsByEntity, questions) {
  const pairs = questions.flatMap((q) =>
    HOTELS.filter((h) => faqsByEntity.get(h).some((f) => f.category === q.category)).map((hotel) => ({ q, hotel })),
  );
  return pool(pairs, 6, async ({ q, hotel }) => {
    const [query, search] = await Promise.all([
      client.call("service_query", { entity: hotel, question: q.text, limit: TOP }),
      client.call("service_search_documents", { query: q.text, entityId: hotel, limit: TOP }),
    ]);
    const plain = plainBm25(faqsByEntity.get(hotel), q.text);
    return {
      q,
      hotel,
      ranks: [
        rankOf(query.faqs, q.category),
        rankOf(search.results, q.category),
        rankOf(plain.query, q.category),
        rankOf(plain.search, q.category),
      ],
      got: [query.faqs[0]?.category ?? "-", search.results[0]?.category ?? "-"],
    };
  });
}

/**
 * Every (question, hotel) pair of questions in a language asked of the Aurora hotels with FAQs translated into it
 * (`translated`: entity ID to its export record's translations), each hotel's FAQs ranked in that language.
 */
async function translatedRanks(client, faqsByEntity, translated, questions) {
  const faqsIn = (hotel, language) => {
    const translation = translated.get(hotel)?.find((t) => t.language === language);
    if (!translation?.faqs) return null;
    const bySource = new Map(translation.faqs.map((f) => [f.source, f]));
    return faqsByEntity.get(hotel).flatMap((faq) => {
      const t = bySource.get(faq.question);
      return t ? [{ category: faq.category, question: t.question, answer: t.answer }] : [];
    });
  };
  const hotels = [...translated.keys()].filter((id) => id.startsWith("HO-AUR-"));
  const pairs = questions.flatMap((q) =>
    hotels.flatMap((hotel) => {
      const faqs = faqsIn(hotel, q.lang);
      return faqs?.some((f) => f.category === q.category) ? [{ q, hotel, faqs }] : [];
    }),
  );
  return pool(pairs, 6, async ({ q, hotel, faqs }) => {
    const [query, search, detected] = await Promise.all([
      client.call("service_query", { entity: hotel, question: q.text, language: q.lang, limit: TOP }),
      client.call("service_search_documents", { query: q.text, entityId: hotel, language: q.lang, limit: TOP }),
      client.call("service_query", { entity: hotel, question: q.text, limit: TOP }),
    ]);
    const plain = plainBm25(faqs, q.text);
    const inLanguage = query.faqs.filter((f) => f.language === q.lang).length;
    return {
      q,
      hotel,
      ranks: [
        rankOf(query.faqs, q.category),
        rankOf(search.results, q.category),
        rankOf(detected.faqs, q.category),
        rankOf(plain.query, q.category),
        rankOf(plain.search, q.category),
      ],
      got: [query.faqs[0]?.category ?? "-", search.results[0]?.category ?? "-"],
      answeredInLanguage: inLanguage === query.faqs.length,
    };
  });
}

const percent = (x) => `${(100 * x).toFixed(1)}%`;
const summary = (rows, method) => {
  const ranks = rows.map((r) => r.ranks[method]);
  const n = ranks.length || 1;
  return {
    top1: ranks.filter((r) => r === 1).length / n,
    top3: ranks.filter((r) => r !== null).length / n,
    mrr: ranks.reduce((sum, r) => sum + (r === null ? 0 : 1 / r), 0) / n,
  };
};

function printTable(title, rows, groupBy, methods = METHODS) {
  console.log(`\n${title}\n`);
  console.log(`| ${groupBy.label} | pairs | ${methods.map((m) => `${m} top-1 / top-3 / MRR`).join(" | ")} |`);
  console.log(`|---|---:|${methods.map(() => "---:").join("|")}|`);
  const groups = new Map();
  for (const row of rows) groups.set(groupBy.key(row), [...(groups.get(groupBy.key(row)) ?? []), row]);
  for (const [key, group] of [...groups.entries(), ["all", rows]]) {
    const cells = methods.map((_, m) => {
      const s = summary(group, m);
      return `${percent(s.top1)} / ${percent(s.top3)} / ${s.mrr.toFixed(2)}`;
    });
    console.log(`| ${key === "all" ? "**all**" : key} | ${group.length} | ${cells.join(" | ")} |`);
  }
}

/** A reference resolves when the entity is the one meant (or, for an ambiguous one, the first candidate is one that fits). */
export function referenceResolved(reference, result) {
  const expect = reference.expect;
  if (expect === null) return result.entity === null;
  const fits = typeof expect === "string" ? [expect] : expect.anyOf;
  const first = result.entity?.id ?? result.candidates?.[0]?.id;
  return first !== undefined && fits.includes(first);
}

/** Where service_query misses first place, question by question, most misses first. */
function printMisses(title, rows, misses) {
  const byQuestion = new Map();
  for (const r of rows) byQuestion.set(r.q.id, [...(byQuestion.get(r.q.id) ?? []), r]);
  const missed = [...byQuestion.values()]
    .map((pairs) => ({ q: pairs[0].q, pairs, misses: pairs.filter((r) => r.ranks[0] !== 1) }))
    .filter((m) => m.misses.length > 0)
    .sort((a, b) => b.misses.length - a.misses.length);
  console.log(`\n${title} (${missed.length} questions, the first ${misses} shown)\n`);
  for (const m of missed.slice(0, misses)) {
    const firsts = [...new Set(m.misses.map((r) => r.got[0]))].join(", ");
    console.log(
      `- ${m.q.lang} ${JSON.stringify(m.q.text)} (${m.q.category}): missed at ${m.misses.length} of ${m.pairs.length} hotels; first was ${firsts}`,
    );
  }
}

export async function retrievalBench(
  client,
  faqsByEntity,
  { split = "holdout", languages = ["en", "pt", "es", "fr", "de", "it"], misses = 25, translated = new Map() } = {},
) {
  const { questions } = loadSet("questions.json");
  const { references } = loadSet("entities.json");
  const chosen = questions.filter((q) => (split === "all" || q.split === split) && languages.includes(q.lang));
  const rows = await questionRanks(client, faqsByEntity, chosen);

  const english = rows.filter((r) => r.q.lang === "en");
  printTable(
    `English guest questions, ${split} half: ${new Set(english.map((r) => r.q.id)).size} questions asked of the first 20 Aurora hotels that have their category`,
    english,
    {
      label: "category",
      key: (r) => r.q.category,
    },
  );
  const other = rows.filter((r) => r.q.lang !== "en");
  if (other.length > 0)
    printTable(`Questions in other languages, ${split} half (the FAQs are in English)`, other, { label: "language", key: (r) => r.q.lang });
  const inTheirLanguage = await translatedRanks(client, faqsByEntity, translated, chosen);
  if (inTheirLanguage.length > 0) {
    const hotels = new Set(inTheirLanguage.map((r) => r.hotel)).size;
    printTable(
      `Questions asked of the ${hotels} Aurora hotels with FAQs in their language, ${split} half (language given; ranked against the translations)`,
      inTheirLanguage,
      { label: "language", key: (r) => r.q.lang },
      TRANSLATED_METHODS,
    );
    const answered = inTheirLanguage.filter((r) => r.answeredInLanguage).length;
    console.log(`\nservice_query answered entirely in the question's language: ${answered} of ${inTheirLanguage.length} pairs`);
  }

  const resolved = await pool(
    references.filter((r) => split === "all" || r.split === split),
    6,
    async (reference) => ({ reference, result: await client.call("service_query", { entity: reference.text, limit: 1 }) }),
  );
  console.log(`\nEntity references, ${split} half: resolved directly, or first among the candidates (null: nothing in scope)\n`);
  console.log("| kind | references | resolved |");
  console.log("|---|---:|---:|");
  const kinds = new Map();
  for (const r of resolved) kinds.set(r.reference.kind, [...(kinds.get(r.reference.kind) ?? []), r]);
  for (const [kind, group] of [...kinds.entries(), ["all", resolved]]) {
    const ok = group.filter((r) => referenceResolved(r.reference, r.result)).length;
    console.log(`| ${kind === "all" ? "**all**" : kind} | ${group.length} | ${percent(ok / group.length)} |`);
  }

  printMisses(`Where service_query misses first place (${split} half)`, rows, misses);
  if (inTheirLanguage.length > 0) {
    printMisses(`Where service_query misses first place in the hotel's language (${split} half)`, inTheirLanguage, misses);
  }
  for (const r of resolved.filter((x) => !referenceResolved(x.reference, x.result))) {
    console.log(
      `- reference ${JSON.stringify(r.reference.text)} (${r.reference.kind}): expected ${JSON.stringify(r.reference.expect)}, got ${r.result.entity?.id ?? "no entity"}${
        r.result.candidates
          ? `, candidates ${r.result.candidates
              .slice(0, 3)
              .map((c) => c.id)
              .join(", ")}`
          : ""
      }`,
    );
  }
  return { rows, resolved, inTheirLanguage };
}
