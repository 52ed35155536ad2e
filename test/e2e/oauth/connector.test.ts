import AxeBuilder from "@axe-core/playwright";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oauth from "oauth4webapi";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, ROOT } from "../../../scripts/lib/servers.mjs";
import { chromiumBrowser } from "../support/browser";
import { devServer } from "../support/dev-server";
import { killProcess } from "../support/processes";

/**
 * The connector flow against `npm run dev`, driven by clients nobody here wrote: Chromium for the
 * sign-in and consent pages, oauth4webapi for PKCE and the code exchange, and the MCP SDK's own
 * OAuth support from the first 401 to a tool call.
 */

/** This machine's addresses that are not loopback (IPv6 ones in brackets). */
const externalAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && !a.address.startsWith("fe80"))
    .map((a) => (a!.family === "IPv6" ? `[${a!.address}]` : a!.address));

const chromium = chromiumBrowser();
let callbackServer: Server;
let callbackPort: number;
const callbacks: URL[] = [];

const listen = (s: Server) => new Promise<number>((resolve) => s.listen(0, "127.0.0.1", () => resolve((s.address() as AddressInfo).port)));

beforeAll(async () => {
  // The assistant's side of the redirect: a loopback listener that records what arrives.
  callbackServer = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    if (url.pathname === "/callback") callbacks.push(url);
    res.writeHead(200, { "Content-Type": "text/plain" }).end("Connected. You can close this window.");
  });
  callbackPort = await listen(callbackServer);
});
afterAll(async () => {
  await new Promise((resolve) => callbackServer?.close(resolve));
});

const server = devServer(() => ({
  vars: { ALLOWED_REDIRECT_URIS: `https://claude.ai/api/mcp/auth_callback,http://127.0.0.1:${callbackPort}/callback` },
}));

/**
 * What axe-core finds on the page (WCAG 2.2 A and AA, contrast of focus rings and borders included), as
 * "rule: target" lines; with UPDATE_SCREENSHOTS=1 the page is also kept as docs/images/<name>.png.
 */
