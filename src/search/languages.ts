import { stemmer as stemDe } from "@orama/stemmers/german";
import { stemmer as stemEn } from "@orama/stemmers/english";
import { stemmer as stemEs } from "@orama/stemmers/spanish";
import { stemmer as stemFr } from "@orama/stemmers/french";
import { stemmer as stemIt } from "@orama/stemmers/italian";
import { stemmer as stemNl } from "@orama/stemmers/dutch";
import { stemmer as stemPt } from "@orama/stemmers/portuguese";
import { stopwords as stopDe } from "@orama/stopwords/german";
import { stopwords as stopEn } from "@orama/stopwords/english";
import { stopwords as stopEs } from "@orama/stopwords/spanish";
import { stopwords as stopFr } from "@orama/stopwords/french";
import { stopwords as stopIt } from "@orama/stopwords/italian";
import { stopwords as stopNl } from "@orama/stopwords/dutch";
import { stopwords as stopPt } from "@orama/stopwords/portuguese";
import { fold } from "./normalize";
import guardedStems from "./stems.json";
import hotelWords from "./stopwords.json";

/**
 * The languages text is analysed in: each with its Snowball stemmer and stop words (Orama's packages of the
 * Snowball algorithms and lists), and the hotel words of stopwords.json. Adding a language is adding its
 * line here, its hotel words, and its terms to the lexicon.
 */
export const ANALYZED_LANGUAGES = ["en", "pt", "es", "fr", "de", "it", "nl"] as const;
export type AnalyzedLanguage = (typeof ANALYZED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: AnalyzedLanguage = "en";

export interface Language {
  code: AnalyzedLanguage;
  /** The stem of a folded word (lower case, no diacritics). */
  stem(word: string): string;
  /** Folded stop words: left out of what is indexed and searched, still read when phrases of the lexicon are matched. */
  stopWords: ReadonlySet<string>;
  /** Writes compounds as one word (Einwegplastik, Stornobedingungen): the lexicon looks for its words inside them. */
  compounds: boolean;
}

/** Stems kept per language, at most: a bound on what an isolate holds, however many distinct words it reads. */
const MAX_KEPT_STEMS = 50_000;

const define = (code: AnalyzedLanguage, stem: (word: string) => string, stopWords: string[], compounds = false): Language => {
  // Words the stemmer would merge with unrelated ones keep the stem stems.json gives them ("wellness" is not "well").
  // Stems are kept once computed: the same few thousand words come again in every question, FAQ and lexicon term.
  const stems = new Map<string, string>(Object.entries(guardedStems[code]));
  const kept = new Set(hotelWords.kept[code].map(fold));
  return {
    code,
    compounds,
    // The stemmers expect lower-case words; folding first makes "Frühstück" and "fruhstuck" one stem.
    stem: (word) => {
      let stemmed = stems.get(word);
      if (stemmed === undefined) {
        stemmed = fold(stem(word));
        if (stems.size < MAX_KEPT_STEMS) stems.set(word, stemmed);
      }
      return stemmed;
    },
    stopWords: new Set([...stopWords, ...hotelWords[code]].map(fold).filter((word) => !kept.has(word))),
  };
};

const LANGUAGES: Record<AnalyzedLanguage, Language> = {
  en: define("en", stemEn, stopEn),
  pt: define("pt", stemPt, stopPt),
  es: define("es", stemEs, stopEs),
  fr: define("fr", stemFr, stopFr),
  de: define("de", stemDe, stopDe, true),
  it: define("it", stemIt, stopIt),
  nl: define("nl", stemNl, stopNl, true),
};

export const isAnalyzedLanguage = (code: string): code is AnalyzedLanguage => (ANALYZED_LANGUAGES as readonly string[]).includes(code);

/** The analysis of a BCP 47 tag's primary language (`pt-BR` is Portuguese); English for any other. */
export const languageOf = (tag: string | null | undefined): Language => analyzedLanguageOf(tag ?? "") ?? LANGUAGES[DEFAULT_LANGUAGE];

export const allLanguages = (): Language[] => ANALYZED_LANGUAGES.map((code) => LANGUAGES[code]);

/** The analysis of a BCP 47 tag's primary language when it is one of ANALYZED_LANGUAGES; undefined for any other. */
export function analyzedLanguageOf(tag: string): Language | undefined {
  const primary = tag.split("-")[0]!.toLowerCase();
  return isAnalyzedLanguage(primary) ? LANGUAGES[primary] : undefined;
}
