/**
 * Questions the content did not answer, as they are counted: personal data taken out before anything is
 * stored (e-mail addresses, links, phone numbers, other long numbers such as booking or card numbers), case
 * and spacing made uniform, so the same question asked twice is counted once, twice.
 */

/** How long a counted question is kept, in days; older counts are neither shown nor kept. */
export const UNANSWERED_RETENTION_DAYS = 30;
/** Characters (code points) of a counted question that are kept. */
const MAX_QUESTION_LENGTH = 200;

const REDACTIONS: [RegExp, string][] = [
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu, "[email]"],
  [/\b(?:https?:\/\/|www\.)\S+/giu, "[link]"],
  // Seven or more digits, perhaps grouped by spaces, dots, dashes or brackets, perhaps after a +.
  [/\+?\(?\d(?:[\s().-]*\d){6,}/gu, "[phone]"],
  [/\d{5,}/gu, "[number]"],
];

const PLACEHOLDERS = /\[(?:email|link|phone|number)\]/g;

/** The question as it is counted and stored, or null when nothing of it is left to count. */
export function unansweredKey(question: string): string | null {
  // Invisible characters go first, so none can hide a number or an address from the redactions.
  let text = question
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .replace(/\p{Cc}/gu, " ");
  for (const [pattern, replacement] of REDACTIONS) text = text.replace(pattern, replacement);
  const key = [
    ...text
      .toLowerCase()
      .replace(/\s+/gu, " ")
      .replace(/^[\s¿¡"'(,.;:!?-]+|[\s?!.,;:]+$/gu, ""),
  ]
    .slice(0, MAX_QUESTION_LENGTH)
    .join("");
  // A question of nothing but what was taken out says nothing.
  return /\p{L}/u.test(key.replace(PLACEHOLDERS, "")) ? key : null;
}

/** The UTC day of `at`, as counts are kept by. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The first day of the last `days` days, the day of `now` included. */
export const firstOfLastDays = (now: Date, days: number): string => dayOf(new Date(now.getTime() - (days - 1) * 86_400_000));

/** The first day whose counts are still kept on the day of `now`. */
export const oldestKeptDay = (now: Date): string => firstOfLastDays(now, UNANSWERED_RETENTION_DAYS);
