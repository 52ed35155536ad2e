import { verifyPassword } from "../crypto/password";
import type { Env } from "../env";
import { failureBackoff } from "../rate-limit/failure-backoff";
import { rateCounter } from "../rate-limit/rate-counter";
import { findUserByEmail, type UserRow } from "../storage/users";
import { pepperStoredPassword } from "./password-upgrade";

/** Emails are compared trimmed and lower-cased, as they are stored. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Failed sign-ins from one address, whatever the e-mail, per hour: spraying many accounts from one
 * place stops here. An e-mail's failures are counted per address with backoff (failure-backoff.ts),
 * so nobody elsewhere can lock its owner out.
 */
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;

export type SignInResult =
  { ok: true; user: UserRow } | { ok: false; reason: "invalid" | "disabled" | "throttled"; retryAfterSeconds?: number };

/** Checks an email and password from `address`; an unknown email costs the same time as a wrong password. */
export async function signIn(env: Env, email: string, password: string, address: string): Promise<SignInResult> {
  const normalized = normalizeEmail(email);
  const addressFailures = rateCounter(env, `sign-in-failures:${address}`);
  const spraying = await addressFailures.peek(SIGN_IN_FAILURES_PER_ADDRESS);
  if (!spraying.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: spraying.resetSeconds };
  const backoff = failureBackoff(env, `sign-in:${normalized}\n${address}`);
  const wait = await backoff.waitSeconds();
  if (wait > 0) return { ok: false, reason: "throttled", retryAfterSeconds: wait };
  const user = normalized === "" ? null : await findUserByEmail(env.DB, normalized);
  if (!(await verifyPassword(password, user?.password_hash ?? null, env.PASSWORD_PEPPER)) || !user) {
    await Promise.all([backoff.fail(), addressFailures.hit(SIGN_IN_FAILURES_PER_ADDRESS)]);
    return { ok: false, reason: "invalid" };
  }
  await pepperStoredPassword(env, user, password);
  await backoff.succeed();
  if (user.disabled_at !== null) return { ok: false, reason: "disabled" };
  return { ok: true, user };
}
