import { toBase64Url } from "./base64url";

/** A random secret of `bytes` bytes (default 256 bits), base64url. */
export const randomSecret = (bytes = 32): string => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));

/** A random identifier: `prefix` and 12 hex digits (48 bits: unique, not secret). */
export function randomId(prefix: string): string {
  const raw = crypto.getRandomValues(new Uint8Array(6));
  return `${prefix}${Array.from(raw, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
