import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/crypto/hash";
import { admin, newApiKey } from "../support/admin";
import { expectErrorResponse, get, insertApiKeyRow } from "../support/content";

const ROSTER = "/api/v3/content/HO-CAS/properties";

describe("content API keys", () => {
  it.each([
    ["X-API-Key", { "X-API-Key": "demo-key" }],
    ["Authorization: ApiKey", { Authorization: "ApiKey demo-key" }],
    ["Authorization: Bearer", { Authorization: "Bearer demo-key" }],
    ["a lower-case scheme", { Authorization: "apikey demo-key" }],
  ])("accepts the key in %s", async (_, headers) => {
    const res = await get(ROSTER, null, headers);
    expect(res.status).toBe(200);
  });

  it.each([
    ["no key", {}, /required/],
    ["an empty X-API-Key", { "X-API-Key": "  " }, /required/],
    ["an unknown key", { "X-API-Key": "not-a-key" }, /not valid/],
    ["an unsupported Authorization scheme", { Authorization: "Basic ZGVtby1rZXk6" }, /required/],
    ["an expired key", { "X-API-Key": "demo-key-expired" }, /expired/],
  ])("answers 401 to %s, without rate-limit headers", async (_, headers, message) => {
    const res = await get(ROSTER, null, headers);
    const body = await expectErrorResponse(res, 401, "Unauthorized", ROSTER);
    expect(body.message).toMatch(message);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^ApiKey/);
    expect(res.headers.get("X-RateLimit-Limit")).toBeNull();
  });

  it("answers 401 on the FAQ feed too, before validating anything else", async () => {
    const res = await get("/api/v3/content/HO-AUR-0001/faq.json?includeCategory=maybe", null);
    await expectErrorResponse(res, 401, "Unauthorized", "/api/v3/content/HO-AUR-0001/faq.json");
  });

  it("refuses a key once it is revoked, and one whose expiry has just passed", async () => {
    const { id, key } = await newApiKey();
    expect((await get(ROSTER, key)).status).toBe(200);
    const revoke = await admin("POST", `/api-keys/${id}/revoke`);
    expect(revoke.status).toBe(200);
    const revoked = await get(ROSTER, key);
    expect((await expectErrorResponse(revoked, 401, "Unauthorized", ROSTER)).message).toMatch(/revoked/);

    await insertApiKeyRow("short-lived", { expiresAt: new Date(Date.now() - 1).toISOString() });
    expect((await expectErrorResponse(await get(ROSTER, "short-lived"), 401, "Unauthorized", ROSTER)).message).toMatch(/expired/);
  });

  it("treats an expiry that does not parse as expired, never as eternal", async () => {
    for (const [key, expiresAt] of [
      ["odd-expiry", "next tuesday"],
      ["empty-expiry", ""],
      ["nan-expiry", "NaN"],
    ] as const) {
      await insertApiKeyRow(key, { expiresAt });
      expect((await expectErrorResponse(await get(ROSTER, key), 401, "Unauthorized", ROSTER)).message).toMatch(/expired/);
    }
  });

  it("stores keys only as SHA-256 hashes", async () => {
    const rows = await env.DB.prepare("SELECT * FROM api_keys").all<Record<string, unknown>>();
    const stored = JSON.stringify(rows.results);
    expect(stored).not.toContain('"demo-key"');
    expect(stored).toContain(await sha256Hex("demo-key"));
  });

  it("refuses plain HTTP outside loopback with 403 in the ErrorResponse format", async () => {
    const res = await SELF.fetch(`http://api.example.com${ROSTER}`, { headers: { "X-API-Key": "demo-key" } });
    await expectErrorResponse(res, 403, "Forbidden", ROSTER);
  });
});
