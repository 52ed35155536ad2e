/**
 * Normalisation shared by indexing and querying: Unicode compatibility forms, case and diacritics folded, so
 * "WI‑FI", "Wi-Fi" and "wi-fi", or "Málaga" and "malaga", are the same letters.
 */

/** Lower case without diacritics (NFKD, combining marks dropped); ß, æ, œ, ø, đ and ł become plain letters. */
export const fold = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/æ/g, "ae")
    .replace(/œ/g, "oe")
    .replace(/ø/g, "o")
    .replace(/đ/g, "d")
    .replace(/ł/g, "l");

/**
 * What a lookup by name compares: the name folded, its spaces collapsed, so "MÜNCHEN  Central" finds
 * "München Central" and "Malaga" finds "Málaga".
 */
export const nameKey = (name: string): string => fold(name).replace(/\s+/g, " ").trim();

/** One piece of a written word, folded: "check-out" has two, "l'hôtel" two, "breakfast" one. */
export interface Piece {
  text: string;
  /** Joined to the previous piece by a hyphen, slash or dot, so the two may also be written as one word (wi-fi, wifi). */
  joined: boolean;
}

/** A word as written in the text, where it starts, and its folded pieces. */
export interface Word {
  text: string;
  start: number;
  pieces: Piece[];
}

// Letters and digits, joined by hyphens, slashes, dots or apostrophes inside one word (wi-fi, check-in, 24/7, l'hôtel).
const WORD = /[\p{L}\p{N}]+(?:[-‐‑–/.'’][\p{L}\p{N}]+)*/gu;
const PIECE = /([-‐‑–/.'’]?)([\p{L}\p{N}]+)/gu;
const APOSTROPHE = /['’]/;

/** The words of `text` in order, each with where it starts in `text`. */
export function words(text: string): Word[] {
  return [...text.matchAll(WORD)].map((match) => ({
    text: match[0],
    start: match.index,
    pieces: [...fold(match[0]).matchAll(PIECE)].map(([, joiner = "", piece = ""]) => ({
      text: piece,
      joined: joiner !== "" && !APOSTROPHE.test(joiner),
    })),
  }));
}

/**
 * A question as a way of asking an FAQ is compared (an FAQ's `phrasings`): its words folded, one space between them,
 * so "Can I bring my dog?", "can i bring my dog" and "CAN I BRING MY DOG!!" are one way of asking; "" when it has
 * no word.
 */
export const phrasingKey = (text: string): string =>
  words(text)
    .flatMap((word) => word.pieces.map((piece) => piece.text))
    .join(" ");

/** Longest slug, in characters; a longer question is cut at a word. */
const MAX_SLUG_LENGTH = 80;

/**
 * A text as a URL fragment or an ID part: its folded pieces joined by "-" ("Is there parking?" is
 * "is-there-parking"), letters of any script kept; "faq" when it has no letter or digit.
 */
export function slug(text: string): string {
  let joined = "";
  for (const piece of words(text).flatMap((word) => word.pieces.map((p) => p.text))) {
    const next = joined === "" ? piece : `${joined}-${piece}`;
    if (next.length > MAX_SLUG_LENGTH) {
      if (joined === "") joined = [...piece].slice(0, MAX_SLUG_LENGTH).join("");
      break;
    }
    joined = next;
  }
  return joined || "faq";
}
