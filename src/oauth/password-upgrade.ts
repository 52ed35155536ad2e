import { hashPassword, isPepperedHash } from "../crypto/password";
import type { Env } from "../env";
import { replacePasswordHash, type UserRow } from "../storage/users";

/**
 * After a successful sign-in, the one moment the password is known: a hash stored before PASSWORD_PEPPER
 * is stored again with it, so a copy of D1 stops being enough to test guesses against that user.
 */
export async function pepperStoredPassword(env: Env, user: UserRow, password: string): Promise<void> {
  if (isPepperedHash(user.password_hash)) return;
  await replacePasswordHash(env.DB, user.id, user.password_hash, await hashPassword(password, env.PASSWORD_PEPPER)).run();
}
