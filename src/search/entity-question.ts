import { lookupOrder } from "../http/language-tags";
import type { D1Reader } from "../storage/reader";
import { answerInEntity, type FoundFaq } from "./answers";
import type { Confidence } from "./confidence";
import { currentLexicon } from "./current-lexicon";
import { analyzedLanguageOf, DEFAULT_LANGUAGE, languageOf } from "./languages";
import { detectLanguage, planQuery, type QueryPlan } from "./plan";

/**
 * A guest's question about one entity, as the MCP tool service_query answers it and the console's "ask as a guest"
 * shows it: the languages it is answered in, what it searches for, and the FAQs in the order the tool lists them.
 */

/** The longest question a guest may ask (service_query's bound). */
export const MAX_QUESTION_LENGTH = 500;

/**
 * The languages a question is answered in, in RFC 4647 lookup order: the one the caller named (`pt-BR`, then `pt`),
 * else the one the question's own words show; none when neither says, and then every FAQ is in its default language.
 */
export function answerLanguages(language: string | undefined, question?: string): string[] {
  const asked = language ?? (question === undefined ? undefined : detectLanguage(question)?.code);
  return asked === undefined ? [] : lookupOrder([asked]);
}

/**
 * What a question searches for, with this deployment's lexicon, against FAQs in the content's language and their
 * translations: its words are analysed in `language` when the caller named one that is analysed, else in the
 * language they show.
 */
export async function questionPlan(
  db: D1Reader,
  waitUntil: (promise: Promise<unknown>) => void,
  question: string,
  language: string | undefined,
): Promise<QueryPlan> {
  const lexicon = await currentLexicon(db, waitUntil);
  return planQuery(question, lexicon, {
    content: languageOf(DEFAULT_LANGUAGE),
    language: language === undefined ? undefined : analyzedLanguageOf(language),
  });
}

export interface EntityQuestion {
  question: string;
  /** The guest's language (a canonical BCP 47 tag), or undefined to detect it from the question. */
  language?: string;
  category?: string;
}

/**
 * One entity's FAQs for a question: those that answer it best first, then the others in stored order (all of them,
 * in order, when nothing answers: `confidence` "none"), with how sure the service is.
 */
export async function askEntity(
  db: D1Reader,
  waitUntil: (promise: Promise<unknown>) => void,
  entity: { id: string; name: string; url: string | null },
  { question, language, category }: EntityQuestion,
): Promise<{ listed: FoundFaq[]; confidence: Confidence; readAs: { language: string; detected: boolean } }> {
  const languages = answerLanguages(language, question);
  const plan = await questionPlan(db, waitUntil, question, language);
  const { found, others, confidence } = await answerInEntity(db, plan, entity, { languages, category, question });
  // The language the question's words were read in: the one given, else the one they show, else the content's.
  return { listed: [...found, ...others], confidence, readAs: { language: plan.language.code, detected: plan.detected } };
}
