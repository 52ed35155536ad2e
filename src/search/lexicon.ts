import { distance } from "fastest-levenshtein";
import { analyze, stemSequences, type SurfaceStem } from "./analyze";
import { DEFAULT_LANGUAGE, isAnalyzedLanguage, languageOf, type AnalyzedLanguage, type Language } from "./languages";
import data from "./lexicon.json";

/**
 * The hospitality lexicon: concepts a guest asks about, each with its terms per language (lexicon.json,
 * plus what an operator adds). A topic (parking, pets, Wi-Fi...) is what an FAQ can be about; a facet
 * (price, time, distance) is an aspect of many topics, so it widens a search but makes no FAQ more relevant.
 *
 * A term is found in a question when its words are there in order, each the same word as the question's
 * (sameWord); a term written "=word" must be there letter for letter, and a term written "~word" is weak
 * evidence on its own ("arrive": arriving by car is about the car), naming its concept half as strongly. A
 * word no term matches may still match a single-word term it misspells by a letter (two for long words), and
 * in a language that writes compounds as one word, a term it starts or ends with.
 */

export type ConceptKind = "topic" | "facet";

export interface ConceptTerms {
  concept: string;
  kind: ConceptKind;
  language: AnalyzedLanguage;
  terms: readonly string[];
}

interface CompiledTerm {
  concept: string;
  words: SurfaceStem[];
  exact: boolean;
  /** How strongly one mention names the concept. */
  strength: number;
}

/** A term as written in the lexicon: its words, and whether it is exact ("=") or weak ("~"). */
const parseTerm = (term: string) => ({
  text: term.replace(/^[=~]/, ""),
  exact: term.startsWith("="),
  strength: term.startsWith("~") ? 0.5 : 1,
});

/** Words shorter than this are never read as misspellings or parts of a compound. */
const MIN_FUZZY_LENGTH = 7;
const MIN_COMPOUND_PART = 4;
const MIN_COMPOUND_LENGTH = 8;

/** Terms of the lexicon data file, concept by concept and language by language. */
function dataTerms(): ConceptTerms[] {
  const groups: [ConceptKind, Record<string, Record<string, string[]>>][] = [
    ["topic", data.topics],
    ["facet", data.facets],
  ];
  return groups.flatMap(([kind, concepts]) =>
    Object.entries(concepts).flatMap(([concept, byLanguage]) =>
      Object.entries(byLanguage).flatMap(([language, terms]) => (isAnalyzedLanguage(language) ? [{ concept, kind, language, terms }] : [])),
    ),
  );
}

const INFLECTION = /^[aeiou]s?$/;

/**
 * Two words are the same when their stems are; a short stem (three letters or fewer) is trusted only when
 * the letters after it agree, or are both an ending of gender or number (gato, gata, gatos), since short
 * stems are where unrelated words meet ("como" and "comer" both stem to "com").
 */
function sameWord(a: SurfaceStem, b: SurfaceStem): boolean {
  if (a.stem !== b.stem) return false;
  if (a.stem.length > 3) return true;
  const [restA, restB] = [a.word.slice(a.stem.length), b.word.slice(b.stem.length)];
  return restA.slice(0, 1) === restB.slice(0, 1) || (INFLECTION.test(restA) && INFLECTION.test(restB));
}

export class Lexicon {
  private readonly kinds = new Map<string, ConceptKind>();
  private readonly terms = new Map<string, Map<AnalyzedLanguage, Set<string>>>();
  /** Per language, the terms by their first stem, for finding them in a question. */
  private readonly byFirstStem = new Map<AnalyzedLanguage, Map<string, CompiledTerm[]>>();
  /** Per language, the single-word terms, for misspellings and compounds. */
  private readonly singleWords = new Map<AnalyzedLanguage, CompiledTerm[]>();

  constructor(entries: readonly ConceptTerms[]) {
    for (const { concept, kind, language, terms } of entries) {
      if (!this.kinds.has(concept)) this.kinds.set(concept, kind);
      const byLanguage = this.terms.get(concept) ?? new Map<AnalyzedLanguage, Set<string>>();
      this.terms.set(concept, byLanguage);
      const known = byLanguage.get(language) ?? new Set<string>();
      byLanguage.set(language, known);
      for (const term of terms) {
        known.add(term);
        this.compile(concept, languageOf(language), term);
      }
    }
  }

