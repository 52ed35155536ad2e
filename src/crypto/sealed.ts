import { fromBase64Url, toBase64Url } from "./base64url";

/**
 * Secrets kept in D1 sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the
 * KEY_ENCRYPTION_KEY secret: a copy of the database alone does not reveal them. The associated
 * data binds a sealed value to its row, so it cannot be moved to another one.
 */
const PREFIX = "aesgcm1.";
const MIN_SECRET_LENGTH = 32;
const encoder = new TextEncoder();

/** Sealing or unsealing is impossible: the secret is missing, too short, or not the one that sealed. */
export class SealingError extends Error {}

let derived: { secret: string; key: Promise<CryptoKey> } | undefined;

function sealingKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < MIN_SECRET_LENGTH) {
    throw new SealingError(
      `KEY_ENCRYPTION_KEY must be set to at least ${MIN_SECRET_LENGTH} random characters (wrangler secret put KEY_ENCRYPTION_KEY).`,
    );
  }
  if (derived?.secret !== secret) {
    const key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode("hospitality/signing-keys/v1") },
          material,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    derived = { secret, key };
  }
  return derived.key;
}

export const isSealed = (value: string): boolean => value.startsWith(PREFIX);

export async function seal(secret: string | undefined, plaintext: string, boundTo: string): Promise<string> {
  const key = await sealingKey(secret);
  // A fresh random 96-bit nonce per value: far below GCM's collision bound for the handful of keys sealed.
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(boundTo) },
    key,
    encoder.encode(plaintext),
  );
  return `${PREFIX}${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

export async function unseal(secret: string | undefined, value: string, boundTo: string): Promise<string> {
  const key = await sealingKey(secret);
  const [iv, sealed] = value.slice(PREFIX.length).split(".");
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv!), additionalData: encoder.encode(boundTo) },
      key,
      fromBase64Url(sealed!),
    );
    return new TextDecoder().decode(plaintext);
  } catch {
    throw new SealingError(
      "A sealed signing key cannot be opened with this KEY_ENCRYPTION_KEY; rotate the signing key (npm run admin -- signing-key rotate).",
    );
  }
}
