import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../../../src/crypto/password";
import { sessionObject } from "../../../src/mcp/session";
import { CONNECTOR_ACCESS_CACHE_MS } from "../../../src/oauth/access";
import { oauthHelpers } from "../../../src/oauth/server";
import { CONNECTOR_ISSUER_KEY } from "../../../src/oauth/tokens";
import { revokeClientGrants } from "../../../src/storage/oauth-clients";
import { deleteScope, insertOrganization, insertScope } from "../../../src/storage/organizations";
import { disableUser, insertUser } from "../../../src/storage/users";
import { admin } from "../support/admin";
import { fetchWith } from "../support/app";
import { keepAliveStream } from "../support/sse";
import {
  ANA,
  authorizeAs,
  Browser,
  connectorTokens,
  demoRequest,
  DEMO_CLIENT,
  DEMO_REDIRECT,
  formHandle,
  pkcePair,
  signIn,
  tokenRequest,
} from "../support/connector";
import { BASE, callTool, expectEnvelope, initializeRequest, openSession, post, rpc, tokenFor } from "../support/mcp";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const helpers = () => oauthHelpers(env, BASE);
const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" };

const exchange = (code: string, verifier: string, redirectUri = DEMO_REDIRECT, clientId = DEMO_CLIENT) =>
  tokenRequest({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier });

const refresh = (refreshToken: string) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: DEMO_CLIENT });

async function expectOAuthError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect((await res.json<{ error: string }>()).error).toBe(error);
}

/** An HTML error page: never a redirect, no code anywhere. */
async function expectErrorPage(res: Response, text: RegExp) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.headers.get("Location")).toBeNull();
  expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toMatch(text);
  expect(html).not.toMatch(/code=/);
}

