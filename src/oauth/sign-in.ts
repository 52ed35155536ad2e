import { verifyPassword } from "../crypto/password";
import type { Env } from "../env";
import { rateCounter } from "../rate-limit/rate-counter";
import { findUserByEmail, type UserRow } from "../storage/users";

/** Emails are compared trimmed and lower-cased, as they are stored. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

// Per email per hour, so a password cannot be guessed by brute force; failures and successes both count.
export const SIGN_IN_ATTEMPTS_PER_HOUR = 20;

export type SignInResult =
  { ok: true; user: UserRow } | { ok: false; reason: "invalid" | "disabled" | "throttled"; retryAfterSeconds?: number };

/** Checks an email and password; an unknown email costs the same time as a wrong password. */
export async function signIn(env: Env, email: string, password: string): Promise<SignInResult> {
  const normalized = normalizeEmail(email);
  const decision = await rateCounter(env, `sign-in:${normalized}`).hit(SIGN_IN_ATTEMPTS_PER_HOUR);
  if (!decision.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: decision.resetSeconds };
  const user = normalized === "" ? null : await findUserByEmail(env.DB, normalized);
  if (!(await verifyPassword(password, user?.password_hash ?? null)) || !user) return { ok: false, reason: "invalid" };
  if (user.disabled_at !== null) return { ok: false, reason: "disabled" };
  return { ok: true, user };
}
