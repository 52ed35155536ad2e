import { currentLexicon } from "../../search/current-lexicon";
import { DEFAULT_LANGUAGE, languageOf } from "../../search/languages";
import { planQuery, type QueryPlan } from "../../search/plan";
import type { ToolContext } from "./tool";

/** What a question searches for, with this deployment's lexicon, against FAQs in the content's language. */
export async function questionPlan(ctx: ToolContext, question: string): Promise<QueryPlan> {
  const lexicon = await currentLexicon(ctx.db, ctx.waitUntil);
  return planQuery(question, lexicon, { content: languageOf(DEFAULT_LANGUAGE) });
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
