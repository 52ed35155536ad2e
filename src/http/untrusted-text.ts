/** Text a client chose, made safe to keep or to put in a header. */

// C0 and C1 control characters and DEL: they end header lines and rewrite terminal output.
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** At most `maxLength` characters (whole code points) of `text`, control characters removed. */
export function boundedText(text: string, maxLength: number): string {
  const clean = text.replace(CONTROL, "");
  const codePoints = Array.from(clean);
  return codePoints.length <= maxLength ? clean : `${codePoints.slice(0, maxLength - 1).join("")}…`;
}

/**
 * A quoted-string value for a header parameter (RFC 9110 §5.6.4): printable ASCII only, no quote or
 * backslash, at most `maxLength` characters; anything else becomes `?`.
 */
export function headerParameter(text: string, maxLength = 200): string {
  const safe = text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, "?");
  return safe.length <= maxLength ? safe : `${safe.slice(0, maxLength - 3)}...`;
}
