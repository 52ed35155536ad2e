import { env } from "cloudflare:test";
import { SignJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { currentSigner } from "../../../src/identity/signing-keys";
import { fetchWith } from "../support/app";
import { contentRequest, expectErrorResponse } from "../support/content";
import { BASE, CLIENTS, credentialsGrant, expectEnvelope, mcpPost, openSession, realmTokenRequest, tokenFor } from "../support/mcp";

// Database bindings whose every query fails stand in for an outage or a bug in D1's path.
function failingDb(message: string): D1Database {
  const fail = () => Promise.reject(new Error(message));
  const statement = { bind: () => statement, first: fail, all: fail, run: fail, raw: fail };
  const db = { prepare: () => statement, batch: fail, exec: fail, withSession: () => db, getBookmark: () => null };
  return db as unknown as D1Database;
}

const content = (db: D1Database) => fetchWith(contentRequest("/api/v3/content/HO-AUR/properties"), { DB: db });

describe("failures never reach the client as stack traces", () => {
  let logged: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    logged = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    // The cause is not lost: it goes to the logs.
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it("answers a D1 outage on the content API with 503, Retry-After and the ErrorResponse", async () => {
    const res = await content(failingDb("D1_ERROR: Network connection lost."));
    const body = await expectErrorResponse(res, 503, "Service Unavailable", "/api/v3/content/HO-AUR/properties");
    expect(res.headers.get("Retry-After")).toBe("5");
    expect(JSON.stringify(body)).not.toMatch(/Network connection|\.ts:\d+/);
  });

  it("answers an unexpected error with 500 in the ErrorResponse format, without details", async () => {
    const res = await content(failingDb("D1_TYPE_ERROR: Type 'object' not supported"));
    const body = await expectErrorResponse(res, 500, "Internal Server Error", "/api/v3/content/HO-AUR/properties");
    expect(JSON.stringify(body)).not.toMatch(/D1_TYPE_ERROR|\.ts:\d+/);
  });

  it("answers a tool whose queries fail with a JSON-RPC internal error without details", async () => {
    // A successful call first: the token's keys and organization are then cached, so only the tool meets the failing database.
    const token = await tokenFor("aurora");
    const sessionId = await openSession(token);
    const call = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "service_query", arguments: { entity: "HO-AUR" } } };
    const res = await fetchWith(mcpPost(token, call, sessionId), { DB: failingDb("D1_ERROR: boom at storage/scoped-content.ts:42") });
    expect(res.status).toBe(200);
    const reply = await res.json<{ error: { code: number; message: string } }>();
    expect(reply.error.code).toBe(-32603);
    expect(reply.error.message).not.toMatch(/boom|\.ts:\d+/);
  });

  it("answers an unexpected error on the MCP host with 500 internal_error, and on the realm with server_error", async () => {
    const signer = await currentSigner(env);
    const now = Math.floor(Date.now() / 1000);
    // A client this isolate has never mapped, so verifying it needs the (failing) database.
    const token = await new SignJWT({ client_id: "never-seen-client" })
      .setProtectedHeader({ alg: "ES256", kid: signer.kid })
      .setIssuer(`${BASE}/realms/hospitality`)
      .setAudience("hospitality-mcp")
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(signer.privateKey);
    const broken = { DB: failingDb("D1_TYPE_ERROR: nope") };
    const mcp = await fetchWith(mcpPost(token, {}), broken);
    const message = await expectEnvelope(mcp, 500, "internal_error");
    expect(message).not.toMatch(/D1_TYPE_ERROR/);

    const realm = await fetchWith(realmTokenRequest(credentialsGrant(...CLIENTS.boreal)), broken);
    expect(realm.status).toBe(500);
    expect(await realm.json()).toEqual({ error: "server_error", error_description: expect.any(String) });
  });
});
