import { ENTITY_ID_PATTERN, ID_PREFIX } from "../storage/entities";
import type { EntityKind } from "../storage/entities";
import names from "./names.json";
import { fold, words } from "./normalize";
import { typoDistance } from "./spelling";

/**
 * Resolving a name as people write it to an entity in scope: extra words ("hotel", "the"), the brand left out,
 * small typos, case, diacritics, a city's name in another language ("Wien", "Lisboa"), the kind of entity meant
 * ("the Lisbon tourism board", "Lisbon airport"). Pure: the candidates come from the caller's scope.
 */

export interface Candidate {
  id: string;
  name: string;
  kind: EntityKind;
  /** The brand's name, for a property. */
  brandName: string | null;
}

export interface ScoredCandidate extends Candidate {
  /** 0 to 1: how much of the reference the name accounts for, and of the name the reference. */
  score: number;
}

export type Resolution =
  | { entity: ScoredCandidate; candidates: [] }
  /** Several fit about as well (or none well enough): ranked by score, best first. */
  | { entity: null; candidates: ScoredCandidate[] };

const GENERIC = new Set(names.genericWords.map(fold));
const KIND_WORDS = new Map<string, EntityKind>(
  Object.entries(names.kindWords).flatMap(([kind, list]) => list.map((word) => [fold(word), kind as EntityKind] as const)),
);
/** Each other name of a place, folded, with its English name written as one token. */
const PLACES: [variant: string, canonical: string][] = names.places.flatMap(([english, ...others]) =>
  [english!, ...others].map((variant) => [fold(variant), fold(english!).replace(/ /g, "")] as [string, string]),
);

/** Only this close a reference must be to resolve at once; candidates beyond it are shown, ranked. */
const RESOLVE_AT = 0.75;
/** The best must lead the next by this much to be picked without asking. */
const CLEAR_LEAD = 0.1;
/** Candidates scoring below this are not offered. */
const CANDIDATE_AT = 0.35;
export const MAX_CANDIDATES = 5;
/** The longest reference taken (a tool's `entity`, a value to complete): a name is a few words. */
export const MAX_REFERENCE_LENGTH = 200;
/**
 * A reference is compared with candidates by its first this many distinctive words: each is compared with every
 * word of up to hundreds of candidates' names, and no name has as many.
 */
export const MAX_REFERENCE_WORDS = 12;

/** How alike two words are: 1 equal; less for a letter or two wrong, missing, extra or swapped in a longer word. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  // More than two edits apart, whatever the letters: no need to count them.
  if (Math.abs(a.length - b.length) > 2) return 0;
  const longest = Math.max(a.length, b.length);
  const edits = typoDistance(a, b);
  if (edits === 1 && longest >= 4) return 0.9;
  if (edits === 2 && longest >= 8) return 0.8;
  return 0;
}

type Scored = { candidate: Candidate; score: number };
/** Higher score first; then by name and ID, so equal scores always come in one order. */
const bestFirst = (a: Scored, b: Scored): number =>
  b.score - a.score || a.candidate.name.localeCompare(b.candidate.name) || a.candidate.id.localeCompare(b.candidate.id);

/** The folded text with each other name of a place replaced by its English one. */
function canonical(text: string): string {
  let folded = ` ${fold(text).replace(/[^\p{L}\p{N}]+/gu, " ")} `;
  for (const [variant, english] of PLACES) folded = folded.replaceAll(` ${variant} `, ` ${english} `);
  return folded;
}

interface Reading {
  tokens: string[];
  kinds: Set<EntityKind>;
  /** All of it but the generic words as one word, as written: "VisitLisboa", "visit-lisboa", "visitlisboa.com". */
  compact: string;
}

const pieces = (text: string) => words(text).flatMap((word) => word.pieces.map((p) => p.text));

/** What a name says: its distinctive words, the kinds of entity it names, and its letters run together. */
function read(text: string): Reading {
  const tokens: string[] = [];
  const kinds = new Set<EntityKind>();
  for (const piece of pieces(canonical(text))) {
    const kind = KIND_WORDS.get(piece);
    if (kind) kinds.add(kind);
    else if (!GENERIC.has(piece) && piece.length > 1) tokens.push(piece);
  }
  const compact = pieces(fold(text))
    .filter((p) => !GENERIC.has(p))
    .join("");
  return { tokens, kinds, compact };
}

/** What a reference says, its words past the first MAX_REFERENCE_WORDS left out. */
function readReference(reference: string): Reading {
  const reading = read(reference);
  return { ...reading, tokens: reading.tokens.slice(0, MAX_REFERENCE_WORDS) };
}

const ID_PREFIXES = [...new Set(Object.values(ID_PREFIX))].map((prefix) => prefix.toLowerCase());

/**
 * A reference written like an entity ID (HO-BOR-0007, dmo-lis: a kind's prefix, no space) names that entity
 * only, never one with a similar name.
 */
export const looksLikeId = (reference: string): boolean => {
  const id = reference.trim();
  return ENTITY_ID_PATTERN.test(id) && ID_PREFIXES.some((prefix) => id.toLowerCase().startsWith(prefix) && id.length > prefix.length);
};

/**
 * How well `candidate` fits the reference: 0.6 for how much of the reference its name and brand account
 * for, 0.4 for how much of its own name the reference names; `complete` when every word of the reference
 * fits. With `partialLast`, the reference is being typed: its last word fits any word it begins.
 */
