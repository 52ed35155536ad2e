import { wordYields } from "./analyze";
import type { Language } from "./languages";
import { words } from "./normalize";

/** Words a snippet shows at most, and the marks around a matched word. */
export const SNIPPET_WORDS = 16;
const MARK = "**";
const ELLIPSIS = "…";
/** Words shown before the first marked one, where the text has them. */
const LEAD = 4;

/**
 * The passage of `text` (at most SNIPPET_WORDS words) that shows the most words yielding one of `tokens`,
 * those words in **bold**, cut ends marked with …; and how many it shows.
 */
function passage(text: string, tokens: ReadonlySet<string>, language: Language): { snippet: string; marks: number } {
  const found = words(text);
  const marked = found.map((word) => wordYields(word, language, tokens));
  // The window with the most marked words; of those, the one with its first mark nearest LEAD words in.
  let best = 0;
  let bestMarks = -1;
  let bestLead = Infinity;
  for (let start = 0; start <= Math.max(0, found.length - SNIPPET_WORDS); start++) {
    const window = marked.slice(start, start + SNIPPET_WORDS);
    const marks = window.filter(Boolean).length;
    const lead = Math.abs(Math.max(0, window.indexOf(true)) - Math.min(LEAD, start));
    if (marks > bestMarks || (marks === bestMarks && lead < bestLead)) [best, bestMarks, bestLead] = [start, marks, lead];
  }
  const shown = found.slice(best, best + SNIPPET_WORDS);
  if (shown.length === 0) return { snippet: text, marks: 0 };
  const from = best === 0 ? 0 : shown[0]!.start;
  const last = shown[shown.length - 1]!;
  const to = best + SNIPPET_WORDS >= found.length ? text.length : last.start + last.text.length;
  let snippet = "";
  let at = from;
  shown.forEach((word, i) => {
    snippet += text.slice(at, word.start);
    snippet += marked[best + i] ? `${MARK}${word.text}${MARK}` : word.text;
    at = word.start + word.text.length;
  });
  snippet += text.slice(at, to);
  return { snippet: `${from > 0 ? ELLIPSIS : ""}${snippet.trim()}${to < text.length ? ELLIPSIS : ""}`, marks: Math.max(0, bestMarks) };
}

/** The snippet of an FAQ: from its question or its answer, whichever shows more matched words (the question on a tie). */
export function faqSnippet(faq: { question: string; answer: string }, tokens: ReadonlySet<string>, language: Language): string {
  const question = passage(faq.question, tokens, language);
  const answer = passage(faq.answer, tokens, language);
  return answer.marks > question.marks ? answer.snippet : question.snippet;
}
