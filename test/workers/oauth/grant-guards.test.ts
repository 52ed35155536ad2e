import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REFRESH_RETRY_GRACE_S } from "../../../src/oauth/grant-guards";
import { authorizeAs, Browser, connectorTokens, demoRequest, DEMO_CLIENT, DEMO_REDIRECT, tokenRequest } from "../support/connector";
import { expectEnvelope, initializeRequest, post } from "../support/mcp";

afterEach(() => {
  vi.useRealTimers();
});

const refresh = (refreshToken: string) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: DEMO_CLIENT });
const exchange = (code: string, verifier: string) =>
  tokenRequest({ grant_type: "authorization_code", code, redirect_uri: DEMO_REDIRECT, client_id: DEMO_CLIENT, code_verifier: verifier });

async function tokensOf(res: Response): Promise<{ access_token: string; refresh_token: string }> {
  expect(res.status).toBe(200);
  return res.json();
}

async function expectInvalidGrant(res: Response) {
  expect(res.status).toBe(400);
  expect((await res.json<{ error: string }>()).error).toBe("invalid_grant");
}

async function expectGrantEnded(tokens: { access_token: string; refresh_token: string }) {
  await expectInvalidGrant(await refresh(tokens.refresh_token));
  await expectEnvelope(await post(tokens.access_token, initializeRequest()), 401, "unauthorized");
}

const later = (seconds: number) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + seconds * 1000);
};

describe("refresh-token replay ends the grant (RFC 9700 §4.14.2)", () => {
  it("revokes the thief's tokens when the real client's superseded token comes back", async () => {
    const real = await connectorTokens();
    const stolen = await tokensOf(await refresh(real.refresh_token));
    const thief = await tokensOf(await refresh(stolen.refresh_token));
    await expectInvalidGrant(await refresh(real.refresh_token));
    await expectGrantEnded(thief);
  });

  it("revokes the grant when the previous token comes back after the grace period", async () => {
    const first = await connectorTokens();
    const second = await tokensOf(await refresh(first.refresh_token));
    later(REFRESH_RETRY_GRACE_S + 1);
    await expectInvalidGrant(await refresh(first.refresh_token));
    await expectGrantEnded(second);
  });

  it("lets a client retry a refresh whose response it lost, within the grace period, and go on", async () => {
    const first = await connectorTokens();
    await tokensOf(await refresh(first.refresh_token)); // the response the client never read
    later(REFRESH_RETRY_GRACE_S - 5);
    const retried = await tokensOf(await refresh(first.refresh_token));
    expect((await post(retried.access_token, initializeRequest())).status).toBe(200);
    await tokensOf(await refresh(retried.refresh_token));
  });

  it("does not extend the grace period with each retry", async () => {
    const first = await connectorTokens();
    await tokensOf(await refresh(first.refresh_token));
    later(REFRESH_RETRY_GRACE_S - 5);
    const retried = await tokensOf(await refresh(first.refresh_token));
    later(REFRESH_RETRY_GRACE_S);
    await expectInvalidGrant(await refresh(first.refresh_token));
    await expectGrantEnded(retried);
  });

  it("leaves the grant alone for a refresh token it never issued", async () => {
    const tokens = await connectorTokens();
    const [userId, grantId] = tokens.refresh_token.split(":");
    await expectInvalidGrant(await refresh(`${userId}:${grantId}:made-up-secret`));
    await tokensOf(await refresh(tokens.refresh_token));
  });

  it("keeps what it records about rotations in OAUTH_KV as hashes only", async () => {
    const first = await connectorTokens();
    await tokensOf(await refresh(first.refresh_token));
    const { keys } = await env.OAUTH_KV.list({ prefix: "refresh-rotated:" });
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.map((k) => k.name).join("\n")).not.toContain(first.refresh_token.split(":")[2]);
  });
});

describe("a wrong PKCE verifier ends the code", () => {
  it("refuses the right verifier after a wrong one", async () => {
    const { url, verifier } = await demoRequest();
    const code = (await authorizeAs(new Browser(), url)).searchParams.get("code")!;
    await expectInvalidGrant(await exchange(code, `${verifier}x`));
    await expectInvalidGrant(await exchange(code, verifier));
  });
});
