import { env, SELF } from "cloudflare:test";
import { tokenOf } from "./mcp";

export const ADMIN = "https://admin.example.com/admin/v1";
/** The test pool's operator token (vitest.config.ts). */
export const ADMIN_TOKEN = env.ADMIN_TOKEN!;
export const ADMIN_AUTH = { Authorization: `Bearer ${ADMIN_TOKEN}` };

/** A JSON request to the operator API with the test operator token. */
export const adminRequest = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Request =>
  new Request(`${ADMIN}${path}`, {
    method,
    headers: { ...ADMIN_AUTH, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** The operator API's answer to a JSON request with the test operator token. */
export function admin(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(adminRequest(method, path, body, headers));
}

/** The parsed JSON of an operator response that must have `status`. */
export async function adminJson<T = any>(method: string, path: string, body?: unknown, status = 200): Promise<T> {
  const res = await admin(method, path, body);
  const text = await res.text();
  if (res.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A content API key issued through the operator API: its ID and the key itself. */
export function newApiKey(
  fields: { partner?: string; hourlyLimit?: number; expiresAt?: string } = {},
): Promise<{ id: string; key: string }> {
  return adminJson("POST", "/api-keys", { partner: "Test Partner", ...fields }, 201);
}

/** Uploads records as one import (line = position), returns its ID. */
export async function stageImport(records: unknown[], chunk = 500): Promise<string> {
  const { id } = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
  for (let start = 0; start < records.length; start += chunk) {
    const rows = records.slice(start, start + chunk).map((record, i) => ({ line: start + i + 1, record }));
    await adminJson("POST", `/imports/${id}/rows`, { rows });
  }
  return id;
}

/** Stages and commits records; returns the commit's answer. */
export async function importRecords(records: unknown[]): Promise<any> {
  const id = await stageImport(records);
  return adminJson("POST", `/imports/${id}/commit`);
}

/** Every record of the export, page by page. */
export async function exportAll(limit = 500): Promise<any[]> {
  const records: any[] = [];
  for (let after = ""; ;) {
    const page = await adminJson<{ records: any[]; next?: string }>(
      "GET",
      `/content/export?limit=${limit}&after=${encodeURIComponent(after)}`,
    );
    records.push(...page.records);
    if (!page.next) return records;
    after = page.next;
  }
}

/** A new organization with one identity client, and a realm token of that client. */
export async function tokenForNewOrganization(id: string, scope: string[]): Promise<string> {
  await adminJson("POST", "/organizations", { id, name: id, scope }, 201);
  const client = await adminJson("POST", "/identity-clients", { organizationId: id }, 201);
  return tokenOf(client.clientId, client.clientSecret);
}