describe("discovery", () => {
  it("publishes RFC 8414 metadata with this origin as issuer: code only, S256 only, the grants, registration", async () => {
    const res = await SELF.fetch(`${BASE}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const metadata = await res.json<Record<string, unknown>>();
    expect(metadata).toMatchObject({
      issuer: BASE,
      authorization_endpoint: `${BASE}/authorize`,
      token_endpoint: `${BASE}/token`,
      registration_endpoint: `${BASE}/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["mcp:tools"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.grant_types_supported).toEqual(["authorization_code", "refresh_token"]);
  });

  it("takes every absolute URL from BASE_URL when it is set", async () => {
    const vars = { BASE_URL: "https://mcp.hotels.example" };
    const res = await fetchWith(new Request("https://mcp.hotels.example/.well-known/oauth-authorization-server"), vars);
    expect(await res.json()).toMatchObject({
      issuer: "https://mcp.hotels.example",
      authorization_endpoint: "https://mcp.hotels.example/authorize",
      token_endpoint: "https://mcp.hotels.example/token",
    });
    const prm = await fetchWith(new Request("https://mcp.hotels.example/.well-known/oauth-protected-resource"), vars);
    expect((await prm.json<{ authorization_servers: string[] }>()).authorization_servers[0]).toBe("https://mcp.hotels.example");
  });

  it("keeps the 401 challenge at /v1/sse pointing at the protected-resource metadata, which names this server", async () => {
    const res = await SELF.fetch(`${BASE}/v1/sse`, { method: "POST", body: "{}" });
    expect(res.headers.get("WWW-Authenticate")).toBe(`Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource"`);
    const prm = await (await SELF.fetch(`${BASE}/.well-known/oauth-protected-resource`)).json<{ authorization_servers: string[] }>();
    expect(prm.authorization_servers[0]).toBe(BASE);
  });
});

describe("authorization code with PKCE", () => {
  it("signs in, allows, redirects with the code, the state and the issuer, and the code buys tokens that open an MCP session", async () => {
    const { url, verifier } = await demoRequest();
    const callback = await authorizeAs(new Browser(), url);
    expect(`${callback.origin}${callback.pathname}`).toBe(DEMO_REDIRECT);
    expect(callback.searchParams.get("state")).toBe("state-123");
    expect(callback.searchParams.get("iss")).toBe(BASE);
    const res = await exchange(callback.searchParams.get("code")!, verifier);
    expect(res.status).toBe(200);
    const tokens = await res.json<Record<string, string | number>>();
    expect(tokens).toMatchObject({ token_type: "bearer", scope: "mcp:tools", expires_in: 3600 });
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const sessionId = await openSession(tokens.access_token as string);
    const listed = await callTool(tokens.access_token as string, sessionId, "service_list_entities", { kind: "brand" });
    expect(listed.entities.map((e: { id: string }) => e.id)).toEqual(["HO-AUR"]);
  });

  it("honours the RFC 8707 resource parameter: the origin or the /v1/sse endpoint, nothing else", async () => {
    for (const resource of [BASE, `${BASE}/`, `${BASE}/v1/sse`]) {
      const tokens = await connectorTokens({ resource });
      expect(tokens.resource).toBe(resource === `${BASE}/v1/sse` ? resource : BASE);
      expect((await post(tokens.access_token, initializeRequest())).status).toBe(200);
    }
    const { url } = await demoRequest({ resource: "https://elsewhere.example/mcp" });
    const res = await new Browser().request(url);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("Location")!).searchParams.get("error")).toBe("invalid_target");
  });

  it("refuses a wrong code verifier, and a verifier for another code", async () => {
    const { url, verifier } = await demoRequest();
    const code = (await authorizeAs(new Browser(), url)).searchParams.get("code")!;
    await expectOAuthError(await exchange(code, `${verifier}x`), 400, "invalid_grant");
    const other = await pkcePair();
    await expectOAuthError(await exchange(code, other.verifier), 400, "invalid_grant");
  });

  it("refuses the plain method and a missing challenge, with an error redirect to the validated client", async () => {
    for (const overrides of [{ code_challenge_method: "plain" }, { code_challenge: undefined, code_challenge_method: undefined }]) {
      const { url } = await demoRequest(overrides);
      const res = await new Browser().request(url);
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("Location")!);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("state")).toBe("state-123");
      expect(location.searchParams.get("code")).toBeNull();
    }
  });

  it("refuses a replayed code and revokes what the first exchange issued", async () => {
    const { url, verifier } = await demoRequest();
    const code = (await authorizeAs(new Browser(), url)).searchParams.get("code")!;
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    const { access_token, refresh_token } = await first.json<{ access_token: string; refresh_token: string }>();
    await expectOAuthError(await exchange(code, verifier), 400, "invalid_grant");
    await expectEnvelope(await post(access_token, initializeRequest()), 401, "unauthorized");
    await expectOAuthError(await refresh(refresh_token), 400, "invalid_grant");
  });

  it("refuses a code older than two minutes", async () => {
    const { url, verifier } = await demoRequest();
    const code = (await authorizeAs(new Browser(), url)).searchParams.get("code")!;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 121_000);
    const res = await exchange(code, verifier);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_grant", error_description: "The authorization code has expired." });
  });

  it("rotates refresh tokens: the new one works, and once it is used the old one is refused", async () => {
    const first = await connectorTokens();
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    const rotated = await second.json<{ access_token: string; refresh_token: string }>();
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect((await post(rotated.access_token, initializeRequest())).status).toBe(200);
    const third = await refresh(rotated.refresh_token);
    expect(third.status).toBe(200);
    await expectOAuthError(await refresh(first.refresh_token), 400, "invalid_grant");
  });

  it("stores codes, tokens and grants in OAUTH_KV only as hashes", async () => {
    const tokens = await connectorTokens();
    const { keys } = await env.OAUTH_KV.list();
    const dump = (await Promise.all(keys.map(async (k) => `${k.name} ${await env.OAUTH_KV.get(k.name)}`))).join("\n");
    const [userId, grantId, accessSecret] = tokens.access_token.split(":");
    expect(dump).toContain(`grant:${userId}:${grantId}`);
    expect(dump).not.toContain(accessSecret);
    expect(dump).not.toContain(tokens.refresh_token.split(":")[2]);
  });
});

