/**
 * Questions the content did not answer, as they are counted: personal data taken out before anything is
 * stored (e-mail addresses, however spelled, links with or without a scheme, tokens and codes, phone numbers,
 * other long numbers such as booking or card numbers), case and spacing made uniform, so the same question asked
 * twice is counted once, twice.
 */

/** How long a counted question is kept, in days; older counts are neither shown nor kept. */
export const UNANSWERED_RETENTION_DAYS = 30;
/** Characters (code points) of a counted question that are kept. */
const MAX_QUESTION_LENGTH = 200;

const LABEL = String.raw`[\p{L}\p{N}-]+`;
/** `@`, or `at` in brackets (`(at)`, `[at]`…), spaces around it allowed. */
const AT = String.raw`\s*(?:@|[([{<]\s*at\s*[)\]}>])\s*`;
/** `.`, or `dot` in brackets, spaces around it allowed. */
const DOT = String.raw`(?:\.|\s*[([{<]\s*dot\s*[)\]}>]\s*)`;

/**
 * A long run of letters and digits mixed (with the characters tokens are written with): an access token, a JWT,
 * a voucher or reset code. Words and numbers alone are left to the rules after it.
 */
const TOKEN_RUN = /[A-Za-z0-9_~+/=.-]{16,}/g;
const isToken = (run: string): boolean => /[A-Za-z]/.test(run) && /\d/.test(run);

const placeholder = (name: string) => () => `[${name}]`;

const REDACTIONS: [RegExp, (match: string) => string][] = [
  [new RegExp(String.raw`[\p{L}\p{N}._%+-]+${AT}(?:${LABEL}${DOT})+\p{L}{2,}`, "giu"), placeholder("email")],
  [/\b(?:https?:\/\/|www\.)\S+/giu, placeholder("link")],
  // A host name followed by a port, a path, a query or a fragment is a link without its scheme.
  [new RegExp(String.raw`\b(?:${LABEL}\.)+\p{L}{2,}(?::\d+)?[/?#]\S*`, "giu"), placeholder("link")],
  [TOKEN_RUN, (run) => (isToken(run) ? "[token]" : run)],
  // Seven or more digits, perhaps grouped by spaces, dots, dashes or brackets, perhaps after a +.
  [/\+?\(?\d(?:[\s().-]*\d){6,}/gu, placeholder("phone")],
  [/\d{5,}/gu, placeholder("number")],
];

const PLACEHOLDERS = /\[(?:email|link|token|phone|number)\]/g;

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
