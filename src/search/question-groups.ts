import { analyzedLanguageOf, DEFAULT_LANGUAGE, languageOf } from "./languages";
import type { Lexicon } from "./lexicon";
import { phrasingKey } from "./normalize";
import { planQuery } from "./plan";

/**
 * Guests' questions that ask the same thing, in whatever words and language, as one group: the search's own reading
 * of each (plan.ts, with the lexicon) names the topic it is about and the kinds of answer it asks for (a price, a
 * time); questions of one entity with the same first topic and the same kinds are one group ("can i bring my dog",
 * "are dogs allowed?" and "posso levar o meu cão" are all about pets, asking for no kind of answer). A question the
 * lexicon reads no topic in is grouped only with the same words (case, accents and punctuation aside).
 */

export interface AskedQuestion {
  question: string;
  /** The entity it was asked of, or null. */
  entityId: string | null;
  /** The language it was asked in (a BCP 47 tag), or null when not known. */
  language: string | null;
}

/** What a question asks, as the search reads it: its first topic and the kinds of answer asked for, else its words. */
export function askedAbout(question: string, language: string | null, lexicon: Lexicon): string {
  const plan = planQuery(question, lexicon, {
    content: languageOf(DEFAULT_LANGUAGE),
    language: language === null ? undefined : analyzedLanguageOf(language),
  });
  const topic = plan.concepts.find((c) => c.kind === "topic");
  if (!topic) return `words:${phrasingKey(question)}`;
  const facets = plan.concepts
    .filter((c) => c.kind === "facet")
    .map((c) => c.concept)
    .sort();
  return `topic:${topic.concept}${facets.map((facet) => `+${facet}`).join("")}`;
}

/**
 * `questions` in groups of those asking the same thing of the same entity, in the order of each group's first
 * question (so the most asked first when they come most asked first), each group's questions in their order.
 */
export function groupQuestions<T extends AskedQuestion>(questions: readonly T[], lexicon: Lexicon): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of questions) {
    const key = `${item.entityId ?? ""}\u0000${askedAbout(item.question, item.language, lexicon)}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}