describe("clients and redirect URIs", () => {
  it("answers an unknown client with an error page, never a redirect", async () => {
    const { url } = await demoRequest({ client_id: "no-such-client" });
    await expectErrorPage(await new Browser().request(url), /cannot connect/);
  });

  it("accepts the registered loopback URI on another port (RFC 8252 §7.3)", async () => {
    const { url, verifier } = await demoRequest({ redirect_uri: "http://localhost:9999/callback" });
    const callback = await authorizeAs(new Browser(), url);
    expect(callback.origin).toBe("http://localhost:9999");
    expect((await exchange(callback.searchParams.get("code")!, verifier, "http://localhost:9999/callback")).status).toBe(200);
  });

  it.each([
    ["a suffix", "http://localhost:8976/callback/extra"],
    ["an extra query", "http://localhost:8976/callback?x=1"],
    ["another host (127.0.0.1 for localhost)", "http://127.0.0.1:8976/callback"],
    ["another scheme", "https://localhost:8976/callback"],
  ])("answers a redirect URI with %s with an error page", async (_, redirectUri) => {
    const { url } = await demoRequest({ redirect_uri: redirectUri });
    await expectErrorPage(await new Browser().request(url), /cannot connect/);
  });

  it("refuses what the client registered but the operator did not allow: error page, never a redirect", async () => {
    // The provider accepts any URI a client registered; the allow-list is ours.
    const client = await helpers().createClient({
      clientName: "Registered elsewhere",
      tokenEndpointAuthMethod: "none",
      redirectUris: [
        "https://claude.ai/api/mcp/auth_callback",
        "https://claude.ai:8443/api/mcp/auth_callback",
        "https://claude.ai/api/mcp/auth_callback/x",
        "https://claude.ai/api/mcp/auth_callback?x=1",
        "https://evil.example/callback",
        "http://localhost:7000/cb",
      ],
    });
    for (const redirectUri of [
      "https://claude.ai:8443/api/mcp/auth_callback",
      "https://claude.ai/api/mcp/auth_callback/x",
      "https://claude.ai/api/mcp/auth_callback?x=1",
      "https://evil.example/callback",
      "http://localhost:7000/cb",
    ]) {
      const { url } = await demoRequest({ client_id: client.clientId, redirect_uri: redirectUri });
      await expectErrorPage(await new Browser().request(url), /not allowed/);
    }
    // Even a request the provider would refuse with a redirect goes nowhere off the allow-list.
    const { url: plain } = await demoRequest({
      client_id: client.clientId,
      redirect_uri: "https://evil.example/callback",
      code_challenge_method: "plain",
    });
    await expectErrorPage(await new Browser().request(plain), /refused|not allowed/);
    // The allowed one shows the sign-in page.
    const { url } = await demoRequest({ client_id: client.clientId, redirect_uri: "https://claude.ai/api/mcp/auth_callback" });
    expect((await new Browser().request(url)).status).toBe(200);
  });

  it("registers clients dynamically only with allow-listed redirect URIs", async () => {
    const register = (redirect_uris: string[]) =>
      SELF.fetch(`${BASE}/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_name: "Some assistant",
          redirect_uris,
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code", "refresh_token"],
        }),
      });
    const refused = await register(["https://claude.ai/api/mcp/auth_callback", "https://evil.example/callback"]);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_redirect_uri" });
    expect((await register(["https://claude.ai/api/mcp/auth_callback?x=1"])).status).toBe(400);

    const accepted = await register(["https://claude.com/api/mcp/auth_callback"]);
    expect(accepted.status).toBe(201);
    const { client_id } = await accepted.json<{ client_id: string }>();
    const { url } = await demoRequest({ client_id, redirect_uri: "https://claude.com/api/mcp/auth_callback" });
    expect((await new Browser().request(url)).status).toBe(200);
  });

  it("takes the allow-list from ALLOWED_REDIRECT_URIS", async () => {
    const register = (redirect: string) =>
      fetchWith(
        new Request(`${BASE}/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ client_name: "Native app", redirect_uris: [redirect], token_endpoint_auth_method: "none" }),
        }),
        { ALLOWED_REDIRECT_URIS: "http://127.0.0.1:5555/cb" },
      );
    expect((await register("https://claude.ai/api/mcp/auth_callback")).status).toBe(400);
    expect((await register("http://127.0.0.1:6000/cb")).status).toBe(201);
  });

  it("accepts a Client ID Metadata Document client only with an allow-listed redirect URI", async () => {
    const documents: Record<string, unknown> = {
      "https://app.example/good.json": {
        client_id: "https://app.example/good.json",
        client_name: "Good App",
        redirect_uris: ["https://claude.ai/api/mcp/auth_callback"],
        token_endpoint_auth_method: "none",
      },
      "https://app.example/bad.json": {
        client_id: "https://app.example/bad.json",
        client_name: "Bad App",
        redirect_uris: ["https://app.example/callback"],
        token_endpoint_auth_method: "none",
      },
    };
    // The client's document lives outside this service: it is stood in for at the fetch boundary.
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      return url in documents ? Response.json(documents[url]) : realFetch(input, init);
    });
    const browser = new Browser((request) => fetchWith(request));
    const good = await demoRequest({ client_id: "https://app.example/good.json", redirect_uri: "https://claude.ai/api/mcp/auth_callback" });
    const page = await browser.request(good.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Good App");
    expect(html).toContain("Published by <strong>app.example</strong>");
    const bad = await demoRequest({ client_id: "https://app.example/bad.json", redirect_uri: "https://app.example/callback" });
    await expectErrorPage(await browser.request(bad.url), /not allowed/);
  });
});

