import { CONCEPT_KINDS, type ConceptKind } from "../storage/lexicon-terms";
import { analyze, stemSequences, wordTokens, type SurfaceStem } from "./analyze";
import { ANALYZED_LANGUAGES, DEFAULT_LANGUAGE, languageOf, type AnalyzedLanguage, type Language } from "./languages";
import data from "./lexicon.json";
import { words } from "./normalize";
import { typoDistance } from "./spelling";
import dictionary from "./words.json";

/**
 * The hospitality lexicon: concepts a guest asks about, each with its terms per language (lexicon.json and
 * words.json, plus what an operator adds). A topic (parking, pets, Wi-Fi...) is what an FAQ can be about; a facet
 * (price, time, distance) is the kind of answer asked for, an aspect of many topics; a word (words.json) is one
 * word and its equivalents: its synonyms and spellings in English and what it is in each other language, so a
 * guest's own word meets the FAQ's ("warm" and "heated", "piscina" and "pool").
 *
 * A term is found in a question when its words are there in order, each the same word as the question's
 * (sameWord); a term written "=word" must be there letter for letter, a term written "~word" is weak
 * evidence on its own ("arrive": arriving by car is about the car), naming its concept half as strongly, and a
 * facet's term written "?word" is a way of asking for that kind of answer ("how much", "when") rather than a word
 * of what is asked about ("early", "free"). A
 * word no term matches may still match a single-word term it misspells by a letter (two from 9 letters), and
 * in a language that writes compounds as one word, a term it starts or ends with.
 */

export { CONCEPT_KINDS, type ConceptKind };

export interface ConceptTerms {
  concept: string;
  kind: ConceptKind;
  language: AnalyzedLanguage;
  terms: readonly string[];
}

/** Where a text names a concept: the words it covers (their positions in the text), in which language, how strongly. */
export interface Mention {
  concept: string;
  kind: ConceptKind;
  language: AnalyzedLanguage;
  positions: number[];
  strength: number;
  /** Read through a misspelling or a compound's part rather than as written. */
  near: boolean;
  /** A way of asking for the kind of answer ("how much", "what time"), not a word of what it is about. */
  asking: boolean;
}

interface CompiledTerm {
  concept: string;
  kind: ConceptKind;
  words: SurfaceStem[];
  exact: boolean;
  /** How strongly one mention names the concept. */
  strength: number;
  asking: boolean;
  /**
   * For a phrase of two words or more besides its stop words, those words' indexes: the phrase is found by them in
   * order, a few other words allowed between ("keep the room longer" in "keep our room a bit longer"). Null for a
   * term matched word for word.
   */
  loose: number[] | null;
}

/** How many other words a loose phrase may have between two of its own, besides its own small words. */
const MAX_GAP = 2;

/** A term as written in the lexicon: its words, and whether it is exact ("="), weak ("~") or a way of asking ("?"). */
const parseTerm = (term: string) => ({
  text: term.replace(/^[=~?]/, ""),
  exact: term.startsWith("="),
  strength: term.startsWith("~") ? 0.5 : 1,
  asking: term.startsWith("?"),
});

/** Words shorter than this are never read as misspellings or parts of a compound. */
const MIN_FUZZY_LENGTH = 5;
const MIN_COMPOUND_PART = 4;
const MIN_COMPOUND_LENGTH = 8;

/** A concept of the data files: its terms by language and, for a topic, the words of words.json that name it in every language. */
type ConceptData = Record<string, { words?: string[] } & Partial<Record<AnalyzedLanguage, string[]>>>;
const WORDS: Record<string, Partial<Record<AnalyzedLanguage, string[]>>> = dictionary.words;

/** Terms of the data files, concept by concept and language by language. */
function dataTerms(): ConceptTerms[] {
  const groups: [ConceptKind, ConceptData][] = [
    ["topic", data.topics],
    ["facet", data.facets],
    ["word", WORDS],
  ];
  return groups.flatMap(([kind, concepts]) =>
    Object.entries(concepts).flatMap(([concept, entry]) =>
      ANALYZED_LANGUAGES.flatMap((language) => {
        const terms = [...(entry[language] ?? []), ...(entry.words ?? []).flatMap((word) => WORDS[word]?.[language] ?? [])];
        return terms.length > 0 ? [{ concept, kind, language, terms }] : [];
      }),
    ),
  );
}

