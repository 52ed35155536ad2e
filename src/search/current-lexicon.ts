import { RefreshingCache } from "../cache/refreshing-cache";
import { listLexiconTerms } from "../storage/lexicon-terms";
import type { D1Reader } from "../storage/reader";
import { isAnalyzedLanguage } from "./languages";
import { BUILT_IN_TERMS, Lexicon } from "./lexicon";

/**
 * The lexicon of this deployment, the built-in terms and the operator's, per isolate: at most
 * LEXICON_MAX_AGE_MS old, reloaded in the background after half of it, so questions never wait for it.
 * An operator's change is seen at once by the isolate that made it, everywhere else within that age.
 */
export const LEXICON_MAX_AGE_MS = 10_000;
const lexicons = new RefreshingCache<Lexicon>(LEXICON_MAX_AGE_MS / 2, LEXICON_MAX_AGE_MS, 1);

export function currentLexicon(db: D1Reader, waitUntil: (promise: Promise<unknown>) => void): Promise<Lexicon> {
  return lexicons.get("lexicon", () => storedLexicon(db), waitUntil);
}

/** The lexicon as stored now: the built-in terms and the operator's. */
export async function storedLexicon(db: D1Reader): Promise<Lexicon> {
  const added = (await listLexiconTerms(db)).flatMap((row) =>
    isAnalyzedLanguage(row.language) ? [{ concept: row.concept, kind: row.kind, language: row.language, terms: [row.term] }] : [],
  );
  return new Lexicon([...BUILT_IN_TERMS, ...added]);
}

/** A change made through this isolate is used by it at once. */
export const forgetLexicon = (): void => lexicons.delete("lexicon");
