import { fromBase64Url, toBase64Url } from "./base64url";

/**
 * Password hashes: PBKDF2-SHA256 with a random 16-byte salt per password, encoded as
 * `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url) so the cost can rise without a migration.
 */

// Production Workers refuse PBKDF2 above 100,000 iterations (local workerd does not), so this is the ceiling.
export const PASSWORD_ITERATIONS = 100_000;
const SCHEME = "pbkdf2-sha256";
const SALT_BYTES = 16;
const HASH_BITS = 256;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PASSWORD_ITERATIONS);
  return `${SCHEME}$${PASSWORD_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

// Verified when the email is unknown, so a wrong email costs the same time as a wrong password.
let decoyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `encoded`. With `encoded` null (no such user) a decoy hash is checked
 * instead and the answer is false: response time does not reveal which emails exist.
 */
export async function verifyPassword(password: string, encoded: string | null): Promise<boolean> {
  decoyHash ??= hashPassword(crypto.randomUUID());
  const [scheme, iterations, salt, hash] = (encoded ?? (await decoyHash)).split("$");
  const rounds = Number(iterations);
  if (scheme !== SCHEME || !salt || !hash || !Number.isSafeInteger(rounds) || rounds < 1 || rounds > PASSWORD_ITERATIONS) return false;
  const expected = fromBase64Url(hash);
  const actual = await derive(password, fromBase64Url(salt), rounds);
  return encoded !== null && actual.byteLength === expected.byteLength && crypto.subtle.timingSafeEqual(actual, expected);
}