async function accessibilityProblems(page: Page, name: string): Promise<string[]> {
  if (process.env.UPDATE_SCREENSHOTS === "1") {
    mkdirSync("docs/images", { recursive: true });
    await page.screenshot({ path: `docs/images/${name}.png`, fullPage: true });
  }
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(" ")}`));
}

/** Signs in as the fixture user and allows, with the keyboard only; resolves with the callback URL. */
async function signInAndAllow(page: Page, authorizationUrl: string): Promise<URL> {
  const before = callbacks.length;
  await signInAndAllowWithKeys(page, authorizationUrl);
  expect(callbacks.length).toBe(before + 1);
  return callbacks[callbacks.length - 1]!;
}

/** The person's part: sign in as the fixture user and allow, keyboard only, each page checked by axe-core. */
async function signInAndAllowWithKeys(page: Page, authorizationUrl: string): Promise<void> {
  await page.goto(authorizationUrl);
  expect(await page.locator("h1").textContent()).toContain("Sign in to connect");
  expect(await accessibilityProblems(page, "sign-in")).toEqual([]);
  // The email field has focus on arrival.
  await page.keyboard.type("ana@aurora.example");
  await page.keyboard.press("Tab");
  await page.keyboard.type("aurora-password");
  await page.keyboard.press("Enter");
  // The consent page is served at /authorize too, so the URL says nothing: wait for its heading.
  await page.locator("h1", { hasText: /Allow .+ to access Aurora Digital\?/ }).waitFor();
  expect(await accessibilityProblems(page, "consent")).toEqual([]);
  expect(await page.locator("nav.policies a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual([
    "/privacy",
    "/terms",
  ]);
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Allow");
  expect(await page.evaluate(() => document.activeElement?.matches(":focus-visible"))).toBe(true);
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname === "/callback");
}

describe("the pages an app directory asks for", () => {
  it("serves the privacy policy and the terms of use, linked from the consent page, clean for axe-core", async () => {
    const context = await chromium.browser.newContext();
    const page = await context.newPage();
    for (const [name, heading] of [
      ["privacy", "Privacy policy"],
      ["terms", "Terms of use"],
    ] as const) {
      await page.goto(`${server.origin}/${name}`);
      expect(await page.locator("h1").textContent()).toBe(heading);
      expect(await accessibilityProblems(page, name)).toEqual([]);
    }
    await context.close();
  });
});

describe("assistant connector, end to end", () => {
  it("Chromium signs in with the keyboard and allows; the code buys a token that calls service_list_entities", async () => {
    const issuer = new URL(server.origin);
    const options = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...options }));
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    const client: oauth.Client = { client_id: "demo-connector" };
    const redirectUri = `http://localhost:${callbackPort}/callback`;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      scope: "mcp:tools",
      state,
    }).toString();

    const context = await chromium.browser.newContext();
    const page = await context.newPage();
    const callback = await signInAndAllow(page, url.toString());
    expect(await page.locator("body").textContent()).toContain("Connected.");
    await context.close();

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, options);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/v1/sse`), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    });
    const mcp = new Client({ name: "e2e-connector", version: "1.0.0" });
    await mcp.connect(transport);
    const result = await mcp.callTool({ name: "service_list_entities", arguments: { kind: "brand" } });
    expect(result.structuredContent).toEqual({ entities: [{ id: "HO-AUR", name: "Aurora Hotels & Resorts", kind: "brand" }] });
    await transport.terminateSession();
    await mcp.close();
  });

  it("npm run connect: a loopback callback, the sign-in in Chromium, the code exchanged, a token that lists the tools", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["scripts/connect.mjs", "--url", server.origin, "--port", String(port), "--no-open"], {
      cwd: ROOT,
    });
    try {
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      await expect.poll(() => /http:\/\/\S+\/authorize\?\S+/.test(output), { timeout: 30_000 }).toBe(true);
      // RFC 8252 §8.3: the callback listens on loopback only, and a callback of another sign-in is no answer.
      for (const address of externalAddresses()) {
        await expect(fetch(`http://${address}:${port}/callback?code=x&state=y`), address).rejects.toThrow();
      }
      for (const loopback of ["127.0.0.1", "[::1]"]) {
        const forged = await fetch(`http://${loopback}:${port}/callback?code=attacker-code&state=not-this-sign-in`);
        expect(forged.status, loopback).toBe(400);
        expect(await forged.text()).toMatch(/not the sign-in this terminal started/);
      }
      expect(child.exitCode).toBeNull();
      const context = await chromium.browser.newContext();
      await signInAndAllowWithKeys(await context.newPage(), /http:\/\/\S+\/authorize\?\S+/.exec(output)![0]);
      await context.close();
      expect(await exited, output).toBe(0);
      expect(output).toMatch(/export TOKEN='[^']+'/);
      expect(output).toContain("tools/list at");
      expect(output).toMatch(/service_query, service_search_documents, service_list_entities/);
    } finally {
      if (child.pid) killProcess(child.pid);
    }
  });

  it("oauth4webapi discovers the realm's issuer by RFC 8414 and by OpenID Connect Discovery", async () => {
    const issuer = new URL(`${server.origin}/realms/hospitality`);
    for (const algorithm of ["oauth2", "oidc"] as const) {
      const response = await oauth.discoveryRequest(issuer, { algorithm, [oauth.allowInsecureRequests]: true });
      const as = await oauth.processDiscoveryResponse(issuer, response);
      expect(as.token_endpoint).toBe(`${issuer.href}/protocol/openid-connect/token`);
    }
  });

  it("the MCP SDK Client's own OAuth support goes from a 401 through registration and sign-in to a tool call", async () => {
    const provider = new RecordingProvider(`http://127.0.0.1:${callbackPort}/callback`);
    const endpoint = new URL(`${server.origin}/v1/sse`);

    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    await expect(new Client({ name: "e2e-sdk-oauth", version: "1.0.0" }).connect(first)).rejects.toThrow(UnauthorizedError);
    expect(provider.registered?.client_id).toEqual(expect.any(String));
    expect(provider.authorizationUrl?.origin).toBe(server.origin);

    const context = await chromium.browser.newContext();
    const callback = await signInAndAllow(await context.newPage(), provider.authorizationUrl!.toString());
    await context.close();
    await first.finishAuth(callback.searchParams.get("code")!);
    expect(provider.saved?.access_token).toEqual(expect.any(String));

    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    const mcp = new Client({ name: "e2e-sdk-oauth", version: "1.0.0" });
    await mcp.connect(transport);
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["service_list_entities", "service_query", "service_search_documents"]);
    const query = await mcp.callTool({ name: "service_query", arguments: { entity: "Visit Lisboa" } });
    expect((query.structuredContent as { entity: { id: string } }).entity.id).toBe("DMO-LIS");
    const boreal = await mcp.callTool({ name: "service_query", arguments: { entity: "HO-BOR-0001" } });
    expect((boreal.structuredContent as { entity: unknown }).entity).toBeNull();
    await transport.terminateSession();
    await mcp.close();
  });
});

/** An in-memory OAuthClientProvider, as an assistant would keep its registration and tokens. */
class RecordingProvider implements OAuthClientProvider {
  registered?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  authorizationUrl?: URL;
  private verifier = "";

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "End-to-end SDK client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.registered;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.registered = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
