import { toBase64Url } from "../../../src/crypto/base64url";
import { PASSWORD_ITERATIONS } from "../../../src/crypto/password";

/** A password hash as it was stored before PASSWORD_PEPPER: `pbkdf2-sha256$<iterations>$<salt>$<hash>` of the password alone. */
export async function legacyPasswordHash(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: PASSWORD_ITERATIONS }, key, 256);
  return `pbkdf2-sha256$${PASSWORD_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(new Uint8Array(bits))}`;
}
