// The training corpus (bench/corpus/): properties of many kinds, their FAQ pages and the questions their guests
// wrote, each property wholly tune or held out. Loaded by the training and tuning scripts (tune properties only),
// `npm run bench -- --retrieval` (both, reported apart) and the test that checks the corpus.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./servers.mjs";

const FOLDER = join(ROOT, "bench", "corpus");
export const CORPUS_LANGUAGES = ["en", "pt", "es", "fr", "de", "it", "nl"];
const read = (path) => JSON.parse(readFileSync(path, "utf8"));

/** The properties as listed: `{ slug, id, kind, place, lang, faqs, split }`. */
export const corpusProperties = () => read(join(FOLDER, "properties.json")).properties;

/**
 * The corpus: its hotels by ID (`{ id, name, faqs: [{ ref, category, question, answer, translations? }] }`) and
 * every question with its hotel and its property's split, `split` limiting both to "tune" or "holdout".
 */
export function loadCorpus({ split = "all" } = {}) {
  const properties = corpusProperties().filter((p) => split === "all" || p.split === split);
  const hotels = new Map();
  const questions = [];
  for (const property of properties) {
    const hotel = read(join(FOLDER, "hotels", `${property.slug}.json`));
    hotels.set(hotel.id, { ...hotel, kind: property.kind, split: property.split });
    for (const lang of CORPUS_LANGUAGES) {
      const file = read(join(FOLDER, "guests", property.slug, `${lang}.json`));
      for (const q of file.questions) questions.push({ ...q, lang, hotel: hotel.id, split: property.split });
    }
  }
  return { hotels, questions };
}

/** What is wrong with the corpus against what the training and the figures assume, as sentences; none when sound. */
export function corpusProblems() {
  const problems = [];
  const properties = corpusProperties();
  const { hotels, questions } = loadCorpus();
  const kinds = new Set(properties.map((p) => p.kind));
  const countries = new Set(properties.map((p) => p.place.split(", ").at(-1)));
  const heldOut = properties.filter((p) => p.split === "holdout");
  if (properties.length < 30) problems.push(`${properties.length} properties, fewer than 30`);
  if (kinds.size < 15) problems.push(`${kinds.size} kinds of property, fewer than 15`);
  if (countries.size < 10) problems.push(`${countries.size} countries, fewer than 10`);
  if (heldOut.length < 0.2 * properties.length) problems.push(`${heldOut.length} held-out properties, under 20%`);
  for (const hotel of hotels.values()) {
    const refs = hotel.faqs.map((f) => f.ref);
    if (hotel.faqs.length < 45 || hotel.faqs.length > 90) problems.push(`${hotel.id} has ${hotel.faqs.length} FAQs, not 45–90`);
    if (new Set(refs).size !== refs.length) problems.push(`${hotel.id} repeats a ref`);
    for (const faq of hotel.faqs) {
      for (const field of ["ref", "category", "question", "answer"]) {
        if (typeof faq[field] !== "string" || faq[field].trim() === "") problems.push(`${hotel.id} ${faq.ref}: no ${field}`);
      }
    }
  }
  const ids = new Set();
  for (const q of questions) {
    const hotel = hotels.get(q.hotel);
    if (ids.has(q.id)) problems.push(`question ${q.id} twice`);
    ids.add(q.id);
    if (typeof q.text !== "string" || q.text.trim() === "") problems.push(`${q.id}: no text`);
    for (const ref of q.answers) if (!hotel.faqs.some((f) => f.ref === ref)) problems.push(`${q.id}: no FAQ ${ref} on ${q.hotel}`);
  }
  const unanswerable = questions.filter((q) => q.answers.length === 0).length;
  if (questions.length < 15_000) problems.push(`${questions.length} questions, fewer than 15,000`);
  if (unanswerable < 0.15 * questions.length) problems.push(`${unanswerable} unanswerable questions, under 15%`);
  for (const lang of CORPUS_LANGUAGES) if (!questions.some((q) => q.lang === lang)) problems.push(`no question in ${lang}`);
  return problems;
}
