import { verifyPassword } from "../crypto/password";
import { intVar, type Env } from "../env";
import { failureBackoff } from "./failure-backoff";
import { rateCounter } from "./rate-counter";

/** Emails are compared trimmed and lower-cased, as they are stored. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Failed sign-ins from one address, whatever the e-mail and whichever sign-in, per hour: spraying many accounts
 * from one place stops here. High enough that one office behind one address is not locked out by a few people's
 * typos (SIGN_IN_FAILURES_PER_ADDRESS sets it).
 */
export const DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS = 50;
/**
 * Failed sign-ins of one account from anywhere, per hour: guessing one password from many addresses stops here. An
 * e-mail's failures from one address also wait longer after each (failure-backoff.ts), so one place guessing does
 * not spend the account's hour for everyone else (SIGN_IN_FAILURES_PER_ACCOUNT sets it).
 */
export const DEFAULT_SIGN_IN_FAILURES_PER_ACCOUNT = 100;

export type PasswordCheck<A> = { ok: true; account: A } | { ok: false; reason: "invalid" | "throttled"; retryAfterSeconds?: number };

/**
 * Checks an e-mail and password from `address` against the account `find` returns, with the limits above: every
 * attempt is counted as a failure before its password is checked and given back when it succeeds, so attempts sent
 * at once are checked no more often than the limits allow one at a time. An unknown e-mail costs the same time as a
 * wrong password, and gets the same answer. `realm` keeps the limits of one kind of account apart from another's
 * with the same e-mail.
 */
export async function checkPassword<A extends { password_hash: string }>(
  env: Env,
  attempt: { realm: string; email: string; password: string; address: string },
  find: (normalizedEmail: string) => Promise<A | null>,
): Promise<PasswordCheck<A>> {
  const normalized = normalizeEmail(attempt.email);
  const counters = [
    {
      counter: rateCounter(env, `sign-in-failures:${attempt.address}`),
      limit: intVar(env.SIGN_IN_FAILURES_PER_ADDRESS, DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS),
    },
    {
      counter: rateCounter(env, `sign-in-account-failures:${attempt.realm}:${normalized}`),
      limit: intVar(env.SIGN_IN_FAILURES_PER_ACCOUNT, DEFAULT_SIGN_IN_FAILURES_PER_ACCOUNT),
    },
  ];
  const reserved: { counter: (typeof counters)[number]["counter"]; windowStart: number }[] = [];
  const giveBack = () => Promise.all(reserved.map(({ counter, windowStart }) => counter.release(windowStart)));
  for (const entry of counters) {
    const decision = await entry.counter.hit(entry.limit);
    if (!decision.allowed) {
      await giveBack();
      return { ok: false, reason: "throttled", retryAfterSeconds: decision.resetSeconds };
    }
    reserved.push({ counter: entry.counter, windowStart: decision.windowStart });
  }
  const backoff = failureBackoff(env, `${attempt.realm}:${normalized}\n${attempt.address}`);
  const wait = await backoff.reserve();
  if (wait > 0) {
    await giveBack();
    return { ok: false, reason: "throttled", retryAfterSeconds: wait };
  }
  const account = normalized === "" ? null : await find(normalized);
  if (!(await verifyPassword(attempt.password, account?.password_hash ?? null, env.PASSWORD_PEPPER)) || !account) {
    return { ok: false, reason: "invalid" };
  }
  await Promise.all([backoff.succeed(), giveBack()]);
  return { ok: true, account };
}
