/**
 * Whether an error means a dependency (D1, a Durable Object) is unavailable for now, rather than a bug:
 * Durable Object stubs flag such errors `retryable` or `overloaded`; D1 says so in its message.
 */
export function isDependencyOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const flags = error as Error & { retryable?: boolean; overloaded?: boolean };
  if (flags.retryable === true || flags.overloaded === true) return true;
  return /^D1_ERROR\b.*(overloaded|timed? ?out|network connection lost|unavailable|connection reset)/i.test(error.message);
}
