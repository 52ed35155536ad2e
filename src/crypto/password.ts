import { fromBase64Url, toBase64Url } from "./base64url";

/**
 * Password hashes: HMAC-SHA-256 of the password under the PASSWORD_PEPPER secret, then PBKDF2-SHA256 of
 * that with a random 16-byte salt per password, encoded as `peppered-pbkdf2-sha256$<iterations>$<salt>$<hash>`
 * (base64url) so the cost can rise without a migration. 100,000 iterations are the most production
 * Workers allow, too few alone against a copy of D1: without the pepper, which lives only in the Worker's
 * secrets, such a copy cannot test a single guess. Hashes stored before the pepper
 * (`pbkdf2-sha256$…`, PBKDF2 of the password alone) still verify, and are stored again peppered on the
 * next successful sign-in (isPepperedHash).
 */

// Production Workers refuse PBKDF2 above 100,000 iterations (local workerd does not), so this is the ceiling.
export const PASSWORD_ITERATIONS = 100_000;
export const MIN_PEPPER_LENGTH = 32;
const PEPPERED = "peppered-pbkdf2-sha256";
const UNPEPPERED = "pbkdf2-sha256";
const SALT_BYTES = 16;
const HASH_BITS = 256;
const encoder = new TextEncoder();

/** No password can be hashed or checked: PASSWORD_PEPPER is missing or too short. */
export class PepperError extends Error {}

let pepperKey: { pepper: string; key: Promise<CryptoKey> } | undefined;

function hmacKey(pepper: string | undefined): Promise<CryptoKey> {
  if (!pepper || pepper.length < MIN_PEPPER_LENGTH) {
    throw new PepperError(
      `PASSWORD_PEPPER must be set to at least ${MIN_PEPPER_LENGTH} random characters (wrangler secret put PASSWORD_PEPPER).`,
    );
  }
  if (pepperKey?.pepper !== pepper) {
    pepperKey = { pepper, key: crypto.subtle.importKey("raw", encoder.encode(pepper), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]) };
  }
  return pepperKey.key;
}

const peppered = async (password: string, key: CryptoKey): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(password)));

async function derive(secret: Uint8Array, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", secret, "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS));
}

export async function hashPassword(password: string, pepper: string | undefined): Promise<string> {
  const key = await hmacKey(pepper);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(await peppered(password, key), salt, PASSWORD_ITERATIONS);
  return `${PEPPERED}$${PASSWORD_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

/** Whether a stored hash was made with the pepper; one that was not is stored again after its next successful check. */
export const isPepperedHash = (encoded: string): boolean => encoded.startsWith(`${PEPPERED}$`);

// Verified when the email is unknown, so a wrong email costs the same time as a wrong password.
let decoyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `encoded`, peppered or stored before the pepper. With `encoded` null (no
 * such user) a decoy hash is checked instead and the answer is false: response time does not reveal
 * which emails exist. Throws PepperError without a usable pepper, whatever is stored.
 */
export async function verifyPassword(password: string, encoded: string | null, pepper: string | undefined): Promise<boolean> {
  const key = await hmacKey(pepper);
  decoyHash ??= hashPassword(crypto.randomUUID(), pepper);
  const [scheme, iterations, salt, hash] = (encoded ?? (await decoyHash)).split("$");
  const rounds = Number(iterations);
  if ((scheme !== PEPPERED && scheme !== UNPEPPERED) || !salt || !hash) return false;
  if (!Number.isSafeInteger(rounds) || rounds < 1 || rounds > PASSWORD_ITERATIONS) return false;
  const secret = scheme === PEPPERED ? await peppered(password, key) : encoder.encode(password);
  const expected = fromBase64Url(hash);
  const actual = await derive(secret, fromBase64Url(salt), rounds);
  return encoded !== null && actual.byteLength === expected.byteLength && crypto.subtle.timingSafeEqual(actual, expected);
}
