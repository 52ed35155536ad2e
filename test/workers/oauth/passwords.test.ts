import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { verifyPassword } from "../../../src/crypto/password";
import { insertUser } from "../../../src/storage/users";
import { fetchWith } from "../support/app";
import { ANA, Browser, connectorTokens, demoRequest, signIn } from "../support/connector";
import { initializeRequest, post } from "../support/mcp";
import { legacyPasswordHash } from "../support/passwords";

afterEach(() => vi.restoreAllMocks());

const storedUser = (id: string) =>
  env.DB.prepare("SELECT password_hash, tokens_valid_after FROM users WHERE id = ?")
    .bind(id)
    .first<{ password_hash: string; tokens_valid_after: string | null }>();

describe("sign-in with passwords stored before PASSWORD_PEPPER", () => {
  it("signs in, and the first successful sign-in stores the hash again with the pepper, the user's grants untouched", async () => {
    const user = { email: "leia@aurora.example", password: "stored-before-the-pepper" };
    const id = `user-${crypto.randomUUID()}`;
    const legacy = await legacyPasswordHash(user.password);
    await insertUser(env.DB, {
      id,
      email: user.email,
      organization_id: "org-aurora",
      password_hash: legacy,
      disabled_at: null,
      tokens_valid_after: null,
      created_at: new Date().toISOString(),
    }).run();

    // A wrong password changes nothing.
    const { url } = await demoRequest();
    expect((await signIn(new Browser(), url, { ...user, password: "not-the-password" })).status).toBe(401);
    expect((await storedUser(id))!.password_hash).toBe(legacy);

    const tokens = await connectorTokens({ user });
    const upgraded = (await storedUser(id))!;
    expect(upgraded.password_hash).toMatch(/^peppered-pbkdf2-sha256\$/);
    expect(await verifyPassword(user.password, upgraded.password_hash, env.PASSWORD_PEPPER)).toBe(true);
    // The password did not change, so nothing granted with it is revoked.
    expect(upgraded.tokens_valid_after).toBeNull();
    expect((await post(tokens.access_token, initializeRequest())).status).toBe(200);

    // Signing in again uses the peppered hash and leaves it as it is.
    await connectorTokens({ user });
    expect((await storedUser(id))!.password_hash).toBe(upgraded.password_hash);
  });
});

describe("sign-in without PASSWORD_PEPPER", () => {
  it.each([
    ["unset", undefined],
    ["too short", "pepper-of-31-characters-exactly"],
  ])("is refused while the pepper is %s: a 500, no code, and the reason only in the log", async (_, pepper) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const browser = new Browser((request) => fetchWith(request, { PASSWORD_PEPPER: pepper }));
    const { url } = await demoRequest();
    const res = await signIn(browser, url, ANA);
    expect(res.status).toBe(500);
    expect(res.headers.get("Location")).toBeNull();
    expect(await res.text()).not.toMatch(/PASSWORD_PEPPER|code=/);
    expect(log.mock.calls.flat().join(" ")).toMatch(/PASSWORD_PEPPER must be set/);
  });
});
