import { lookupOrder } from "../../catalogue/languages";
import { currentLexicon } from "../../search/current-lexicon";
import { analyzedLanguageOf, DEFAULT_LANGUAGE, languageOf } from "../../search/languages";
import type { Confidence } from "../../search/confidence";
import { detectLanguage, planQuery, type QueryPlan } from "../../search/plan";
import type { ToolContext, UnansweredAbout } from "./tool";

/**
 * The languages a tool answers in, in RFC 4647 lookup order: the one the caller named (`pt-BR`, then `pt`), else
 * the one the question's own words show; none when neither says, and then every FAQ is in its default language.
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
export async function questionPlan(ctx: ToolContext, question: string, language: string | undefined): Promise<QueryPlan> {
  const lexicon = await currentLexicon(ctx.db, ctx.waitUntil);
  return planQuery(question, lexicon, {
    content: languageOf(DEFAULT_LANGUAGE),
    language: language === undefined ? undefined : analyzedLanguageOf(language),
  });
}

/** The language a question was asked in: the one the caller named, else the one its words show, else none. */
export const askedLanguage = (language: string | undefined, question: string): string | null =>
  language ?? detectLanguage(question)?.code ?? null;

/**
 * Counts `question` as unanswered when nothing in the content answers it (the confidence a tool states: "none"),
 * with the entity it was asked of (null when the tool searched no one entity) and the language it was asked in.
 */
export function countIfUnanswered(ctx: ToolContext, question: string, tool: string, confidence: Confidence, about: UnansweredAbout): void {
  if (confidence === "none") ctx.countUnanswered(question, tool, about);
}

/** What a confidence means, in words, for a client that reads only the text of a result; and what to do with it. */
export const CONFIDENCE_WORDS: Record<Confidence, string> = {
  high: "Confidence: high. The first FAQ answers the question: answer from it, and say which hotel or place it is about.",
  low:
    "Confidence: low. These FAQs are related, but none clearly answers the question: tell the guest what they say and " +
    "that the content does not answer exactly what was asked; do not present them as the answer.",
  none:
    "Confidence: none. Nothing in this content answers the question: tell the guest so (suggest asking the hotel), and never " +
    "present an FAQ listed here as the answer; any listed are the entity's others, for browsing.",
};
