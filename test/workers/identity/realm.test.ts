import { env, SELF } from "cloudflare:test";
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type JWK,
} from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SealingError, unseal } from "../../../src/crypto/sealed";
import { rotateSigningKey } from "../../../src/identity/signing-keys";
import { insertSigningKey } from "../../../src/storage/signing-keys";
import { fetchWith } from "../support/app";
import { BASE, CLIENTS, credentialsGrant, initializeRequest, post, realmTokenRequest, TOKEN_URL, tokenFor } from "../support/mcp";

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => SELF.fetch(realmTokenRequest(fields, headers));

const jwks = async () =>
  (await (await SELF.fetch(`${BASE}/realms/hospitality/protocol/openid-connect/certs`)).json<{ keys: Record<string, unknown>[] }>()).keys;

afterEach(() => vi.useRealTimers());

describe("realm token endpoint (client_credentials)", () => {
  it("issues an ES256 JWT with kid and the claims of DESIGN §5, credentials in the form", async () => {
    const res = await form({ grant_type: "client_credentials", client_id: "aurora-assistant", client_secret: "aurora-secret" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 300, scope: "mcp:tools" });
    const token = body.access_token as string;
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe("ES256");
    expect(header.kid).toEqual(expect.any(String));
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      iss: `${BASE}/realms/hospitality`,
      aud: "hospitality-mcp",
      sub: "aurora-assistant",
      azp: "aurora-assistant",
      client_id: "aurora-assistant",
      scope: "mcp:tools",
    });
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(claims.jti).toEqual(expect.any(String));
    // The JWKS verifies it.
    await jwtVerify(token, createLocalJWKSet({ keys: await jwks() }), {
      issuer: `${BASE}/realms/hospitality`,
      audience: "hospitality-mcp",
    });
  });

  it("accepts HTTP Basic client authentication", async () => {
    const res = await form({ grant_type: "client_credentials" }, { Authorization: `Basic ${btoa("boreal-assistant:boreal-secret")}` });
    expect(res.status).toBe(200);
    expect(decodeJwt((await res.json<{ access_token: string }>()).access_token).client_id).toBe("boreal-assistant");
  });

  it.each([
    [
      "a wrong secret",
      { grant_type: "client_credentials", client_id: "aurora-assistant", client_secret: "nope" },
      {},
      401,
      "invalid_client",
    ],
    ["an unknown client", { grant_type: "client_credentials", client_id: "ghost", client_secret: "x" }, {}, 401, "invalid_client"],
    ["no credentials", { grant_type: "client_credentials" }, {}, 401, "invalid_client"],
    [
      "a wrong Basic secret",
      { grant_type: "client_credentials" },
      { Authorization: `Basic ${btoa("aurora-assistant:bad")}` },
      401,
      "invalid_client",
    ],
    [
      "two client authentication methods",
      { grant_type: "client_credentials", client_secret: "aurora-secret" },
      { Authorization: `Basic ${btoa("aurora-assistant:aurora-secret")}` },
      400,
      "invalid_request",
    ],
    [
      "another grant",
      { grant_type: "password", client_id: "aurora-assistant", client_secret: "aurora-secret" },
      {},
      400,
      "unsupported_grant_type",
    ],
    ["no grant_type", { client_id: "aurora-assistant", client_secret: "aurora-secret" }, {}, 400, "invalid_request"],
    [
      "an unknown scope",
      { grant_type: "client_credentials", client_id: "aurora-assistant", client_secret: "aurora-secret", scope: "admin" },
      {},
      400,
      "invalid_scope",
    ],
  ])("refuses %s with an OAuth JSON error", async (_, fields, headers, status, error) => {
    const res = await form(fields, headers);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error, error_description: expect.any(String) });
  });

  it("stores client secrets only as SHA-256 hashes", async () => {
    const { results } = await env.DB.prepare("SELECT * FROM identity_clients").all<Record<string, unknown>>();
    expect(JSON.stringify(results)).not.toContain("aurora-secret");
    expect(results.every((r) => /^[0-9a-f]{64}$/.test(String(r.secret_hash)))).toBe(true);
  });

  it("refuses a JSON body and an unknown realm", async () => {
    const json = await SELF.fetch(TOKEN_URL, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(json.status).toBe(400);
    expect((await json.json<{ error: string }>()).error).toBe("invalid_request");
    const realm = await SELF.fetch(`${BASE}/realms/other/protocol/openid-connect/token`, { method: "POST" });
    expect(realm.status).toBe(404);
  });

  it("issues a token to a client without organization, which the MCP server then refuses", async () => {
    const res = await post(await tokenFor("orphan"), initializeRequest());
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/error="invalid_token".*organization/);
  });
});

