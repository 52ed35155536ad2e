import asking from "./asking.json";
import { fold, words, type Word } from "./normalize";

/**
 * The question inside a message: a guest's message may tell a story around what it asks ("Hi! We're coming for
 * our anniversary in May with the kids. Is the pool heated then?"). Its sentences, and within a sentence its
 * clauses, that ask weigh fully; those that only give context weigh `context` (a weight of weights.json). A
 * message that asks nowhere, or everywhere, weighs the same throughout.
 */

const foldAll = (list: readonly string[]) => list.map((w) => fold(w).replace(/['’]/g, ""));
const STARTS = new Set(Object.values(asking.starts).flatMap(foldAll));
const INSIDE = Object.values(asking.inside).flatMap(foldAll);
const GREETINGS = new Set(foldAll(asking.greetings));

/** A stretch of the message: where it starts and ends, and whether it asks. */
interface Stretch {
  start: number;
  end: number;
  asks: boolean;
}

// Sentences end at . ! ? ; or a line break; a Spanish question opens with ¿.
const SENTENCE = /[^.!?;\n¿¡]+(?:[.!?;]+|\n|$)|[¿¡][^?!\n]*[?!]?/g;
const CLAUSE = /[^,:()–—]+(?:[,:()–—]|$)/g;

/** The words of a stretch of text, folded, apostrophes out: "What's" is "whats". */
const foldedWords = (text: string): string[] => words(text).map((w) => fold(w.text).replace(/['’]/g, ""));

/** Whether a stretch of text asks: a question mark, a question word first (after greetings), or an asking phrase. */
function asks(text: string): boolean {
  if (/[?¿]/.test(text)) return true;
  const folded = foldedWords(text);
  let first = 0;
  while (first < folded.length - 1 && GREETINGS.has(folded[first]!)) first++;
  const head = folded.slice(first, first + 3);
  if (head.length > 0 && (STARTS.has(head[0]!) || STARTS.has(head.slice(0, 2).join(" ")) || STARTS.has(head.join(" ")))) return true;
  const joined = ` ${folded.join(" ")} `;
  return INSIDE.some((phrase) => joined.includes(` ${phrase} `));
}

function stretches(text: string, pattern: RegExp, offset = 0): Stretch[] {
  return [...text.matchAll(pattern)]
    .filter((m) => /[\p{L}\p{N}]/u.test(m[0]))
    .map((m) => ({ start: offset + m.index, end: offset + m.index + m[0].length, asks: asks(m[0]) }));
}

/**
 * The weight of each word of `text` (in the order of `words(text)`): 1 where the message asks, `context` where it
 * only tells. A sentence that asks is split into its clauses when one of them asks ("we land at 6am, is there
 * breakfast?"), so its other clauses are context too.
 */
export function wordWeights(text: string, context: number): number[] {
  const found: Word[] = words(text);
  const parts = stretches(text, SENTENCE).flatMap((sentence) => {
    if (!sentence.asks) return [sentence];
    const clauses = stretches(text.slice(sentence.start, sentence.end), CLAUSE, sentence.start);
    return clauses.length > 1 && clauses.some((c) => c.asks) ? clauses : [sentence];
  });
  if (parts.every((p) => p.asks) || !parts.some((p) => p.asks)) return found.map(() => 1);
  return found.map((word) => (parts.find((p) => word.start >= p.start && word.start < p.end)?.asks === false ? context : 1));
}
