import { createMiddleware } from "hono/factory";
import { constantTimeEqual, sha256PrefixHex } from "../crypto/hash";
import type { Env } from "../env";
import { envelopeError } from "../http/surface-errors";
import { rateCounter } from "../rate-limit/rate-counter";
import { callerAddress } from "../rate-limit/token-requests";

/** Shorter operator tokens are refused: the token is the whole of the operator's authority. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;
/** Wrong operator tokens one address may present per hour before it is refused (429), the right token included. */
export const FAILED_OPERATOR_LOGINS_PER_HOUR = 30;

/** The operator is known only by a fingerprint of the token they presented: the audit log never holds the token. */
export type AdminEnv = { Bindings: Env; Variables: { operator: string } };

/**
 * Bearer ADMIN_TOKEN, compared in constant time; the whole surface answers 404 while the secret is unset,
 * and 500 while it is too short. Wrong tokens are logged and counted per calling address.
 */
export const adminAuth = createMiddleware<AdminEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) return envelopeError(404, "Not found.");
  if (expected.length < MIN_ADMIN_TOKEN_LENGTH) {
    const message = `The operator API is off: ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} random characters (wrangler secret put ADMIN_TOKEN).`;
    console.error(JSON.stringify({ event: "admin_token_too_short", message }));
    return envelopeError(500, message);
  }
  const header = c.req.header("Authorization");
  const presented = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  const address = callerAddress(c.req.raw, c.env);
  const failures = rateCounter(c.env, `admin-login-failures:${address}`);
  if (presented && (await constantTimeEqual(presented, expected))) {
    // Checked for the right token too: an address past the limit must not learn that a guess was right.
    const decision = await failures.peek(FAILED_OPERATOR_LOGINS_PER_HOUR);
    if (!decision.allowed) return tooManyFailures(decision.resetSeconds);
    c.set("operator", `token:${await sha256PrefixHex(presented, 8)}`);
    return next();
  }
  const unauthorized = () => envelopeError(401, "A valid operator token is required.", { "WWW-Authenticate": 'Bearer realm="admin"' });
  // No credential at all is no guess: answered, neither logged nor counted.
  if (header === undefined) return unauthorized();
  const decision = await failures.hit(FAILED_OPERATOR_LOGINS_PER_HOUR);
  // Never what was presented: a near miss of the real token would be most of it.
  console.warn(JSON.stringify({ event: "admin_login_failed", address, path: c.req.path, throttled: !decision.allowed }));
  return decision.allowed ? unauthorized() : tooManyFailures(decision.resetSeconds);
});

const tooManyFailures = (retryAfter: number): Response =>
  envelopeError(
    429,
    `Too many failed operator logins from this address: at most ${FAILED_OPERATOR_LOGINS_PER_HOUR} an hour; retry after ${retryAfter} s.`,
    { "Retry-After": String(retryAfter) },
    { retry_after: retryAfter },
  );
