import { createExecutionContext, env, SELF } from "cloudflare:test";
import { decodeProtectedHeader, exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { expectEnvelope, tokenFor, TOKEN_URL } from "./mcp-helpers";

const ADMIN = "https://admin.example.com/admin/v1";
const auth = { Authorization: "Bearer test-admin-token" };

describe("operator API", () => {
  it("refuses a missing or wrong operator token with 401, and is off (404) while ADMIN_TOKEN is unset", async () => {
    await expectEnvelope(await SELF.fetch(`${ADMIN}/signing-keys/rotate`, { method: "POST" }), 401, "unauthorized");
    await expectEnvelope(await SELF.fetch(`${ADMIN}/signing-keys/rotate`, { method: "POST", headers: { Authorization: "Bearer nope" } }), 401, "unauthorized");
    const off = await createApp().fetch(new Request(`${ADMIN}/signing-keys/rotate`, { method: "POST", headers: auth }), { ...env, ADMIN_TOKEN: undefined }, createExecutionContext());
    await expectEnvelope(off, 404, "not_found");
  });

  it("never loads the demo fixture outside development, and loads it only into an empty database", async () => {
    await expectEnvelope(await SELF.fetch(`${ADMIN}/fixture`, { method: "POST", headers: auth }), 404, "not_found");
    const dev = await createApp().fetch(new Request(`${ADMIN}/fixture`, { method: "POST", headers: auth }), { ...env, ENVIRONMENT: "development" }, createExecutionContext());
    expect(dev.status).toBe(200);
    expect(await dev.json()).toEqual({ loaded: false });
  });

  it("rotates the realm's signing key", async () => {
    const before = decodeProtectedHeader(await tokenFor("aurora")).kid;
    const res = await SELF.fetch(`${ADMIN}/signing-keys/rotate`, { method: "POST", headers: auth });
    expect(res.status).toBe(201);
    const { kid } = (await res.json()) as { kid: string };
    expect(kid).not.toBe(before);
    expect(decodeProtectedHeader(await tokenFor("aurora")).kid).toBe(kid);
  });
});

describe("a signing key given as a secret", () => {
  it("signs with SIGNING_KEY_JWK and publishes only its public part", async () => {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: "configured-1" };
    const vars = { ...env, SIGNING_KEY_JWK: JSON.stringify(jwk) };
    const app = createApp();
    const token = await app.fetch(
      new Request(TOKEN_URL, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials&client_id=aurora-assistant&client_secret=aurora-secret" }),
      vars,
      createExecutionContext(),
    );
    const { access_token } = (await token.json()) as { access_token: string };
    expect(decodeProtectedHeader(access_token).kid).toBe("configured-1");
    const certs = await app.fetch(new Request(TOKEN_URL.replace("token", "certs")), vars, createExecutionContext());
    const { keys } = (await certs.json()) as { keys: Record<string, unknown>[] };
    const published = keys.find((k) => k.kid === "configured-1")!;
    expect(published.d).toBeUndefined();
    expect(published).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
  });
});
