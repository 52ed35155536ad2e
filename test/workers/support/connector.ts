import { SELF } from "cloudflare:test";
import { base64url } from "jose";
import { BASE } from "./mcp";

export const DEMO_CLIENT = "demo-connector";
export const DEMO_REDIRECT = "http://localhost:8976/callback";
export const ANA = { email: "ana@aurora.example", password: "aurora-password" };

export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

export function authorizeUrl(params: Record<string, string | undefined>, base = BASE): string {
  const url = new URL(`${base}/authorize`);
  for (const [k, v] of Object.entries({ response_type: "code", ...params })) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

type Send = (request: Request) => Response | Promise<Response>;

/** A user agent with a cookie jar that never follows redirects, so each hop can be inspected. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly send: Send = (request) => SELF.fetch(request)) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await this.send(new Request(url, { ...init, headers, redirect: "manual" }));
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair!.indexOf("=");
      const [name, value] = [pair!.slice(0, eq), pair!.slice(eq + 1)];
      if (/max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  submit(fields: Record<string, string>, base = BASE): Promise<Response> {
    return this.request(`${base}/authorize`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  }

  forgetCookies(): void {
    this.cookies.clear();
  }

  /** The cookie `name` this browser holds, to replay it from another. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** A browser holding only the cookie `name` with `value`: someone who copied it. */
  static withCookie(name: string, value: string): Browser {
    const browser = new Browser();
    browser.cookies.set(name, value);
    return browser;
  }
}

export const formHandle = (html: string): string => {
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error(`no handle in page:\n${html}`);
  return handle;
};

/** Opens the sign-in page at `url` and signs in as `user`: the answer to the form (the consent page when it worked). */
export async function signIn(browser: Browser, url: string, user = ANA, base = BASE): Promise<Response> {
  const page = await browser.request(url);
  if (page.status !== 200) throw new Error(`authorize: ${page.status} ${await page.text()}`);
  return browser.submit({ handle: formHandle(await page.text()), decision: "signin", ...user }, base);
}

/** Signs in on the page at `url` and allows; returns the final redirect's Location. */
export async function authorizeAs(browser: Browser, url: string, user = ANA, base = BASE): Promise<URL> {
  const consent = await signIn(browser, url, user, base);
  if (consent.status !== 200) throw new Error(`sign in: ${consent.status} ${await consent.text()}`);
  const done = await browser.submit({ handle: formHandle(await consent.text()), decision: "allow" }, base);
  if (done.status !== 302) throw new Error(`allow: ${done.status} ${await done.text()}`);
  return new URL(done.headers.get("Location")!);
}

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  resource?: string;
}

export async function tokenRequest(fields: Record<string, string>, send: Send = (r) => SELF.fetch(r), base = BASE): Promise<Response> {
  return send(
    new Request(`${base}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    }),
  );
}

/** An authorization request of the demo connector (S256 PKCE, state `state-123`), with overrides. */
export async function demoRequest(overrides: Record<string, string | undefined> = {}): Promise<{ url: string; verifier: string }> {
  const { verifier, challenge } = await pkcePair();
  const url = authorizeUrl({
    client_id: DEMO_CLIENT,
    redirect_uri: DEMO_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "state-123",
    ...overrides,
  });
  return { url, verifier };
}

/** The whole flow for the demo connector as the fixture user: a token set. */
export async function connectorTokens(options: { resource?: string; user?: typeof ANA } = {}): Promise<TokenSet> {
  const { url, verifier } = await demoRequest({ resource: options.resource });
  const callback = await authorizeAs(new Browser(), url, options.user);
  const res = await tokenRequest({
    grant_type: "authorization_code",
    code: callback.searchParams.get("code")!,
    redirect_uri: DEMO_REDIRECT,
    client_id: DEMO_CLIENT,
    code_verifier: verifier,
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return res.json();
}
