import { env, SELF } from "cloudflare:test";
import { decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FAILED_OPERATOR_LOGINS_PER_HOUR, MIN_ADMIN_TOKEN_LENGTH } from "../../../src/admin/auth";
import { sha256Hex } from "../../../src/crypto/hash";
import { ADMIN, ADMIN_AUTH, ADMIN_TOKEN, admin, adminJson, adminRequest } from "../support/admin";
import { fetchWith } from "../support/app";
import { expectEnvelope, tokenFor } from "../support/mcp";

/** A POST of `body` as it is (not serialized) to the operator API with the test operator token. */
const postRaw = (path: string, body: BodyInit, type = "application/json") =>
  SELF.fetch(`${ADMIN}${path}`, { method: "POST", headers: { ...ADMIN_AUTH, "Content-Type": type }, body });

afterEach(() => vi.restoreAllMocks());

describe("operator API", () => {
  it("refuses a missing or wrong operator token with 401, and is off (404) while ADMIN_TOKEN is unset", async () => {
    await expectEnvelope(await SELF.fetch(`${ADMIN}/signing-keys/rotate`, { method: "POST" }), 401, "unauthorized");
    await expectEnvelope(
      await SELF.fetch(`${ADMIN}/signing-keys/rotate`, { method: "POST", headers: { Authorization: "Bearer nope" } }),
      401,
      "unauthorized",
    );
    const off = await fetchWith(adminRequest("POST", "/signing-keys/rotate"), { ADMIN_TOKEN: undefined });
    await expectEnvelope(off, 404, "not_found");
  });

  it(`refuses to serve at all with an ADMIN_TOKEN shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters, even to its holder, saying why`, async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const short = "x".repeat(MIN_ADMIN_TOKEN_LENGTH - 1);
    const request = () => new Request(`${ADMIN}/organizations`, { headers: { Authorization: `Bearer ${short}` } });
    const message = await expectEnvelope(await fetchWith(request(), { ADMIN_TOKEN: short }), 500, "internal_error");
    expect(message).toMatch(new RegExp(`ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} `));
    expect(message).not.toContain(short);
    expect(log.mock.calls.flat().join(" ")).toMatch(/admin_token_too_short/);
    const long = "x".repeat(MIN_ADMIN_TOKEN_LENGTH);
    const served = await fetchWith(new Request(`${ADMIN}/organizations`, { headers: { Authorization: `Bearer ${long}` } }), {
      ADMIN_TOKEN: long,
    });
    expect(served.status).toBe(200);
  });

  it(`logs failed operator logins and refuses an address after ${FAILED_OPERATOR_LOGINS_PER_HOUR} in an hour with 429 and Retry-After; successes never count`, async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const from = (address: string, token: string) =>
      fetchWith(new Request(`${ADMIN}/organizations`, { headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": address } }));
    for (let i = 0; i < FAILED_OPERATOR_LOGINS_PER_HOUR + 5; i++) expect((await from("198.51.100.7", ADMIN_TOKEN)).status).toBe(200);
    for (let i = 0; i < FAILED_OPERATOR_LOGINS_PER_HOUR; i++) {
      await expectEnvelope(await from("198.51.100.7", `wrong-token-${i}`), 401, "unauthorized");
    }
    const refused = await from("198.51.100.7", "wrong-token-again");
    expect(await expectEnvelope(refused, 429, "rate_limited")).toMatch(/failed operator logins from this address/);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The right token waits too: were it let through, guessing could go on and a right guess still be told so.
    await expectEnvelope(await from("198.51.100.7", ADMIN_TOKEN), 429, "rate_limited");
    expect((await from("198.51.100.8", ADMIN_TOKEN)).status).toBe(200);

    const events = warn.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    const failures = events.filter((e) => e.event === "admin_login_failed");
    expect(failures).toHaveLength(FAILED_OPERATOR_LOGINS_PER_HOUR + 1);
    expect(failures[0]).toMatchObject({ address: "198.51.100.7", throttled: false });
    expect(failures.at(-1)).toMatchObject({ address: "198.51.100.7", throttled: true });
    // What was presented is never logged: a near-miss of the real token would be half of it.
    expect(JSON.stringify(events)).not.toContain("wrong-token");
  });

  it("never loads the demo fixture outside development, and loads it only into an empty database", async () => {
    await expectEnvelope(await admin("POST", "/fixture"), 404, "not_found");
    const dev = await fetchWith(adminRequest("POST", "/fixture"), { ENVIRONMENT: "development" });
    expect(dev.status).toBe(200);
    expect(await dev.json()).toEqual({ loaded: false });
  });

  it("rotates the realm's signing key", async () => {
    const before = decodeProtectedHeader(await tokenFor("aurora")).kid;
    const res = await admin("POST", "/signing-keys/rotate");
    expect(res.status).toBe(201);
    const { kid } = await res.json<{ kid: string }>();
    expect(kid).not.toBe(before);
    expect(decodeProtectedHeader(await tokenFor("aurora")).kid).toBe(kid);
  });
});

describe("operator API surface", () => {
  it("describes itself in an OpenAPI 3.1 document generated from its schemas, behind the token", async () => {
    await expectEnvelope(await SELF.fetch(`${ADMIN}/openapi.json`), 401, "unauthorized");
    const doc = await adminJson("GET", "/openapi.json");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.OperatorToken).toMatchObject({ type: "http", scheme: "bearer" });
    for (const path of [
      "/admin/v1/organizations",
      "/admin/v1/organizations/{id}/scope",
      "/admin/v1/identity-clients/{clientId}/secret",
      "/admin/v1/api-keys/{id}/revoke",
      "/admin/v1/users/{id}/password",
      "/admin/v1/connector-clients/{clientId}/redirect-uris",
      "/admin/v1/imports/{id}/rows",
      "/admin/v1/imports/{id}/commit",
      "/admin/v1/content/export",
      "/admin/v1/audit",
      "/admin/v1/signing-keys/rotate",
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(doc.components.schemas.ContentRecord).toBeDefined();
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toContain("conflict");
  });

  it("writes every change to admin_audit with a fingerprint of the token, never the token", async () => {
    const key = await adminJson("POST", "/api-keys", { partner: "Audited" }, 201);
    await adminJson("POST", `/api-keys/${key.id}/revoke`);
    const { entries } = await adminJson("GET", `/audit?target=${key.id}`);
    const fingerprint = `token:${(await sha256Hex(ADMIN_TOKEN)).slice(0, 16)}`;
    expect(entries.map((e: { action: string }) => e.action)).toEqual(["api_key.revoke", "api_key.create"]);
    expect(entries[1]).toMatchObject({ actor: fingerprint, target: key.id, detail: { partner: "Audited", hourlyLimit: 1000 } });
    const stored = JSON.stringify((await env.DB.prepare("SELECT * FROM admin_audit").all()).results);
    expect(stored).not.toContain(ADMIN_TOKEN);
    expect(stored).not.toContain(key.key);
  });

  it("pages the audit log, newest first", async () => {
    for (let i = 0; i < 3; i++) await adminJson("POST", "/api-keys", { partner: `Page ${i}` }, 201);
    const first = await adminJson("GET", "/audit?limit=2");
    expect(first.entries).toHaveLength(2);
    expect(first.entries[0].id).toBeGreaterThan(first.entries[1].id);
    const second = await adminJson("GET", `/audit?limit=2&before=${first.next}`);
    expect(second.entries[0].id).toBeLessThan(first.entries[1].id);
  });

  it("caps request bodies at 64 KiB (4 MiB for import rows), counted as they arrive: at the limit, one past it, and without Content-Length", async () => {
    const body = (bytes: number) => {
      const base = JSON.stringify({ partner: "x" });
      return base.slice(0, -1) + " ".repeat(bytes - base.length) + "}";
    };
    const send = (payload: BodyInit) => postRaw("/api-keys", payload);
    expect((await send(body(64 * 1024))).status).toBe(201);
    await expectEnvelope(await send(body(64 * 1024 + 1)), 413, "payload_too_large");
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body(64 * 1024 + 1)));
        controller.close();
      },
    });
    await expectEnvelope(await send(stream), 413, "payload_too_large");
    const { id } = await adminJson("POST", "/imports", undefined, 201);
    const rows = JSON.stringify({ rows: [{ line: 1, record: { id: "HO-PAD", kind: "brand", name: "x".repeat(300) } }] });
    const padded = rows.slice(0, -1) + " ".repeat(1024 * 1024 - rows.length) + "}";
    const res = await postRaw(`/imports/${id}/rows`, padded);
    expect(res.status).toBe(200);
  });

  it("answers malformed JSON, a wrong Content-Type and unknown routes in the envelope, never with a 500", async () => {
    const raw = (body: string, type?: string) => postRaw("/organizations", body, type);
    await expectEnvelope(await raw("{not json"), 400, "bad_request");
    await expectEnvelope(await raw("[]"), 400, "bad_request");
    await expectEnvelope(await raw('{"id":"org-x","name":"x"}', "text/plain"), 400, "bad_request");
    await expectEnvelope(await admin("GET", "/no-such-thing"), 404, "not_found");
    await expectEnvelope(await admin("GET", "/organizations/Not%20An%20Id"), 404, "not_found");
  });
});
