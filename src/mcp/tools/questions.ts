import type { Confidence } from "../../search/confidence";
import { questionPlan as planOf } from "../../search/entity-question";
import { detectLanguage, type QueryPlan } from "../../search/plan";
import type { ToolContext, UnansweredAbout } from "./tool";

export { answerLanguages } from "../../search/entity-question";

/** What a question searches for (search/entity-question.ts), with the request's database and lexicon. */
export const questionPlan = (ctx: ToolContext, question: string, language: string | undefined): Promise<QueryPlan> =>
  planOf(ctx.db, ctx.waitUntil, question, language);

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