describe("realm keys and discovery", () => {
  it("publishes only public key members, and the openid-configuration", async () => {
    await tokenFor("aurora");
    for (const key of await jwks()) {
      expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x", "y"]);
    }
    const config = await (await SELF.fetch(`${BASE}/realms/hospitality/.well-known/openid-configuration`)).json<Record<string, unknown>>();
    expect(config).toMatchObject({
      issuer: `${BASE}/realms/hospitality`,
      token_endpoint: `${BASE}/realms/hospitality/protocol/openid-connect/token`,
      jwks_uri: `${BASE}/realms/hospitality/protocol/openid-connect/certs`,
      grant_types_supported: ["client_credentials"],
    });
  });

  it("serves the same document at the RFC 8414 path-inserted URLs of the realm issuer, and 404 for another realm", async () => {
    const document = await (await SELF.fetch(`${BASE}/realms/hospitality/.well-known/openid-configuration`)).text();
    for (const wellKnown of ["oauth-authorization-server", "openid-configuration"]) {
      const res = await SELF.fetch(`${BASE}/.well-known/${wellKnown}/realms/hospitality`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(await res.text()).toBe(document);
      const other = await SELF.fetch(`${BASE}/.well-known/${wellKnown}/realms/elsewhere`);
      expect(other.status).toBe(404);
      expect(await other.json()).toMatchObject({ error: "invalid_request" });
    }
  });

  it("takes the issuer from AUTH_URL and the resource metadata from BASE_URL when they are set", async () => {
    const vars = { AUTH_URL: "https://id.hotels.example", BASE_URL: "https://mcp.hotels.example" };
    const config = await fetchWith(new Request(`${BASE}/realms/hospitality/.well-known/openid-configuration`), vars);
    expect((await config.json<{ issuer: string }>()).issuer).toBe("https://id.hotels.example/realms/hospitality");
    const metadata = await fetchWith(new Request(`${BASE}/.well-known/oauth-protected-resource`), vars);
    expect(await metadata.json()).toMatchObject({
      resource: "https://mcp.hotels.example",
      authorization_servers: ["https://mcp.hotels.example", "https://id.hotels.example/realms/hospitality"],
    });
    const unauthorized = await fetchWith(new Request(`${BASE}/v1/sse`, { method: "POST" }), vars);
    expect(unauthorized.headers.get("WWW-Authenticate")).toBe(
      'Bearer resource_metadata="https://mcp.hotels.example/.well-known/oauth-protected-resource"',
    );
  });

  it("keeps signing keys in D1, and rotation keeps the previous key published until its tokens expire", async () => {
    const before = await tokenFor("aurora");
    const oldKid = decodeProtectedHeader(before).kid;
    const stored = await env.DB.prepare("SELECT kid FROM signing_keys WHERE retired_at IS NULL").all<{ kid: string }>();
    expect(stored.results.map((r) => r.kid)).toContain(oldKid);

    const newKid = await rotateSigningKey(env);
    const after = await tokenFor("aurora");
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    expect((await jwks()).map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    // A token signed before the rotation is still accepted.
    const res = await post(before, initializeRequest());
    expect(res.status).toBe(200);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 60 * 60_000);
    const later = (await jwks()).map((k) => k.kid);
    expect(later).toContain(newKid);
    expect(later).not.toContain(oldKid);
  });

  it("stores private signing keys sealed under KEY_ENCRYPTION_KEY: the stored column is not a usable key", async () => {
    const token = await tokenFor("aurora");
    const { kid } = decodeProtectedHeader(token);
    const row = await env.DB.prepare("SELECT private_jwk, public_jwk FROM signing_keys WHERE kid = ?")
      .bind(kid)
      .first<{ private_jwk: string; public_jwk: string }>();
    expect(row!.private_jwk).toMatch(/^aesgcm1\.[\w-]{16}\.[\w-]+$/);
    expect(() => JSON.parse(row!.private_jwk)).toThrow();
    await expect(importJWK(row!.private_jwk as unknown as JWK, "ES256")).rejects.toThrow();
    // Nothing of the private scalar `d` is in the row in any encoding the key uses.
    expect(JSON.parse(row!.public_jwk)).not.toHaveProperty("d");
    await expect(unseal("another-key-encryption-key-of-32-chars", row!.private_jwk, kid!)).rejects.toThrow(SealingError);
    // Bound to its row: the sealed value does not open as another kid's key.
    await expect(unseal(env.KEY_ENCRYPTION_KEY, row!.private_jwk, "another-kid")).rejects.toThrow(SealingError);
    const opened = JSON.parse(await unseal(env.KEY_ENCRYPTION_KEY, row!.private_jwk, kid!)) as JWK;
    expect(opened).toMatchObject({ kty: "EC", crv: "P-256", d: expect.any(String) });
  });

  it("seals the private keys stored in plain form before, the first time it meets one, and signs with them", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const plain = JSON.stringify(await exportJWK(privateKey));
    const createdAt = new Date(Date.now() + 1_000).toISOString(); // the newest key: it signs
    await insertSigningKey(env.DB, {
      kid,
      private_jwk: plain,
      public_jwk: JSON.stringify({ ...publicJwk, kid, alg: "ES256", use: "sig" }),
      created_at: createdAt,
      retired_at: null,
    }).run();
    await insertSigningKey(env.DB, {
      kid: "retired-plain",
      private_jwk: plain,
      public_jwk: JSON.stringify({ ...publicJwk, kid: "retired-plain" }),
      created_at: "2026-01-01T00:00:00.000Z",
      retired_at: "2026-01-02T00:00:00.000Z",
    }).run();

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 3 * 3_600_000); // past the 60 s signer cache, also one filled in an earlier test's future
    expect(decodeProtectedHeader(await tokenFor("aurora")).kid).toBe(kid);
    const { results } = await env.DB.prepare("SELECT kid, private_jwk FROM signing_keys").all<{ kid: string; private_jwk: string }>();
    expect(results.filter((r) => !r.private_jwk.startsWith("aesgcm1."))).toEqual([]);
    expect(await unseal(env.KEY_ENCRYPTION_KEY, results.find((r) => r.kid === "retired-plain")!.private_jwk, "retired-plain")).toBe(plain);
  });

  it("refuses to sign without KEY_ENCRYPTION_KEY: a 500 in OAuth JSON, the reason only in the log", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 6 * 3_600_000);
    const res = await fetchWith(realmTokenRequest(credentialsGrant(...CLIENTS.aurora)), { KEY_ENCRYPTION_KEY: undefined });
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ error: "server_error", error_description: expect.any(String) });
    expect(body).not.toMatch(/KEY_ENCRYPTION_KEY|at .*\.ts/);
    expect(log.mock.calls.flat().join(" ")).toMatch(/KEY_ENCRYPTION_KEY must be set/);
    log.mockRestore();
  });
});

describe("a signing key given as a secret", () => {
  it("signs with SIGNING_KEY_JWK and publishes only its public part", async () => {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: "configured-1" };
    const vars = { SIGNING_KEY_JWK: JSON.stringify(jwk) };
    const token = await fetchWith(realmTokenRequest(credentialsGrant(...CLIENTS.aurora)), vars);
    const { access_token } = await token.json<{ access_token: string }>();
    expect(decodeProtectedHeader(access_token).kid).toBe("configured-1");
    const certs = await fetchWith(new Request(TOKEN_URL.replace("token", "certs")), vars);
    const { keys } = await certs.json<{ keys: Record<string, unknown>[] }>();
    const published = keys.find((k) => k.kid === "configured-1")!;
    expect(published.d).toBeUndefined();
    expect(published).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
  });
});
