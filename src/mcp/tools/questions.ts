import { lookupOrder } from "../../catalogue/languages";
import { currentLexicon } from "../../search/current-lexicon";
import { analyzedLanguageOf, DEFAULT_LANGUAGE, languageOf } from "../../search/languages";
import { detectLanguage, planQuery, type QueryPlan } from "../../search/plan";
import type { ToolContext } from "./tool";

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

/**
 * Counts `question` as unanswered when the best FAQ found neither matches one of its own words nor is about
 * one of its topics (or nothing was found): only terms its concepts brought in, if anything, connect them.
 */
export function countIfUnanswered(
  ctx: ToolContext,
  question: string,
  tool: string,
  best: { score: number; literal: number; topical: number } | undefined,
): void {
  if (!best || best.score === 0 || (best.literal === 0 && best.topical === 0)) ctx.countUnanswered(question, tool);
}