describe("the sign-in and consent pages", () => {
  it("serve labelled fields, name the client and the organization, and forbid framing and caching", async () => {
    const { url } = await demoRequest();
    const browser = new Browser();
    const page = await browser.request(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.headers.get("Content-Security-Policy")).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get("Content-Security-Policy")).toMatch(/default-src 'none'/);
    const html = await page.text();
    expect(html).toMatch(/<label for="email">Email<\/label>\s*<input id="email"/);
    expect(html).toMatch(/<label for="password">Password<\/label>\s*<input id="password"/);
    expect(html).toContain("Demo connector");
    expect(html).toContain('name="viewport"');
    expect(html).toMatch(/app on this computer/);

    const consent = await browser.submit({ handle: formHandle(html), decision: "signin", ...ANA });
    const consentHtml = await consent.text();
    expect(consentHtml).toContain("Allow Demo connector to access Aurora Digital?");
    expect(consentHtml).toContain("ana@aurora.example");
    expect(consentHtml).toMatch(/value="allow">Allow<\/button>/);
    expect(consentHtml).toMatch(/value="deny">Deny<\/button>/);
  });

  it("speak plainly: the service's configured name, what the app may read, one word for declining, the grant's lifetime", async () => {
    const vars = {
      SERVICE_NAME: "Aurora Guest Answers",
      SERVICE_LOGO_URL: "https://aurora-hotels.example/logo.svg",
      SUPPORT_URL: "mailto:help@aurora.example",
    };
    const { url } = await demoRequest();
    const browser = new Browser((request) => fetchWith(request, vars));
    const html = await (await browser.request(url)).text();
    expect(html).toContain('<p class="brand"><img src="https://aurora-hotels.example/logo.svg" alt="">Aurora Guest Answers</p>');
    expect(html).toContain("<title>Sign in to connect Demo connector · Aurora Guest Answers</title>");
    expect(html).toContain('<a href="mailto:help@aurora.example"');
    expect(html).toMatch(/value="deny" formnovalidate>Deny<\/button>/);
    const consentHtml = await (await browser.submit({ handle: formHandle(html), decision: "signin", ...ANA })).text();
    expect(consentHtml).toContain("read Aurora Digital's hotel content");
    expect(consentHtml).toContain("Access lasts 30 days unless it is ended sooner.");
    for (const page of [html, consentHtml])
      expect(page).toMatch(/<a href="\/privacy">Privacy policy<\/a><a href="\/terms">Terms of use<\/a>/);
    for (const jargon of ["MCP", "scope", "tool", "Cancel", "revoked:"]) {
      expect(html).not.toContain(jargon);
      expect(consentHtml).not.toContain(jargon);
    }
  });

  it("shows the default name and no logo or link when the configured ones are not https", async () => {
    const vars = { SERVICE_LOGO_URL: "javascript:alert(1)", SUPPORT_URL: "http://plain.example/help" };
    const { url } = await demoRequest();
    const html = await (await new Browser((request) => fetchWith(request, vars)).request(url)).text();
    expect(html).toContain('<p class="brand">Hospitality Content</p>');
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("plain.example");
  });

  it("escapes what a client chose, such as its name", async () => {
    const client = await helpers().createClient({
      clientName: '<script>alert("x")</script>',
      tokenEndpointAuthMethod: "none",
      redirectUris: ["https://claude.ai/api/mcp/auth_callback"],
    });
    const { url } = await demoRequest({ client_id: client.clientId, redirect_uri: "https://claude.ai/api/mcp/auth_callback" });
    const html = await (await new Browser().request(url)).text();
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
  });

  it("gives one message for a wrong password and an unknown email, and issues no code", async () => {
    for (const credentials of [
      { email: ANA.email, password: "wrong" },
      { email: "nobody@aurora.example", password: ANA.password },
    ]) {
      const { url } = await demoRequest();
      const browser = new Browser();
      const res = await signIn(browser, url, credentials);
      expect(res.status).toBe(401);
      expect(res.headers.get("Location")).toBeNull();
      const html = await res.text();
      expect(html).toContain("The email or password is not correct.");
      expect(html).not.toContain("Allow");
      // The page is ready for another try with a fresh handle, and the right password still works.
      const retry = await browser.submit({ handle: formHandle(html), decision: "signin", ...ANA });
      expect(retry.status).toBe(200);
    }
  });

  it("denies with error=access_denied and the state, from the sign-in page and from the consent page", async () => {
    const { url } = await demoRequest();
    const browser = new Browser();
    const cancelled = await browser.submit({ handle: formHandle(await (await browser.request(url)).text()), decision: "deny" });
    expect(cancelled.status).toBe(302);
    const location = new URL(cancelled.headers.get("Location")!);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("state-123");

    const consent = await signIn(browser, url);
    const denied = await browser.submit({ handle: formHandle(await consent.text()), decision: "deny" });
    expect(denied.status).toBe(302);
    expect(new URL(denied.headers.get("Location")!).searchParams.get("error")).toBe("access_denied");
    expect(new URL(denied.headers.get("Location")!).searchParams.get("code")).toBeNull();
  });

  it("refuses a form from another browser (CSRF) and a form posted twice", async () => {
    const { url } = await demoRequest();
    const browser = new Browser();
    const handle = formHandle(await (await browser.request(url)).text());
    const attacker = new Browser();
    await expectErrorPage(await attacker.submit({ handle, decision: "signin", ...ANA }), /expired/);
    const consent = await browser.submit({ handle, decision: "signin", ...ANA });
    expect(consent.status).toBe(200);
    await expectErrorPage(await browser.submit({ handle, decision: "signin", ...ANA }), /expired/);
  });

  it("never allows from a handle that was not issued after signing in", async () => {
    const { url } = await demoRequest();
    const browser = new Browser();
    const handle = formHandle(await (await browser.request(url)).text());
    await expectErrorPage(await browser.submit({ handle, decision: "allow" }), /expired/);
  });

  it("ignores request parameters swapped into the submitted form", async () => {
    const { url } = await demoRequest();
    const browser = new Browser();
    const consent = await signIn(browser, url);
    const done = await browser.submit({
      handle: formHandle(await consent.text()),
      decision: "allow",
      redirect_uri: "https://evil.example/callback",
      client_id: "someone-else",
      state: "forged",
    });
    const location = new URL(done.headers.get("Location")!);
    expect(`${location.origin}${location.pathname}`).toBe(DEMO_REDIRECT);
    expect(location.searchParams.get("state")).toBe("state-123");
  });
});

