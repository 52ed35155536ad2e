import { SELF } from "cloudflare:test";

export const API = "https://api.example.com";

/** GET on the content API with an API key (or none). */
export function get(path: string, key: string | null = "demo-key", headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(`${API}${path}`, { headers: key === null ? headers : { "X-API-Key": key, ...headers } });
}

export async function sha256Hex16(body: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

export const LOCAL_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

/** Asserts the exact ErrorResponse of SPEC for `status` and returns it. */
export async function expectErrorResponse(res: Response, status: number, error: string, path: string) {
  const body = await res.json<Record<string, unknown>>();
  const expected: Record<string, unknown> = { status, error, path };
  for (const [k, v] of Object.entries(expected))
    if (body[k] !== v) throw new Error(`${k}: expected ${String(v)}, got ${String(body[k])} in ${JSON.stringify(body)}`);
  if (typeof body.timestamp !== "string" || !LOCAL_TIMESTAMP.test(body.timestamp))
    throw new Error(`bad timestamp ${String(body.timestamp)}`);
  if (typeof body.message !== "string" || body.message.length === 0) throw new Error("empty message");
  if (res.status !== status) throw new Error(`HTTP ${res.status}, body says ${status}`);
  if (res.headers.get("Content-Type")?.startsWith("application/json") !== true) throw new Error("not JSON");
  return body;
}
