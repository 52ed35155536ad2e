import type { RankingInput } from "../storage/scoped-content";
import { analyze, termString } from "./analyze";
import { allLanguages, type Language } from "./languages";
import type { Lexicon } from "./lexicon";
import { words } from "./normalize";

/**
 * What a question searches for: its own words (the literal terms), the terms of the concepts it names
 * (expansions, weighing less), and the topics that make an FAQ about what was asked. Pure: the ranking
 * itself runs in D1 over the caller's FAQs only (storage/scoped-content.ts), whatever the plan names.
 */

/** How a plan weighs: tuned on the tune half of bench/retrieval (docs/retrieval.md). */
export const WEIGHTS = {
  /** A term that only a concept of the question brought in, against 1 for the question's own words. */
  expansion: 0.4,
  /**
   * Added to an FAQ whose question or category is about a topic of the question, for a topic named once;
   * a topic named only weakly adds half as much more than nothing, one named twice or more half as much again.
   */
  topic: 1.5,
  /** A match in an FAQ's question counts this many times a match in its answer. */
  questionField: 2,
};

/**
 * At most this many of the question's own words are searched for, and at most this many terms of each
 * concept it names (the first ones of the lexicon), up to this many in all, in each language searched
 * (the content's, and the question's when it is another): what a long question may cost.
 */
export const MAX_LITERAL_TERMS = 12;
export const MAX_TERMS_PER_CONCEPT = 6;
export const MAX_EXPANSION_TERMS = 24;

export interface QueryTerm {
  /** Tokens, space-separated: an FTS5 phrase once quoted. */
  phrase: string;
  /**
   * Terms of one group count as one term: each of the question's own words is a group, and so is each
   * concept, so a concept with many terms weighs no more than one word of the question.
   */
  group: string;
  /** The phrase as it stands in a stored term string (` a  b `), for counting it there. */
  pattern: string;
  weight: number;
}

export interface QueryPlan {
  /** The language the question's words were analysed in. */
  language: Language;
  /** The language of the FAQs searched: expansions are in it, and in the question's language (FAQs may be translated into it). */
  content: Language;
  literal: string[];
  concepts: string[];
  terms: QueryTerm[];
  /** Term-string patterns of the question's topics, each with what it adds to an FAQ whose question or category holds it. */
  topics: [pattern: string, boost: number][];
}

/**
 * The language a question is written in, when its small words say so: the language with the most of the
 * question's words among its stop words, if one has more than every other; otherwise none is assumed.
 */
export function detectLanguage(text: string): Language | null {
  // One-letter words (Spanish "o", "y", Portuguese "e", "a") say too little.
  const pieces = words(text)
    .flatMap((w) => w.pieces.map((p) => p.text))
    .filter((p) => p.length > 1);
  let best: Language | null = null;
  let bestHits = 0;
  let tie = false;
  for (const language of allLanguages()) {
    const hits = pieces.filter((p) => language.stopWords.has(p)).length;
    if (hits > bestHits) [best, bestHits, tie] = [language, hits, false];
    else if (hits === bestHits && hits > 0) tie = true;
  }
  return tie ? null : best;
}

const queryTerm = (tokens: string[], weight: number, group: string): QueryTerm => ({
  phrase: tokens.join(" "),
  pattern: termString(tokens),
  weight,
  group,
});

/**
 * The plan of `text` against FAQs written in `content` and their translations into the question's language.
 * The question's language is `language` when given, else detected, else `content`; its concepts are looked
 * for in that language or, when none is known, in every language, so a question in Portuguese still finds
 * English FAQs through the concepts it names, and Portuguese translations through their Portuguese terms.
 */
export function planQuery(text: string, lexicon: Lexicon, { content, language }: { content: Language; language?: Language }): QueryPlan {
  const detected = language ?? detectLanguage(text);
  const queryLanguage = detected ?? content;
  // Words shared across languages (taxi, metro, spa) match content in another language as written.
  const analysed = queryLanguage === content ? analyze(text, content) : [...analyze(text, queryLanguage), ...analyze(text, content)];
  const literal = [...new Set(analysed)].slice(0, MAX_LITERAL_TERMS);
  const strengths = lexicon.conceptsIn(text, detected ? [detected] : allLanguages());
  // Topics before facets: what the question is about matters more than which aspect of it.
  const concepts = [...strengths.keys()].sort((a, b) => Number(lexicon.kindOf(a) === "facet") - Number(lexicon.kindOf(b) === "facet"));

  const terms = literal.map((token) => queryTerm([token], 1, `word:${token}`));
  const seen = new Set(literal);
  const topics = new Map<string, number>();
  const contents = queryLanguage === content ? [content] : [content, queryLanguage];
  const expanded = new Map(contents.map((language) => [language, 0]));
  for (const concept of concepts) {
    for (const language of contents) {
      let taken = 0;
      for (const tokens of lexicon.expansions(concept, language)) {
        if (lexicon.kindOf(concept) === "topic") {
          const boost = WEIGHTS.topic * (0.5 + 0.5 * Math.min(2, strengths.get(concept)!));
          topics.set(termString(tokens), Math.max(topics.get(termString(tokens)) ?? 0, boost));
        }
        const phrase = tokens.join(" ");
        if (seen.has(phrase) || taken >= MAX_TERMS_PER_CONCEPT || expanded.get(language)! >= MAX_EXPANSION_TERMS) continue;
        seen.add(phrase);
        taken += 1;
        expanded.set(language, expanded.get(language)! + 1);
        terms.push(queryTerm(tokens, WEIGHTS.expansion, `concept:${concept}`));
      }
    }
  }
  return { language: queryLanguage, content, literal, concepts, terms, topics: [...topics] };
}

/** A ranking that ranks nothing: every FAQ keeps its stored order, in its entity's default language. */
export const NO_RANKING: RankingInput = { groups: [], topics: [], questionField: 1, languages: [] };

/**
 * The plan as the ranking in D1 takes it (storage/scoped-content.ts), with the languages asked for in lookup
 * order (none: every FAQ in its entity's default language).
 */
export const rankingInput = (plan: QueryPlan, languages: string[]): RankingInput => ({
  groups: [...Map.groupBy(plan.terms, (t) => t.group).values()].map((terms) => ({
    match: terms.map((t) => `"${t.phrase}"`).join(" OR "),
    patterns: terms.map((t) => t.pattern),
    weight: terms[0]!.weight,
  })),
  topics: plan.topics,
  questionField: WEIGHTS.questionField,
  languages,
});

/** Every token the plan searches for: what a snippet marks. */
export const plannedTokens = (plan: QueryPlan): Set<string> => new Set(plan.terms.flatMap((t) => t.phrase.split(" ")));
