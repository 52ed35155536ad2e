import { matchingFaqRows, type FoundFaqRow } from "../storage/faqs";
import type { D1Reader } from "../storage/reader";
import { wordTokens } from "./analyze";
import { allLanguages, languageOf } from "./languages";
import { words, type Word } from "./normalize";

/**
 * Finding FAQs by their text, for the people who look after them (the console's home search, the operator's
 * `GET /admin/v1/content/faqs/search`): every word of the text must be in an FAQ's question or answer, in any
 * language, as the search index analyses it (a word's stem in each analysed language, or a longer word it begins),
 * so "parking" finds "park" and "parque". FTS5 matches the words together with the scope keys of migrations
 * 0009 and 0015: only FAQs within reach are read, whatever the size of the catalogue.
 */

/** How many FAQs one search lists at most. */
export const FOUND_AT_MOST = 50;
/** A search text's length at most, in characters. */
export const MAX_FIND_LENGTH = 200;
/** Words of a text searched at most; the rest are left out. */
const MAX_WORDS = 8;
/** A token this long or longer also finds the longer tokens it begins. */
const MIN_PREFIX_LENGTH = 3;
/** Words an excerpt shows at most. */
const EXCERPT_WORDS = 24;
/** Words shown before the first match, where the text has them. */
const EXCERPT_LEAD = 6;

/** The fields of an FAQ a search shows its match in, in this order. */
export const FOUND_IN = ["question", "answer"] as const;
export type FoundField = (typeof FOUND_IN)[number];

/** A piece of an excerpt: text as written, marked when it is a word the search matched. */
export interface ExcerptPiece {
  text: string;
  mark: boolean;
}

export interface FoundFaq {
  entityId: string;
  entityName: string;
  entityKind: FoundFaqRow["entity_kind"];
  brandId: string | null;
  /** 1 is the entity's first FAQ. */
  position: number;
  language: string;
  translation: boolean;
  question: string;
  /** Where the match is: the field, and a short passage of it with the matched words marked. */
  field: FoundField;
  excerpt: ExcerptPiece[];
}

export interface FoundFaqs {
  faqs: FoundFaq[];
  /** How many rows matched in all; more than `faqs.length` when the list was cut at FOUND_AT_MOST. */
  total: number;
}

/**
 * Who may see what: an FAQ is found only when it carries a key of every list (an entity's own key, or its brand's
 * for a property); an empty list admits nothing. No lists: the whole catalogue (the operator).
 */
export type Reach = string[][];

const hexOf = (text: string): string =>
  [...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, "0").toUpperCase()).join("");
/** An entity's scope key as migration 0009 writes it: `k` and the hex of its ID. */
const scopeKey = (entityId: string): string => `k${hexOf(entityId)}`;

/** The tokens each searched word may be, in any analysed language; words that are stop words everywhere drop out. */
function searchedTokens(text: string): string[][] {
  return words(text)
    .map((word) => [...new Set(allLanguages().flatMap((language) => wordTokens(word, language)))])
    .filter((tokens) => tokens.length > 0)
    .slice(0, MAX_WORDS);
}

const ftsToken = (token: string): string => `"${token}"${token.length >= MIN_PREFIX_LENGTH ? "*" : ""}`;

/** The FTS5 expression: the reach's keys, and every word (one of its tokens) in the question or answer. */
function matchExpression(reach: Reach | null, tokens: string[][]): string {
  const keys = (reach ?? []).map((ids) => `scope_key : (${ids.length === 0 ? "knone" : ids.map(scopeKey).join(" OR ")})`);
  const text = tokens.map((alternatives) => `(${alternatives.map(ftsToken).join(" OR ")})`).join(" AND ");
  return [...keys, `{terms_q terms_a} : (${text})`].join(" AND ");
}

const matches = (word: Word, language: ReturnType<typeof languageOf>, tokens: string[]): boolean =>
  wordTokens(word, language).some((token) =>
    tokens.some((wanted) => token === wanted || (wanted.length >= MIN_PREFIX_LENGTH && token.startsWith(wanted))),
  );

/** A passage of `text` around its first matched word, the matched words marked; null when no word of it matches. */
export function excerptOf(text: string, matched: (word: Word) => boolean): ExcerptPiece[] | null {
  const found = words(text);
  const first = found.findIndex(matched);
  if (first < 0) return null;
  const start = Math.max(0, first - EXCERPT_LEAD);
  const shown = found.slice(start, start + EXCERPT_WORDS);
  const pieces: ExcerptPiece[] = [];
  let at = start === 0 ? 0 : shown[0]!.start;
  if (start > 0) pieces.push({ text: "…", mark: false });
  for (const word of shown) {
    if (word.start > at) pieces.push({ text: text.slice(at, word.start), mark: false });
    pieces.push({ text: word.text, mark: matched(word) });
    at = word.start + word.text.length;
  }
  const last = shown[shown.length - 1]!;
  const end = start + EXCERPT_WORDS >= found.length ? text.length : last.start + last.text.length;
  if (end > at) pieces.push({ text: text.slice(at, end), mark: false });
  if (end < text.length) pieces.push({ text: "…", mark: false });
  return pieces;
}

/** The FAQs within `reach` whose question or answer holds every word of `text`, at most FOUND_AT_MOST. */
export async function findFaqs(db: D1Reader, text: string, reach: Reach | null): Promise<FoundFaqs> {
  const tokens = searchedTokens(text.slice(0, MAX_FIND_LENGTH));
  if (tokens.length === 0) return { faqs: [], total: 0 };
  const { rows, total } = await matchingFaqRows(db, matchExpression(reach, tokens), FOUND_AT_MOST);
  const wanted = tokens.flat();
  const faqs = rows.map((row): FoundFaq => {
    const language = languageOf(row.language);
    const matched = (word: Word) => matches(word, language, wanted);
    // The first field that shows a match; the question when none does (a match split across both fields).
    const [field, excerpt] = FOUND_IN.map((name) => [name, excerptOf(row[name], matched)] as const).find(([, pieces]) => pieces) ?? [
      "question" as const,
      [{ text: row.question, mark: false }],
    ];
    return {
      entityId: row.entity_id,
      entityName: row.entity_name,
      entityKind: row.entity_kind,
      brandId: row.brand_id,
      position: row.position + 1,
      language: row.language,
      translation: row.translation === 1,
      question: row.question,
      field,
      excerpt: excerpt ?? [],
    };
  });
  return { faqs, total };
}
