import type { FaqIndexTerms } from "../storage/faqs";
import type { Language } from "./languages";
import { words, type Word } from "./normalize";

/**
 * Text analysis, the same when an FAQ is indexed and when a question arrives: words folded (case,
 * diacritics), stop words left out, the rest stemmed in the text's language. A compound written with a
 * hyphen, slash or dot counts as its pieces and as one word ("wi-fi" is "wi", "fi" and "wifi"; "check-out"
 * is "check" and "checkout"), so each way of writing it finds the others.
 */

/** The version of this analysis; rows analysed by an older one are analysed again by `search reindex`. */
export const ANALYZER_VERSION = 2;

const MIN_PIECE_LENGTH = 2;
const MIN_JOINED_LENGTH = 3;

/** The stems a word contributes to the index or to a query. */
export function wordTokens(word: Word, language: Language): string[] {
  const tokens: string[] = [];
  for (const piece of word.pieces) {
    if (piece.text.length >= MIN_PIECE_LENGTH && !language.stopWords.has(piece.text)) tokens.push(language.stem(piece.text));
  }
  // A compound of stop words alone ("sont-ils") says no more than its pieces.
  for (const { joined, pieces } of joinedRuns(word)) {
    if (joined.length >= MIN_JOINED_LENGTH && pieces.some((p) => !language.stopWords.has(p))) tokens.push(language.stem(joined));
  }
  return tokens;
}

/** The runs of two or more pieces joined by hyphens, slashes or dots, each as one word and its pieces. */
function joinedRuns(word: Word): { joined: string; pieces: string[] }[] {
  const runs: { joined: string; pieces: string[] }[] = [];
  let run: string[] = [];
  for (const piece of [...word.pieces, { text: "", joined: false }]) {
    if (piece.joined) run.push(piece.text);
    else {
      if (run.length > 1) runs.push({ joined: run.join(""), pieces: run });
      run = [piece.text];
    }
  }
  return runs;
}

/** The tokens of `text` in order, as indexed and searched. */
export const analyze = (text: string, language: Language): string[] => words(text).flatMap((word) => wordTokens(word, language));

/** Whether one written word yields `token` when analysed: what a snippet highlights. */
export const wordYields = (word: Word, language: Language, tokens: ReadonlySet<string>): boolean =>
  wordTokens(word, language).some((token) => tokens.has(token));

/**
 * The text as stored for the full-text index: each token between spaces (` a  b `), so that counting a
 * token or a phrase of tokens in it is counting ` a ` or ` a  b `, never part of a longer token.
 */
export const termString = (tokens: readonly string[]): string => tokens.map((token) => ` ${token} `).join("");

/** A word of a sequence the lexicon is looked for in: as written (folded), its stem, and which word of the text it is. */
export interface SurfaceStem {
  word: string;
  stem: string;
  /** The same in every sequence of one text, so a word read in two sequences is one mention. */
  position: number;
}

/**
 * Every piece of `text`, stop words included, in order, and the same with each hyphenated compound as one
 * word: the sequences the lexicon's phrases are looked for in ("check in", "checkout", "car park").
 */
export function stemSequences(text: string, language: Language): SurfaceStem[][] {
  const at = (word: string, position: number): SurfaceStem => ({ word, stem: language.stem(word), position });
  const found = words(text);
  const pieces = found.flatMap((word, position) => word.pieces.map((piece) => at(piece.text, position)));
  const wholeWords = found.flatMap((word, position) => {
    const joined = joinedRuns(word);
    return joined.length > 0 && word.pieces.every((p, i) => i === 0 || p.joined)
      ? [at(joined[0]!.joined, position)]
      : word.pieces.map((p) => at(p.text, position));
  });
  return pieces.length === wholeWords.length ? [pieces] : [pieces, wholeWords];
}

/**
 * What the index keeps of an FAQ: its question, answer and category analysed, and the analysis version. The ways
 * guests ask it (`phrasings`, each with the language it is analysed in) are indexed with its question.
 */
export const faqTerms = (
  faq: { question: string; answer: string; category: string },
  language: Language,
  phrasings: readonly (readonly [text: string, language: Language])[] = [],
): FaqIndexTerms => ({
  terms_q: termString([...analyze(faq.question, language), ...phrasings.flatMap(([text, own]) => analyze(text, own))]),
  terms_a: termString(analyze(faq.answer, language)),
  terms_c: termString(analyze(faq.category, language)),
  analyzer: ANALYZER_VERSION,
});