describe("connector tokens at /v1/sse", () => {
  it("map to the signed-in user's organization and never see HO-BOR", async () => {
    const { access_token } = await connectorTokens();
    const sessionId = await openSession(access_token);
    const brands = await callTool(access_token, sessionId, "service_list_entities", { kind: "brand" });
    expect(brands.entities.map((e: { id: string }) => e.id)).toEqual(["HO-AUR"]);
    expect((await callTool(access_token, sessionId, "service_query", { entity: "HO-BOR-0001" })).entity).toBeNull();
    const search = await callTool(access_token, sessionId, "service_search_documents", { query: "Boreal Inn parking", limit: 50 });
    expect(search.results.every((r: { entityId: string }) => !r.entityId.startsWith("HO-BOR"))).toBe(true);
    const brand = await callTool(access_token, sessionId, "service_list_entities", { brandId: "HO-BOR" });
    expect(brand.entities).toEqual([]);
  });

  it("refuse an unknown or malformed connector token with the 401 envelope", async () => {
    for (const token of ["user-ana:nogrant:nosecret", "a:b:c"]) {
      const res = await post(token, initializeRequest());
      await expectEnvelope(res, 401, "unauthorized");
      expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer error="invalid_token"/);
    }
  });

  it("are not issued while the user's organization has an empty scope, and are refused if it empties", async () => {
    await insertOrganization(env.DB, { id: "org-empty-scope", name: "Empty", created_at: new Date().toISOString() }).run();
    await createUser("eva@empty.example", "eva-password", "org-empty-scope");
    const eva = { email: "eva@empty.example", password: "eva-password" };
    await expect(connectorTokens({ user: eva })).rejects.toThrow(/invalid_grant.*organization has no content scope/);

    await insertScope(env.DB, "org-empty-scope", "HO-BOR").run();
    const tokens = await connectorTokens({ user: eva });
    expect((await post(tokens.access_token, initializeRequest())).status).toBe(200);
    await deleteScope(env.DB, "org-empty-scope", "HO-BOR").run();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + CONNECTOR_ACCESS_CACHE_MS);
    expect(await expectEnvelope(await post(tokens.access_token, initializeRequest()), 401, "unauthorized")).toMatch(
      /organization has no content scope/,
    );
  });

  it("stop working within 5 s of disabling the user, at /v1/sse and /token, and the user's sessions end", async () => {
    expect(CONNECTOR_ACCESS_CACHE_MS).toBeLessThanOrEqual(5000);
    const userId = await createUser("rui@aurora.example", "rui-password");
    const rui = { email: "rui@aurora.example", password: "rui-password" };
    const tokens = await connectorTokens({ user: rui });
    const sessionId = await openSession(tokens.access_token);
    expect((await post(tokens.access_token, listTools, sessionId)).status).toBe(200);

    // D1 alone decides: the provider's KV records may not have reached every location yet.
    const disabledAt = Date.now();
    await disableUser(env.DB, userId, new Date(disabledAt).toISOString()).run();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(disabledAt + 5000);
    expect(await expectEnvelope(await post(tokens.access_token, listTools, sessionId), 401, "unauthorized")).toMatch(/disabled/);
    const refused = await refresh(tokens.refresh_token);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/disabled/) });

    // Enabled again and authorized anew, the user starts afresh: the old grant and its session are over.
    vi.useRealTimers();
    await env.DB.prepare("UPDATE users SET disabled_at = NULL WHERE id = ?").bind(userId).run();
    await expectEnvelope(await post(tokens.access_token, listTools, sessionId), 401, "unauthorized");
    const again = await connectorTokens({ user: rui });
    await expectEnvelope(await post(again.access_token, listTools, sessionId), 404, "not_found");
    expect((await rpc(again.access_token, await openSession(again.access_token), "tools/list")).result.tools).toHaveLength(3);
  });

  it("end an open notification stream, and its session, once the user is disabled", async () => {
    const userId = await createUser("joao@aurora.example", "joao-password");
    const tokens = await connectorTokens({ user: { email: "joao@aurora.example", password: "joao-password" } });
    const sessionId = await openSession(tokens.access_token);
    const stream = await keepAliveStream(tokens.access_token, sessionId);
    expect(await stream.next()).toBe(": stream open\n\n");
    expect(await stream.next()).toBe(": keep-alive\n\n");

    const disabledAt = Date.now();
    await disableUser(env.DB, userId, new Date(disabledAt).toISOString()).run();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(disabledAt + 5000);
    expect(await stream.ended()).toBe(true);
    const stored = await sessionObject(env, sessionId).touch({
      clientId: DEMO_CLIENT,
      issuer: CONNECTOR_ISSUER_KEY,
      organizationId: "org-aurora",
      grant: { id: tokens.access_token.split(":")[1]!, userId, grantedAt: "" },
    });
    expect(stored).toBeNull();
  });

  it("are revoked in the provider's store too when the operator disables the user", async () => {
    const userId = await createUser("ines@aurora.example", "ines-password");
    const tokens = await connectorTokens({ user: { email: "ines@aurora.example", password: "ines-password" } });
    expect((await helpers().listUserGrants(userId)).items).toHaveLength(1);
    expect((await admin("POST", `/users/${userId}/disable`)).status).toBe(200);
    expect((await helpers().listUserGrants(userId)).items).toHaveLength(0);
    expect((await admin("POST", `/users/${userId}/disable`)).status).toBe(409);
    await expectEnvelope(await post(tokens.access_token, initializeRequest()), 401, "unauthorized");
  });

  it("stop working within 5 s of deleting the client, at /v1/sse and /token", async () => {
    const client = await helpers().createClient({
      clientName: "Short-lived",
      tokenEndpointAuthMethod: "none",
      redirectUris: ["https://claude.ai/api/mcp/auth_callback"],
    });
    const { url, verifier } = await demoRequest({ client_id: client.clientId, redirect_uri: "https://claude.ai/api/mcp/auth_callback" });
    const code = (await authorizeAs(new Browser(), url)).searchParams.get("code")!;
    const res = await exchange(code, verifier, "https://claude.ai/api/mcp/auth_callback", client.clientId);
    const tokens = await res.json<{ access_token: string; refresh_token: string }>();
    const sessionId = await openSession(tokens.access_token);

    // D1 alone decides first (as where KV has not caught up), then the whole deletion.
    const deletedAt = Date.now();
    await revokeClientGrants(env.DB, client.clientId, new Date(deletedAt).toISOString()).run();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(deletedAt + 5000);
    expect(await expectEnvelope(await post(tokens.access_token, listTools, sessionId), 401, "unauthorized")).toMatch(/revoked/);
    const refused = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.clientId });
    expect(await refused.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/revoked/) });

    vi.useRealTimers();
    expect((await admin("DELETE", `/connector-clients/${client.clientId}`)).status).toBe(204);
    expect(await helpers().lookupClient(client.clientId)).toBeNull();
    await expectEnvelope(await post(tokens.access_token, listTools, sessionId), 401, "unauthorized");
    const afterDelete = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.clientId,
    });
    expect(afterDelete.status).toBe(401);
  });

  it("keep a session to their own grant: a realm token of the same organization gets 404", async () => {
    const { access_token } = await connectorTokens();
    const sessionId = await openSession(access_token);
    const realm = await tokenFor("aurora");
    await expectEnvelope(await post(realm, listTools, sessionId), 404, "not_found");
    expect((await post(access_token, listTools, sessionId)).status).toBe(200);
  });
});

async function createUser(email: string, password: string, organizationId = "org-aurora"): Promise<string> {
  const id = `user-${crypto.randomUUID()}`;
  await insertUser(env.DB, {
    id,
    email,
    organization_id: organizationId,
    password_hash: await hashPassword(password, env.PASSWORD_PEPPER),
    disabled_at: null,
    tokens_valid_after: null,
    created_at: new Date().toISOString(),
  }).run();
  return id;
}
