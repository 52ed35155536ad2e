import { createExecutionContext, env, SELF } from "cloudflare:test";
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { currentSigner } from "../../src/identity/signing-keys";
import { BASE, expectEnvelope, initializeRequest, post, tokenFor } from "./mcp-helpers";

const ISSUER = `${BASE}/realms/hospitality`;
const METADATA = `resource_metadata="${BASE}/.well-known/oauth-protected-resource"`;

/** A token signed by the realm's real key, with claims overridden. */
async function realmToken(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const signer = await currentSigner(env);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: "aurora-assistant", iss: ISSUER, aud: "hospitality-mcp", iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: "ES256", kid: signer.kid, ...header })
    .sign(signer.privateKey);
}

async function expectRejected(token: string | null, description: RegExp) {
  const res = await SELF.fetch(`${BASE}/v1/sse`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...(token === null ? {} : { Authorization: `Bearer ${token}` }) },
    body: JSON.stringify(initializeRequest()),
  });
  const message = await expectEnvelope(res, 401, "unauthorized");
  const challenge = res.headers.get("WWW-Authenticate")!;
  expect(challenge).toContain(METADATA);
  expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"/);
  expect(message).toMatch(description);
}

describe("bearer verification on /v1/sse", () => {
  it("accepts a fresh realm token", async () => {
    expect((await post(await tokenFor("aurora"), initializeRequest())).status).toBe(200);
  });

  it("answers a request without a token with only the resource_metadata challenge", async () => {
    const res = await SELF.fetch(`${BASE}/v1/sse`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    await expectEnvelope(res, 401, "unauthorized");
    expect(res.headers.get("WWW-Authenticate")).toBe(`Bearer ${METADATA}`);
  });

  it("refuses a malformed token and a non-Bearer scheme", async () => {
    await expectRejected("not-a-jwt", /malformed/);
    const res = await SELF.fetch(`${BASE}/v1/sse`, { method: "POST", headers: { Authorization: "Basic abc" }, body: "{}" });
    await expectEnvelope(res, 401, "unauthorized");
  });

  it("refuses a tampered token", async () => {
    const token = await tokenFor("aurora");
    const [h, p, s] = token.split(".");
    const claims = JSON.parse(atob(p!.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = btoa(JSON.stringify({ ...claims, client_id: "boreal-assistant" })).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    await expectRejected(`${h}.${forged}.${s}`, /signature/);
  });

  it("refuses an expired token, beyond the 30 s leeway, and accepts one within it", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRejected(await realmToken({ iat: now - 400, exp: now - 31 }), /expired/);
    expect((await post(await realmToken({ iat: now - 300, exp: now - 10 }), initializeRequest())).status).toBe(200);
  });

  it("refuses a token that is not valid yet", async () => {
    await expectRejected(await realmToken({ nbf: Math.floor(Date.now() / 1000) + 120 }), /not valid yet/);
  });

  it("refuses a token for another audience or from another issuer", async () => {
    await expectRejected(await realmToken({ aud: "account" }), /audience/);
    await expectRejected(await realmToken({ iss: "https://evil.example.com/realms/hospitality" }), /issuer/);
    await expectRejected(await realmToken({ iss: undefined }), /issuer/);
  });

  it("refuses a token signed with an unknown key, and one with a disallowed algorithm", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const now = Math.floor(Date.now() / 1000);
    const unknown = await new SignJWT({ client_id: "aurora-assistant" })
      .setProtectedHeader({ alg: "ES256", kid: "someone-elses-key" })
      .setIssuer(ISSUER).setAudience("hospitality-mcp").setIssuedAt(now).setExpirationTime(now + 300)
      .sign(privateKey);
    await expectRejected(unknown, /unknown key/);
    const hmac = await new SignJWT({ client_id: "aurora-assistant" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(ISSUER).setAudience("hospitality-mcp").setIssuedAt(now).setExpirationTime(now + 300)
      .sign(new TextEncoder().encode("x".repeat(32)));
    await expectRejected(hmac, /algorithm/);
    const none = `${btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")}.${btoa(JSON.stringify({ iss: ISSUER, aud: "hospitality-mcp", client_id: "aurora-assistant", exp: now + 300 })).replace(/=+$/, "")}.`;
    await expectRejected(none, /algorithm|malformed/);
  });

  it("refuses a verified token whose client has no organization, or that names no client", async () => {
    await expectRejected(await realmToken({ client_id: "orphan-client" }), /no organization/);
    await expectRejected(await realmToken({ client_id: "ghost-client" }), /no organization/);
    await expectRejected(await realmToken({ client_id: undefined }), /client_id/);
  });

  it("maps clientId (older Keycloak) and azp when client_id is absent", async () => {
    expect((await post(await realmToken({ client_id: undefined, clientId: "boreal-assistant" }), initializeRequest())).status).toBe(200);
    expect((await post(await realmToken({ client_id: undefined, azp: "boreal-assistant" }), initializeRequest())).status).toBe(200);
  });

  it("trusts an external issuer only when OIDC_ISSUER and OIDC_JWKS_URL are set, and honours MCP_AUDIENCE", async () => {
    const token = await realmToken({ iss: "https://keycloak.example.com/realms/hotels", aud: "account" });
    const app = createApp();
    const call = (vars: Record<string, string>) =>
      app.fetch(
        new Request(`${BASE}/v1/sse`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: JSON.stringify(initializeRequest()) }),
        { ...env, ...vars },
        createExecutionContext(),
      );
    const res = await call({ MCP_AUDIENCE: "account" });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/untrusted issuer/);
  });

  it("verifies a token of a configured external issuer against its JWKS", async () => {
    const issuer = "https://keycloak.example.com/realms/hotels";
    const jwksUrl = `${issuer}/protocol/openid-connect/certs`;
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: "kc-1", alg: "RS256", use: "sig" };
    // The external provider is outside this service: its JWKS endpoint is stood in for at the fetch boundary.
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input instanceof Request ? input.url : input) === jwksUrl ? Response.json({ keys: [jwk] }) : realFetch(input, init),
    );
    try {
      const now = Math.floor(Date.now() / 1000);
      const external = await new SignJWT({ azp: "boreal-assistant" })
        .setProtectedHeader({ alg: "RS256", kid: "kc-1" })
        .setIssuer(issuer).setAudience("account").setIssuedAt(now).setExpirationTime(now + 300)
        .sign(privateKey);
      const res = await createApp().fetch(
        new Request(`${BASE}/v1/sse`, { method: "POST", headers: { Authorization: `Bearer ${external}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: JSON.stringify(initializeRequest()) }),
        { ...env, OIDC_ISSUER: issuer, OIDC_JWKS_URL: jwksUrl, MCP_AUDIENCE: "account" },
        createExecutionContext(),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      spy.mockRestore();
    }
  });
});