function score(reference: Reading, candidate: Candidate, partialLast = false): { score: number; complete: boolean } {
  const name = read(candidate.name);
  if (reference.compact !== "" && reference.compact === name.compact) return { score: 1, complete: true };
  const brand = new Set(candidate.brandName ? read(candidate.brandName).tokens : []);
  const own = name.tokens.filter((t) => !brand.has(t));
  const words = [...name.tokens, ...brand];
  const last = reference.tokens.length - 1;
  const fit = (token: string, at: number, word: string) =>
    partialLast && at === last && word.startsWith(token) ? 1 : similarity(token, word);
  const matches = reference.tokens.map((token, at) => Math.max(0, ...words.map((w) => fit(token, at, w))));
  const found = (t: string) => reference.tokens.some((token, at) => fit(token, at, t) > 0);
  const ofReference = matches.length === 0 ? 0 : matches.reduce((a, b) => a + b, 0) / matches.length;
  const ofName = own.length === 0 ? (ofReference > 0 ? 1 : 0) : own.filter(found).length / own.length;
  return { score: 0.6 * ofReference + 0.4 * ofName, complete: matches.length > 0 && matches.every((m) => m > 0) };
}

/**
 * The entity `reference` names among `candidates`, when one fits every word of it and clearly better than
 * any other; else the candidates ranked by how well they fit (an ambiguous "the Aurora in Lyon" lists the
 * Aurora hotels in Lyon first). A reference naming a kind of entity (an airport, a tourism board, a group)
 * considers only that kind.
 */
export function resolveEntity(reference: string, candidates: readonly Candidate[]): Resolution {
  if (looksLikeId(reference)) return { entity: null, candidates: [] };
  const reading = readReference(reference);
  const ranked = candidates
    .filter((c) => reading.kinds.size === 0 || reading.kinds.has(c.kind))
    .map((c) => ({ candidate: c, ...score(reading, c) }))
    .filter((r) => r.score >= CANDIDATE_AT)
    .sort(bestFirst);
  const [best, next] = ranked;
  if (best && best.complete && best.score >= RESOLVE_AT && (!next || best.score - next.score >= CLEAR_LEAD)) {
    return { entity: { ...best.candidate, score: best.score }, candidates: [] };
  }
  return { entity: null, candidates: ranked.slice(0, MAX_CANDIDATES).map((r) => ({ ...r.candidate, score: r.score })) };
}

/**
 * The candidates a name being typed may become, best first: every word fits, the last as the start of a
 * word ("aurora lisb" fits "Aurora Lisbon Riverside"). What completion offers.
 */
export function rankTypedName(typed: string, candidates: readonly Candidate[]): ScoredCandidate[] {
  const reading = readReference(typed);
  if (reading.tokens.length === 0) return [];
  return candidates
    .map((c) => ({ candidate: c, ...score(reading, c, true) }))
    .filter((r) => r.complete)
    .sort(bestFirst)
    .map((r) => ({ ...r.candidate, score: r.score }));
}

/**
 * The entity a free-text question names, if it names one: every distinctive word of its name (its brand's
 * aside) is in the text, a letter off at most, and no other entity has as many of its words there, its
 * brand's counting half ("are pets allowed at Aurora Lisbon Riverside?" names that hotel, not the brand nor
 * Aurora Lisbon Harbour). A name of one distinctive word besides a brand's ("Boreal Inn Oslo Suites", "Visit
 * Lisboa") is named only with its brand, if it has one: "parking in Oslo" names a city, not a hotel. Returned with the question left when the words
 * of the name and brand are taken out ("are pets allowed at").
 */
export function entityNamedIn(text: string, candidates: readonly Candidate[]): { entity: Candidate; question: string } | null {
  const tokens = read(text).tokens;
  const inText = (t: string) => tokens.some((token) => similarity(token, t) > 0);
  const named = candidates.flatMap((candidate) => {
    const brand = read(candidate.brandName ?? "").tokens;
    const name = read(candidate.name).tokens;
    const own = name.filter((t) => !brand.includes(t));
    const brandNamed = brand.length > 0 && brand.every(inText);
    const all = own.length > 0 && own.every(inText) && (own.length > 1 || candidate.kind === "brand" || brandNamed);
    return all ? [{ candidate, size: own.length + (brandNamed ? 0.5 : 0), naming: [...name, ...brand] }] : [];
  });
  const most = Math.max(0, ...named.map((n) => n.size));
  const best = named.filter((n) => n.size === most);
  if (best.length !== 1) return null;
  const { candidate, naming } = best[0]!;
  const namesIt = (word: string) => pieces(canonical(word)).every((p) => naming.some((t) => similarity(p, t) > 0));
  return {
    entity: candidate,
    question: words(text)
      .filter((word) => !namesIt(word.text))
      .map((word) => word.text)
      .join(" "),
  };
}

/**
 * What the candidates are looked up by: the first three letters of each word of the reference (and of every
 * name of a place it names, so "Vienna" finds a hotel named "Wien"), and the kinds it names.
 */
export function candidateFilter(reference: string): { prefixes: string[]; kinds: EntityKind[] } {
  const reading = readReference(reference);
  const spellings = [...reading.tokens, reading.compact].flatMap((token) => [
    token,
    ...PLACES.filter(([, english]) => english === token).map(([variant]) => variant.replace(/ /g, "")),
  ]);
  const prefixes = [...new Set(spellings.filter((t) => t.length >= 3).map((t) => t.slice(0, 3)))];
  return { prefixes, kinds: [...reading.kinds] };
}