  private compile(concept: string, language: Language, term: string): void {
    const { text, exact, strength } = parseTerm(term);
    const index = this.byFirstStem.get(language.code) ?? new Map<string, CompiledTerm[]>();
    this.byFirstStem.set(language.code, index);
    for (const words of stemSequences(text, language)) {
      if (words.length === 0) continue;
      const compiled = { concept, words, exact, strength };
      index.set(words[0]!.stem, [...(index.get(words[0]!.stem) ?? []), compiled]);
      if (words.length === 1 && !exact) this.singleWords.set(language.code, [...(this.singleWords.get(language.code) ?? []), compiled]);
    }
  }

  /** Every concept with its kind and terms, by concept then language. */
  entries(): ConceptTerms[] {
    return [...this.terms].flatMap(([concept, byLanguage]) =>
      [...byLanguage].map(([language, terms]) => ({ concept, kind: this.kinds.get(concept)!, language, terms: [...terms] })),
    );
  }

  kindOf(concept: string): ConceptKind | undefined {
    return this.kinds.get(concept);
  }

  /**
   * The concepts `text` names, in order of first mention, each with how strongly: the strength of every
   * mention, terms of one concept that share a word of the text being one mention ("late check-out").
   * Looked for in `languages` and always in English, whose hotel words (parking, spa, wifi, check-in)
   * travellers use in every language.
   */
  conceptsIn(text: string, languages: readonly Language[]): Map<string, number> {
    // Per concept: the strength of each mention, by the first word it covers; and which mention covers each word.
    const found = new Map<string, { strengths: Map<number, number>; covering: Map<number, number> }>();
    const mention = (concept: string, positions: number[], strength: number) => {
      const { strengths, covering } = found.get(concept) ?? { strengths: new Map<number, number>(), covering: new Map<number, number>() };
      found.set(concept, { strengths, covering });
      const first = positions.map((p) => covering.get(p)).find((m) => m !== undefined) ?? positions[0]!;
      for (const p of positions) covering.set(p, first);
      strengths.set(first, Math.max(strengths.get(first) ?? 0, strength));
    };
    const searched = new Set([...languages, languageOf(DEFAULT_LANGUAGE)]);
    for (const language of searched) {
      const index = this.byFirstStem.get(language.code);
      if (!index) continue;
      for (const sequence of stemSequences(text, language)) {
        const matched = new Set<number>();
        sequence.forEach((word, at) => {
          for (const term of index.get(word.stem) ?? []) {
            const fits = term.words.every((w, i) => {
              const there = sequence[at + i];
              return there !== undefined && (term.exact ? there.word === w.word : sameWord(there, w));
            });
            if (!fits) continue;
            mention(
              term.concept,
              term.words.map((_, i) => sequence[at + i]!.position),
              term.strength,
            );
            for (let i = 0; i < term.words.length; i++) matched.add(at + i);
          }
        });
        sequence.forEach((word, at) => {
          if (matched.has(at) || word.word.length < MIN_FUZZY_LENGTH || language.stopWords.has(word.word)) return;
          for (const concept of this.nearConcepts(word, language)) mention(concept, [word.position], 1);
        });
      }
    }
    return new Map([...found].map(([concept, { strengths }]) => [concept, [...strengths.values()].reduce((a, b) => a + b, 0)]));
  }

  /** Concepts of single-word terms that `word` misspells, or (in a compounding language) starts or ends with. */
  private nearConcepts(word: SurfaceStem, language: Language): string[] {
    const concepts: string[] = [];
    for (const term of this.singleWords.get(language.code) ?? []) {
      const candidate = term.words[0]!.word;
      const allowed = candidate.length >= 9 ? 2 : 1;
      const misspelt =
        candidate.length >= MIN_FUZZY_LENGTH &&
        Math.abs(candidate.length - word.word.length) <= allowed &&
        distance(candidate, word.word) <= allowed;
      const inCompound =
        language.compounds &&
        word.word.length >= MIN_COMPOUND_LENGTH &&
        candidate.length >= MIN_COMPOUND_PART &&
        candidate.length < word.word.length &&
        (word.word.startsWith(candidate) || word.word.endsWith(candidate));
      if (misspelt || inCompound) concepts.push(term.concept);
    }
    return concepts;
  }

  /** A concept's terms in `language` as analysed token phrases (stop words out), each once. */
  expansions(concept: string, language: Language): string[][] {
    const phrases = new Map<string, string[]>();
    for (const term of this.terms.get(concept)?.get(language.code) ?? []) {
      const tokens = analyze(parseTerm(term).text, language);
      if (tokens.length > 0) phrases.set(tokens.join(" "), tokens);
    }
    return [...phrases.values()];
  }
}

/** The lexicon of the data file alone. */
export const BUILT_IN_TERMS: readonly ConceptTerms[] = dataTerms();
