import type { FaqIndexTerms } from "../storage/faqs";
import { faqTerms } from "./analyze";
import type { Language } from "./languages";
import { phrasingKey } from "./normalize";
import { detectLanguage } from "./plan";

/**
 * The ways guests ask an FAQ (its `phrasings`, stored as a JSON array on its row in the default language) in the
 * search. Each is indexed with the FAQ's question, analysed in the language its own words show (else the FAQ's), so
 * a near wording in that language finds the FAQ. And a question that IS one of them, as the search normalises text
 * (src/search/normalize.ts `phrasingKey`: case, accents, punctuation and spacing aside), is answered by that FAQ
 * first, with confidence `high`, whatever its language: the content team said so.
 */

/** An FAQ's index terms, its phrasings (stored JSON, `[]` or absent for none) among its question's. */
export function phrasedFaqTerms(
  faq: { question: string; answer: string; category: string; phrasings?: string },
  language: Language,
): FaqIndexTerms {
  const phrasings = faq.phrasings === undefined ? [] : (JSON.parse(faq.phrasings) as string[]);
  return faqTerms(
    faq,
    language,
    phrasings.map((text) => [text, detectLanguage(text) ?? language] as const),
  );
}

/**
 * The first of `rows` (an entity's FAQ rows, or a scope's candidates) one of whose phrasings `question` is, or
 * undefined: the FAQ the question is answered by, whatever the ranking says.
 */
export function phrasedBy<R extends { phrasings: string }>(question: string, rows: readonly R[]): R | undefined {
  const key = phrasingKey(question);
  if (key === "") return undefined;
  return rows.find((row) => row.phrasings !== "[]" && (JSON.parse(row.phrasings) as string[]).some((p) => phrasingKey(p) === key));
}
