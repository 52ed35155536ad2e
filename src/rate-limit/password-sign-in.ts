import { verifyPassword } from "../crypto/password";
import type { Env } from "../env";
import { failureBackoff } from "./failure-backoff";
import { rateCounter } from "./rate-counter";

/** Emails are compared trimmed and lower-cased, as they are stored. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Failed sign-ins from one address, whatever the e-mail and whichever sign-in, per hour: spraying many
 * accounts from one place stops here. An e-mail's failures are counted per address with backoff
 * (failure-backoff.ts), so nobody elsewhere can lock its owner out.
 */
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;

export type PasswordCheck<A> = { ok: true; account: A } | { ok: false; reason: "invalid" | "throttled"; retryAfterSeconds?: number };

/**
 * Checks an e-mail and password from `address` against the account `find` returns, with the limits above:
 * an unknown e-mail costs the same time as a wrong password, and gets the same answer. `realm` keeps the
 * backoff of one kind of account apart from another's with the same e-mail.
 */
export async function checkPassword<A extends { password_hash: string }>(
  env: Env,
  attempt: { realm: string; email: string; password: string; address: string },
  find: (normalizedEmail: string) => Promise<A | null>,
): Promise<PasswordCheck<A>> {
  const normalized = normalizeEmail(attempt.email);
  const addressFailures = rateCounter(env, `sign-in-failures:${attempt.address}`);
  const spraying = await addressFailures.peek(SIGN_IN_FAILURES_PER_ADDRESS);
  if (!spraying.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: spraying.resetSeconds };
  const backoff = failureBackoff(env, `${attempt.realm}:${normalized}\n${attempt.address}`);
  const wait = await backoff.waitSeconds();
  if (wait > 0) return { ok: false, reason: "throttled", retryAfterSeconds: wait };
  const account = normalized === "" ? null : await find(normalized);
  if (!(await verifyPassword(attempt.password, account?.password_hash ?? null, env.PASSWORD_PEPPER)) || !account) {
    await Promise.all([backoff.fail(), addressFailures.hit(SIGN_IN_FAILURES_PER_ADDRESS)]);
    return { ok: false, reason: "invalid" };
  }
  await backoff.succeed();
  return { ok: true, account };
}