/** Endings of gender or number: none, a vowel, an s or es (gato, gata, gatos; kid, kids). */
const INFLECTION = /^(?:[aeiou]?s?|es)$/;

/**
 * Two words are the same when their stems are; a short stem (three letters or fewer) is trusted only when
 * the letters after it agree, or are both an ending of gender or number (gato, gata, gatos; kid, kids), since short
 * stems are where unrelated words meet ("como" and "comer" both stem to "com").
 */
function sameWord(a: SurfaceStem, b: SurfaceStem): boolean {
  if (a.stem !== b.stem) return false;
  if (a.stem.length > 3) return true;
  const [restA, restB] = [a.word.slice(a.stem.length), b.word.slice(b.stem.length)];
  return restA.slice(0, 1) === restB.slice(0, 1) || (INFLECTION.test(restA) && INFLECTION.test(restB));
}

/** Words (words.json) are a namespace of their own: a topic and a word may share a name ("lift", "beach"). */
const WORD_KEY = "word:";
const keyOf = (kind: ConceptKind, concept: string): string => (kind === "word" ? `${WORD_KEY}${concept}` : concept);
const nameOf = (key: string): string => (key.startsWith(WORD_KEY) ? key.slice(WORD_KEY.length) : key);

/** Where a term matched word for word starts at `at`: the indexes of the sequence it covers, or null. */
function strictFit(term: CompiledTerm, sequence: SurfaceStem[], at: number): number[] | null {
  const fits = term.words.every((w, i) => {
    const there = sequence[at + i];
    return there !== undefined && (term.exact ? there.word === w.word : sameWord(there, w));
  });
  return fits ? term.words.map((_, i) => at + i) : null;
}

/** Where a loose phrase's own words are found in order from `at`, each at most MAX_GAP words after the last: their indexes, or null. */
function looseFit(term: CompiledTerm, sequence: SurfaceStem[], at: number): number[] | null {
  if (!sameWord(sequence[at]!, term.words[term.loose![0]!]!)) return null;
  const found = [at];
  const own = term.loose!;
  for (let k = 1; k < own.length; k++) {
    const index = own[k]!;
    const last = found[found.length - 1]!;
    // The term's own small words between the two may be there, or others in their place, and MAX_GAP more.
    const gap = index - own[k - 1]! - 1 + MAX_GAP;
    let next = -1;
    for (let j = last + 1; j <= last + 1 + gap && j < sequence.length; j++) {
      if (sameWord(sequence[j]!, term.words[index]!)) {
        next = j;
        break;
      }
    }
    if (next < 0) return null;
    found.push(next);
  }
  return found;
}

export class Lexicon {
  /** By key (keyOf): each concept's kind. */
  private readonly kinds = new Map<string, ConceptKind>();
  private readonly terms = new Map<string, Map<AnalyzedLanguage, Set<string>>>();
  /** Per language, the terms by their first stem, for finding them in a question. */
  private readonly byFirstStem = new Map<AnalyzedLanguage, Map<string, CompiledTerm[]>>();
  /** Per language, the single-word terms, for misspellings and compounds. */
  private readonly singleWords = new Map<AnalyzedLanguage, CompiledTerm[]>();
  private readonly expanded = new Map<string, string[][]>();

  constructor(entries: readonly ConceptTerms[]) {
    for (const { concept, kind, language, terms } of entries) {
      const key = keyOf(kind, concept);
      if (!this.kinds.has(key)) this.kinds.set(key, kind);
      const byLanguage = this.terms.get(key) ?? new Map<AnalyzedLanguage, Set<string>>();
      this.terms.set(key, byLanguage);
      const known = byLanguage.get(language) ?? new Set<string>();
      byLanguage.set(language, known);
      for (const term of terms) {
        known.add(term);
        this.compile(concept, this.kinds.get(key)!, languageOf(language), term);
      }
    }
  }

