import { toBase64Url } from "./base64url";

/** A random secret of `bytes` bytes (default 256 bits), base64url. */
export const randomSecret = (bytes = 32): string => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));

/** A random identifier: `prefix` and 2 hex digits per byte (by default 12: 48 bits, unique, not secret). */
export function randomId(prefix: string, bytes = 6): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return `${prefix}${Array.from(raw, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
