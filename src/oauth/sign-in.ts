import type { Env } from "../env";
import { checkPassword } from "../rate-limit/password-sign-in";
import { findUserByEmail, type UserRow } from "../storage/users";
import { pepperStoredPassword } from "./password-upgrade";

export type SignInResult =
  { ok: true; user: UserRow } | { ok: false; reason: "invalid" | "disabled" | "throttled"; retryAfterSeconds?: number };

/** Checks a connector user's email and password from `address`; an unknown email costs the same time as a wrong password. */
export async function signIn(env: Env, email: string, password: string, address: string): Promise<SignInResult> {
  const checked = await checkPassword(env, { realm: "sign-in", email, password, address }, (normalized) =>
    findUserByEmail(env.DB, normalized),
  );
  if (!checked.ok) return checked;
  const user = checked.account;
  await pepperStoredPassword(env, user, password);
  if (user.disabled_at !== null) return { ok: false, reason: "disabled" };
  return { ok: true, user };
}