  private compile(concept: string, kind: ConceptKind, language: Language, term: string): void {
    const { text, exact, strength, asking } = parseTerm(term);
    const index = this.byFirstStem.get(language.code) ?? new Map<string, CompiledTerm[]>();
    this.byFirstStem.set(language.code, index);
    for (const words of stemSequences(text, language)) {
      if (words.length === 0) continue;
      const own = words.flatMap((w, i) => (language.stopWords.has(w.word) ? [] : [i]));
      const loose = !exact && own.length >= 2 ? own : null;
      const compiled = { concept, kind, words, exact, strength, asking, loose };
      const key = words[loose ? loose[0]! : 0]!.stem;
      const first = index.get(key);
      if (first) first.push(compiled);
      else index.set(key, [compiled]);
      if (words.length === 1 && !exact) {
        const single = this.singleWords.get(language.code);
        if (single) single.push(compiled);
        else this.singleWords.set(language.code, [compiled]);
      }
    }
  }

  /** Every concept with its kind and terms, by concept then language. */
  entries(): ConceptTerms[] {
    return [...this.terms].flatMap(([key, byLanguage]) =>
      [...byLanguage].map(([language, terms]) => ({ concept: nameOf(key), kind: this.kinds.get(key)!, language, terms: [...terms] })),
    );
  }

  /** The kind of the topic or facet of that name, else of the word. */
  kindOf(concept: string): ConceptKind | undefined {
    return this.kinds.get(concept) ?? this.kinds.get(keyOf("word", concept));
  }

  /** The kind a concept of that name has among topics and facets, or among words: the two namespaces. */
  kindIn(namespace: "word" | "topic or facet", concept: string): ConceptKind | undefined {
    return this.kinds.get(namespace === "word" ? keyOf("word", concept) : concept);
  }

  /**
   * Every mention of a concept in `text`, looked for in `languages` and always in English, whose hotel words
   * (parking, spa, wifi, check-in) travellers use in every language; in order of the languages, then of the text.
   */
  mentionsIn(text: string, languages: readonly Language[]): Mention[] {
    const mentions: Mention[] = [];
    const searched = new Set([...languages, languageOf(DEFAULT_LANGUAGE)]);
    for (const language of searched) {
      const index = this.byFirstStem.get(language.code);
      if (!index) continue;
      for (const sequence of stemSequences(text, language)) {
        const matched = new Set<number>();
        sequence.forEach((word, at) => {
          for (const term of index.get(word.stem) ?? []) {
            const found = term.loose ? looseFit(term, sequence, at) : strictFit(term, sequence, at);
            if (!found) continue;
            mentions.push({
              concept: term.concept,
              kind: term.kind,
              language: language.code,
              positions: [...new Set(found.map((i) => sequence[i]!.position))],
              strength: term.strength,
              near: false,
              asking: term.asking,
            });
            for (const i of found) matched.add(i);
          }
        });
        sequence.forEach((word, at) => {
          if (matched.has(at) || word.word.length < MIN_FUZZY_LENGTH || language.stopWords.has(word.word)) return;
          for (const { concept, kind } of this.nearConcepts(word, language)) {
            mentions.push({
              concept,
              kind,
              language: language.code,
              positions: [word.position],
              strength: 1,
              near: true,
              asking: false,
            });
          }
        });
      }
    }
    return mentions;
  }

  /**
   * The topics and facets `text` names, in order of first mention, each with how strongly: the strength of every
   * mention, terms of one concept that share a word of the text being one mention ("late check-out").
   */
  conceptsIn(text: string, languages: readonly Language[]): Map<string, number> {
    return conceptStrengths(this.mentionsIn(text, languages).filter((m) => m.kind !== "word"));
  }

  /**
   * Concepts of single-word terms that `word` misspells (its first letter right), or (in a compounding language)
   * starts or ends with.
   */
  private nearConcepts(word: SurfaceStem, language: Language): CompiledTerm[] {
    const concepts = new Map<string, CompiledTerm>();
    const { bySpelling, byWord } = this.nearIndex(language);
    const text = word.word;
    for (let length = text.length - 2; length <= text.length + 2; length++) {
      for (const term of bySpelling.get(`${text[0]}${length}`) ?? []) {
        const candidate = term.words[0]!.word;
        const allowed = candidate.length >= 9 ? 2 : 1;
        if (Math.abs(candidate.length - text.length) <= allowed && typoDistance(candidate, text) <= allowed)
          concepts.set(keyOf(term.kind, term.concept), term);
      }
    }
    if (language.compounds && text.length >= MIN_COMPOUND_LENGTH) {
      for (let cut = MIN_COMPOUND_PART; cut < text.length; cut++) {
        for (const term of [...(byWord.get(text.slice(0, cut)) ?? []), ...(byWord.get(text.slice(text.length - cut)) ?? [])]) {
          concepts.set(keyOf(term.kind, term.concept), term);
        }
      }
    }
    return [...concepts.values()];
  }

