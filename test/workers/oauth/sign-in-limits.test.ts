import { SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backoffSeconds, FIRST_WAIT_S, FREE_FAILURES, MAX_WAIT_S } from "../../../src/rate-limit/failure-backoff";
import { DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS } from "../../../src/rate-limit/password-sign-in";
import { adminJson } from "../support/admin";
import { fetchWith } from "../support/app";
import { ANA, Browser, demoRequest, signIn } from "../support/connector";

afterEach(() => {
  vi.useRealTimers();
});

const from = (address: string, vars: Record<string, string> = {}) =>
  new Browser((request) => {
    const headers = new Headers(request.headers);
    headers.set("CF-Connecting-IP", address);
    return fetchWith(new Request(request, { headers }), vars);
  });

const attempt = async (address: string, user: { email: string; password: string }, vars: Record<string, string> = {}) =>
  signIn(from(address, vars), (await demoRequest()).url, user);

const addConnectorUser = (user: { email: string; password: string }) =>
  adminJson("POST", "/users", { ...user, organizationId: "org-aurora" }, 201);

const wrong = (email = ANA.email) => ({ email, password: "not-the-password" });

const later = (seconds: number) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + seconds * 1000);
};

describe("sign-in failures count per e-mail and address, with backoff", () => {
  it("never lets an attacker's wrong passwords lock the owner out", async () => {
    for (let i = 0; i < FREE_FAILURES + 5; i++) await attempt("198.51.100.7", wrong());
    expect((await attempt("198.51.100.7", ANA)).status).toBe(429);
    expect((await attempt("203.0.113.8", ANA)).status).toBe(200);
  });

  it(`allows ${FREE_FAILURES} failures, then waits ${FIRST_WAIT_S} s, doubling; a success forgets them`, async () => {
    const address = "198.51.100.20";
    for (let i = 0; i < FREE_FAILURES; i++) expect((await attempt(address, wrong())).status).toBe(401);
    const waiting = await attempt(address, ANA);
    expect(waiting.status).toBe(429);
    expect(await waiting.text()).toContain(`Try again in ${FIRST_WAIT_S} seconds`);
    later(FIRST_WAIT_S + 1);
    expect((await attempt(address, wrong())).status).toBe(401);
    expect((await attempt(address, ANA)).status).toBe(429);
    later(FIRST_WAIT_S + 1 + 2 * FIRST_WAIT_S + 1);
    expect((await attempt(address, ANA)).status).toBe(200);
    expect((await attempt(address, wrong())).status).toBe(401);
    expect((await attempt(address, wrong())).status).toBe(401);
  });

  it(`stops spraying: one address's failures over any e-mails end at SIGN_IN_FAILURES_PER_ADDRESS an hour (${DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS} unless set)`, async () => {
    const address = "198.51.100.30";
    const vars = { SIGN_IN_FAILURES_PER_ADDRESS: "8" };
    for (let i = 0; i < 8; i++) {
      expect((await attempt(address, wrong(`sprayed-${i}@aurora.example`), vars)).status).toBe(401);
    }
    expect((await attempt(address, wrong("one-more@aurora.example"), vars)).status).toBe(429);
    expect((await attempt(address, ANA, vars)).status).toBe(429);
    expect((await attempt("198.51.100.31", ANA, vars)).status).toBe(200);
  });

  it("stops guessing one account from many addresses at SIGN_IN_FAILURES_PER_ACCOUNT an hour, and a success gives its attempt back", async () => {
    const vars = { SIGN_IN_FAILURES_PER_ACCOUNT: "3" };
    const account = { email: "kai@aurora.example", password: "kai-connector-password" };
    await addConnectorUser(account);
    expect((await attempt("198.51.100.40", account, vars)).status).toBe(200);
    for (let i = 1; i <= 3; i++) expect((await attempt(`198.51.100.4${i}`, wrong(account.email), vars)).status).toBe(401);
    expect((await attempt("198.51.100.45", wrong(account.email), vars)).status).toBe(429);
    // The account's hour is spent wherever the owner is: the bound every guesser shares.
    expect((await attempt("198.51.100.46", account, vars)).status).toBe(429);
    const other = { email: "lia@aurora.example", password: "lia-connector-password" };
    await addConnectorUser(other);
    expect((await attempt("198.51.100.46", other, vars)).status).toBe(200);
  });
});

describe("/authorize per address", () => {
  it("answers 429 with Retry-After past the address's hour, pages and forms alike, and leaves other addresses alone", async () => {
    const vars = { AUTHORIZE_REQUESTS_PER_ADDRESS: "3" };
    const { url } = await demoRequest();
    const browser = from("192.0.2.77", vars);
    for (let i = 0; i < 3; i++) expect((await browser.request(url)).status).toBe(200);
    const refused = await browser.request(url);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect((await browser.submit({ handle: "x", decision: "signin" })).status).toBe(429);
    expect((await from("192.0.2.78", vars).request(url)).status).toBe(200);
    expect((await SELF.fetch(url)).status).toBe(200);
  });
});

describe("backoff rule", () => {
  it("waits nothing before the free failures are spent, then doubles up to the cap, and forgets after a day", () => {
    const now = 1_000_000_000;
    expect(backoffSeconds(undefined, now)).toBe(0);
    expect(backoffSeconds({ count: FREE_FAILURES - 1, lastAt: now }, now)).toBe(0);
    expect(backoffSeconds({ count: FREE_FAILURES, lastAt: now }, now)).toBe(FIRST_WAIT_S);
    expect(backoffSeconds({ count: FREE_FAILURES + 1, lastAt: now }, now)).toBe(2 * FIRST_WAIT_S);
    expect(backoffSeconds({ count: FREE_FAILURES + 20, lastAt: now }, now)).toBe(MAX_WAIT_S);
    expect(backoffSeconds({ count: FREE_FAILURES, lastAt: now }, now + 10_000)).toBe(FIRST_WAIT_S - 10);
    expect(backoffSeconds({ count: FREE_FAILURES + 20, lastAt: now }, now + 86_400_001)).toBe(0);
  });
});
