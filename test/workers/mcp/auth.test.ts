import { env, SELF } from "cloudflare:test";
import { base64url, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { currentSigner } from "../../../src/identity/signing-keys";
import { insertSigningKey } from "../../../src/storage/signing-keys";
import { adminJson, adminRequest } from "../support/admin";
import { fetchWith } from "../support/app";
import { BASE, clientCredentials, expectEnvelope, initializeRequest, mcpPost, post, tokenFor, tokenOf } from "../support/mcp";

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
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
    },
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
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(p!)));
    const forged = base64url.encode(JSON.stringify({ ...claims, client_id: "boreal-assistant" }));
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
      .setIssuer(ISSUER)
      .setAudience("hospitality-mcp")
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    await expectRejected(unknown, /unknown key/);
    const hmac = await new SignJWT({ client_id: "aurora-assistant" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(ISSUER)
      .setAudience("hospitality-mcp")
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(new TextEncoder().encode("x".repeat(32)));
    await expectRejected(hmac, /algorithm/);
    const none = `${base64url.encode(JSON.stringify({ alg: "none" }))}.${base64url.encode(JSON.stringify({ iss: ISSUER, aud: "hospitality-mcp", client_id: "aurora-assistant", exp: now + 300 }))}.`;
    await expectRejected(none, /algorithm|malformed/);
  });

  it("looks the keys up again for an unknown kid at most every 10 s per issuer, so a flood at one origin does not delay another", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = `rotated-elsewhere-${crypto.randomUUID()}`;
    const signed = (origin: string) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ client_id: "aurora-assistant" })
        .setProtectedHeader({ alg: "ES256", kid })
        .setIssuer(`${origin}/realms/hospitality`)
        .setAudience("hospitality-mcp")
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(privateKey);
    };
    const at = async (origin: string) =>
      (await SELF.fetch(mcpPost(await signed(origin), initializeRequest(), undefined, {}, origin))).status;
    const [a, b] = ["https://a.mcp.example.com", "https://b.mcp.example.com"];

    expect(await at(a)).toBe(401); // spends a's lookup
    // Another isolate rotates the key in: published (retired keys stay published), never signing here.
    const now = new Date().toISOString();
    await insertSigningKey(env.DB, {
      kid,
      private_jwk: "{}",
      public_jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" }),
      created_at: now,
      retired_at: now,
    }).run();
    expect(await at(a)).toBe(401); // a's lookups are throttled for 10 s
    expect(await at(b)).toBe(200); // b's are not
  });

  it("refuses a verified token whose client has no organization, or that names no client", async () => {
    await expectRejected(await realmToken({ client_id: "orphan-client" }), /no organization/);
    await expectRejected(await realmToken({ client_id: "ghost-client" }), /no organization/);
    await expectRejected(await realmToken({ client_id: undefined }), /client_id/);
  });

  it("answers a client_id claim with control characters, quotes or non-ASCII with a well-formed 401 challenge, never a 500", async () => {
    await expectRejected(await realmToken({ client_id: "bot\r\nSet-Cookie: x=1" }), /client_id is not 1-255 visible characters/);
    await expectRejected(await realmToken({ client_id: "b\u00f6t" }), /client_id is not 1-255 visible characters/);
    await expectRejected(await realmToken({ client_id: "x".repeat(5_000) }), /client_id is not 1-255 visible characters/);
    const res = await post(await realmToken({ client_id: 'quote"back\\slash' }), initializeRequest());
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(
      /^Bearer error="invalid_token", error_description="The client quote'back'slash has no organization scope\.", resource_metadata="[^"]+"$/,
    );
  });

  it("maps clientId (older Keycloak) and azp when client_id is absent", async () => {
    expect((await post(await realmToken({ client_id: undefined, clientId: "boreal-assistant" }), initializeRequest())).status).toBe(200);
    expect((await post(await realmToken({ client_id: undefined, azp: "boreal-assistant" }), initializeRequest())).status).toBe(200);
  });

  it("trusts an external issuer only when OIDC_ISSUER and OIDC_JWKS_URL are set, and honours MCP_AUDIENCE", async () => {
    const token = await realmToken({ iss: "https://keycloak.example.com/realms/hotels", aud: "account" });
    const res = await fetchWith(mcpPost(token, initializeRequest()), { MCP_AUDIENCE: "account" });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/untrusted issuer/);
  });

  it("refuses a token without exp or iat, or whose lifetime passes MAX_TOKEN_LIFETIME_SECONDS", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRejected(await realmToken({ exp: undefined }), /no exp claim/);
    await expectRejected(await realmToken({ iat: undefined }), /no iat claim/);
    await expectRejected(await realmToken({ iat: now + 120 }), /iat claim is in the future/);
    // The default maximum is 24 h: exactly 24 h passes, one second more does not.
    expect((await post(await realmToken({ iat: now, exp: now + 86_400 }), initializeRequest())).status).toBe(200);
    await expectRejected(await realmToken({ iat: now, exp: now + 86_401 }), /lifetime \(exp - iat\) exceeds 86400 s/);
    const configured = await fetchWith(mcpPost(await realmToken({ iat: now, exp: now + 601 }), initializeRequest()), {
      MAX_TOKEN_LIFETIME_SECONDS: "600",
    });
    expect(configured.status).toBe(401);
    expect(configured.headers.get("WWW-Authenticate")).toMatch(/exceeds 600 s/);
  });

  it("refuses a client whose organization's scope is empty, like one without an organization", async () => {
    await adminJson("POST", "/organizations", { id: "org-unscoped", name: "No content yet" }, 201);
    const { clientSecret } = await adminJson(
      "POST",
      "/identity-clients",
      { clientId: "unscoped-bot", organizationId: "org-unscoped" },
      201,
    );
    await expectRejected(await tokenOf("unscoped-bot", clientSecret), /no organization scope/);
    await adminJson("POST", "/organizations/org-unscoped/scope", { entityId: "HO-BOR" });
    // The isolate remembers the refusal for up to 60 s (README), then reads the new scope.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    try {
      expect((await post(await tokenOf("unscoped-bot", clientSecret), initializeRequest())).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("tokens of an external issuer", () => {
  const issuer = "https://keycloak.example.com/realms/hotels";
  const jwksUrl = `${issuer}/protocol/openid-connect/certs`;
  const external = { OIDC_ISSUER: issuer, OIDC_JWKS_URL: jwksUrl, MCP_AUDIENCE: "account" };
  const initialize = (token: string) => fetchWith(mcpPost(token, initializeRequest()), external);
  const operator = (method: string, path: string, body?: unknown) => fetchWith(adminRequest(method, path, body), external);

  let signExternal: (claims: JWTPayload) => Promise<string>;
  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: "kc-1", alg: "RS256", use: "sig" };
    // The external provider is outside this service: its JWKS endpoint is stood in for at the fetch boundary.
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input instanceof Request ? input.url : input) === jwksUrl ? Response.json({ keys: [jwk] }) : realFetch(input, init),
    );
    signExternal = (claims) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "kc-1" })
        .setIssuer(issuer)
        .setAudience("account")
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(privateKey);
    };
  });
  afterAll(() => vi.restoreAllMocks());

  it("does not borrow the scope of a realm client with the same ID", async () => {
    // aurora-assistant and boreal-assistant are realm clients: the external issuer's clients of those names are not.
    for (const azp of ["aurora-assistant", "boreal-assistant"]) {
      const res = await initialize(await signExternal({ azp }));
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(/no organization scope/);
    }
  });

  it("maps only clients registered under that issuer, and a realm token cannot use their mapping", async () => {
    const refused = await operator("POST", "/identity-clients", {
      issuer: "https://other.example.com",
      clientId: "kc-bot",
      organizationId: "org-boreal",
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: "bad_request", details: [{ field: "issuer" }] } });

    const created = await operator("POST", "/identity-clients", { issuer, clientId: "kc-bot", organizationId: "org-boreal" });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ issuer, clientId: "kc-bot", organizationId: "org-boreal", createdAt: expect.any(String) });
    const res = await initialize(await signExternal({ azp: "kc-bot" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);

    // From the realm's side: a realm token naming kc-bot maps to nothing.
    const realm = await initialize(await realmToken({ client_id: "kc-bot", aud: "account" }));
    expect(realm.status).toBe(401);
    expect(realm.headers.get("WWW-Authenticate")).toMatch(/no organization scope/);
    // External clients have no secret here and cannot get realm tokens.
    expect((await clientCredentials("kc-bot", "")).status).toBe(401);
    expect((await operator("POST", "/identity-clients/kc-bot/secret")).status).toBe(404);

    expect((await operator("DELETE", `/identity-clients/kc-bot?issuer=${encodeURIComponent(issuer)}`)).status).toBe(204);
  });
});