  /** Per language, the single-word terms by first letter and length (for misspellings), and by the word itself (for compounds). */
  private readonly nearIndexes = new Map<
    AnalyzedLanguage,
    { bySpelling: Map<string, CompiledTerm[]>; byWord: Map<string, CompiledTerm[]> }
  >();

  private nearIndex(language: Language) {
    const known = this.nearIndexes.get(language.code);
    if (known) return known;
    const bySpelling = new Map<string, CompiledTerm[]>();
    const byWord = new Map<string, CompiledTerm[]>();
    const add = (index: Map<string, CompiledTerm[]>, key: string, term: CompiledTerm) => {
      const list = index.get(key);
      if (list) list.push(term);
      else index.set(key, [term]);
    };
    for (const term of this.singleWords.get(language.code) ?? []) {
      const candidate = term.words[0]!.word;
      if (candidate.length >= MIN_FUZZY_LENGTH) add(bySpelling, `${candidate[0]}${candidate.length}`, term);
      if (candidate.length >= MIN_COMPOUND_PART) add(byWord, candidate, term);
    }
    const index = { bySpelling, byWord };
    this.nearIndexes.set(language.code, index);
    return index;
  }

  /**
   * A concept's terms in `language` as analysed token phrases, each once; not a phrase one of whose words is a stop
   * word. `kind` tells a word from the topic of the same name.
   */
  expansions(concept: string, language: Language, kind: ConceptKind = this.kindOf(concept) ?? "topic"): string[][] {
    const key = `${keyOf(kind, concept)}\u0000${language.code}`;
    const cached = this.expanded.get(key);
    if (cached) return cached;
    const phrases = new Map<string, string[]>();
    for (const term of this.terms.get(keyOf(kind, concept))?.get(language.code) ?? []) {
      const { text } = parseTerm(term);
      // A phrase that loses a word to the stop words ("work out", "going out") means something else without it.
      if (!words(text).every((word) => wordTokens(word, language).length > 0)) continue;
      const tokens = analyze(text, language);
      if (tokens.length > 0) phrases.set(tokens.join(" "), tokens);
    }
    const result = [...phrases.values()];
    this.expanded.set(key, result);
    return result;
  }
}

/**
 * Each concept of `mentions`, in order of first mention, with how strongly it is named: the strength of every
 * mention, mentions of one concept sharing a word of the text being one ("late check-out" and "check-out").
 */
export function conceptStrengths(mentions: readonly Mention[]): Map<string, number> {
  const found = new Map<string, { strengths: Map<number, number>; covering: Map<number, number> }>();
  for (const { concept, positions, strength } of mentions) {
    const entry = found.get(concept) ?? { strengths: new Map<number, number>(), covering: new Map<number, number>() };
    found.set(concept, entry);
    const first = positions.map((p) => entry.covering.get(p)).find((m) => m !== undefined) ?? positions[0]!;
    for (const p of positions) entry.covering.set(p, first);
    entry.strengths.set(first, Math.max(entry.strengths.get(first) ?? 0, strength));
  }
  return new Map([...found].map(([concept, { strengths }]) => [concept, [...strengths.values()].reduce((a, b) => a + b, 0)]));
}

/** The lexicon of the data files alone. */
export const BUILT_IN_TERMS: readonly ConceptTerms[] = dataTerms();

/**
 * The words that name a thing a hotel has or does (a sauna, a cash machine, a shuttle): those a topic of lexicon.json
 * lists. A question about one of them that no FAQ mentions is a question the content does not answer; a word that
 * qualifies ("early", "heated") or asks tells less.
 */
const THINGS: ReadonlySet<string> = new Set(Object.values(data.topics as ConceptData).flatMap((topic) => topic.words ?? []));
export const namesAThing = (word: string): boolean => THINGS.has(word);
