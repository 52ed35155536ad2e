// The realistic benchmark set of `npm run bench -- --retrieval` and of the tuning script: the Kestrel hotels'
// FAQ pages (src/fixture/hotels/, also the demo fixture's) and the guest questions written for them
// (bench/retrieval/guests/), with the groups the figures are reported by and how a ranking is scored.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./servers.mjs";

const read = (path) => JSON.parse(readFileSync(path, "utf8"));

/** The hotels, by ID: `{ id, name, faqs: [{ ref, category, question, answer }] }`. */
export function loadHotels() {
  const folder = join(ROOT, "src", "fixture", "hotels");
  return new Map(
    readdirSync(folder)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => read(join(folder, f)))
      .map((hotel) => [hotel.id, hotel]),
  );
}

/** Every guest question, with its hotel: `{ id, hotel, lang, style, text, answers, split }`. */
export function loadGuestQuestions() {
  const folder = join(ROOT, "bench", "retrieval", "guests");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .flatMap((f) => {
      const { hotel, questions } = read(join(folder, f));
      return questions.map((q) => ({ ...q, hotel }));
    });
}

/** Words as the service counts them: letters and digits, joined by hyphens, apostrophes and the like. */
const wordCount = (text) => text.match(/[\p{L}\p{N}]+(?:[-‐‑–/.'’][\p{L}\p{N}]+)*/gu)?.length ?? 0;

export const LANGUAGE_NAMES = { en: "English", pt: "Portuguese", es: "Spanish", fr: "French", de: "German", it: "Italian", nl: "Dutch" };

/** The groups a question counts in, as the figures are reported. */
export function groupsOf(q) {
  if (q.answers.length === 0) return ["unanswerable"];
  const groups = [q.lang === "en" ? "English" : `${LANGUAGE_NAMES[q.lang]}, English FAQs`];
  if (q.lang === "en" && wordCount(q.text) >= 12) groups.push("English, 12+ words");
  if (q.lang !== "en") groups.push("other languages, English FAQs");
  return groups;
}

export const GROUP_ORDER = [
  "English",
  "English, 12+ words",
  ...["pt", "es", "fr", "de", "it", "nl"].map((l) => `${LANGUAGE_NAMES[l]}, English FAQs`),
  "other languages, English FAQs",
];

/** The 1-based rank of the first FAQ that answers `q` among `refs` (best first), or null. */
export const rankOf = (q, refs) => {
  const index = refs.findIndex((ref) => q.answers.includes(ref));
  return index < 0 ? null : index + 1;
};

/**
 * Figures of `results` (`{ q, refs, confidence }` per question, for one method): per group top-1, top-3 and MRR
 * of the answerable, the share of them judged "none", and the share of unanswerable judged "none".
 */
export function figures(results) {
  const byGroup = new Map();
  for (const r of results) for (const g of groupsOf(r.q)) byGroup.set(g, [...(byGroup.get(g) ?? []), r]);
  const out = new Map();
  for (const [group, rows] of byGroup) {
    const n = rows.length;
    const ranks = rows.map((r) => rankOf(r.q, r.refs));
    out.set(group, {
      n,
      top1: ranks.filter((x) => x === 1).length / n,
      top3: ranks.filter((x) => x !== null && x <= 3).length / n,
      mrr: ranks.reduce((s, x) => s + (x === null ? 0 : 1 / x), 0) / n,
      none: rows.filter((r) => r.confidence === "none").length / n,
    });
  }
  const answerable = results.filter((r) => r.q.answers.length > 0);
  out.set("answerable marked none", {
    n: answerable.length,
    share: answerable.filter((r) => r.confidence === "none").length / Math.max(1, answerable.length),
  });
  const unanswerable = results.filter((r) => r.q.answers.length === 0);
  out.set("unanswerable marked none", {
    n: unanswerable.length,
    share: unanswerable.filter((r) => r.confidence === "none").length / Math.max(1, unanswerable.length),
  });
  return out;
}
