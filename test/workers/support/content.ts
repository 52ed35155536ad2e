import { env, SELF } from "cloudflare:test";
import { sha256Hex } from "../../../src/crypto/hash";
import { insertApiKey } from "../../../src/storage/api-keys";

export const API = "https://api.example.com";

/** A GET of the content API with an API key (or none). */
export const contentRequest = (path: string, key: string | null = "demo-key", headers: Record<string, string> = {}): Request =>
  new Request(`${API}${path}`, { headers: key === null ? headers : { "X-API-Key": key, ...headers } });

/** GET on the content API with an API key (or none). */
export function get(path: string, key: string | null = "demo-key", headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(contentRequest(path, key, headers));
}

/**
 * An API key row written straight to D1, for what the operator API refuses (an expiry that has passed or
 * does not parse) or would do besides (it makes this isolate forget the keys it remembers). Returns its ID.
 */
export async function insertApiKeyRow(key: string, fields: { expiresAt?: string | null; hourlyLimit?: number } = {}): Promise<string> {
  const id = `key_${crypto.randomUUID().slice(0, 12)}`;
  await insertApiKey(env.DB, {
    id,
    key_hash: await sha256Hex(key),
    partner: "Test Partner",
    hourly_limit: fields.hourlyLimit ?? 1000,
    expires_at: fields.expiresAt ?? null,
    revoked_at: null,
    organization_id: null,
    created_at: new Date().toISOString(),
  }).run();
  return id;
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
