const encoder = new TextEncoder();

const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 digest of UTF-8 text or raw bytes. */
export async function sha256(input: string | Uint8Array): Promise<Uint8Array> {
  const data = typeof input === "string" ? encoder.encode(input) : input;
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

export async function sha256Hex(input: string | Uint8Array): Promise<string> {
  return toHex(await sha256(input));
}

/** Hex of the first `bytes` bytes of the SHA-256 of `input`. */
export async function sha256PrefixHex(input: string | Uint8Array, bytes: number): Promise<string> {
  return toHex((await sha256(input)).subarray(0, bytes));
}

/** Compares two secrets without leaking where they differ through timing. */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  // Hashing first gives equal-length inputs, so the length of the secret does not leak either.
  const [ha, hb] = await Promise.all([sha256(a), sha256(b)]);
  return crypto.subtle.timingSafeEqual(ha, hb);
}
