import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_IDLE_MS, SESSION_MAX_MS } from "../../../src/console/session";
import { FREE_FAILURES } from "../../../src/rate-limit/failure-backoff";
import { fetchWith } from "../support/app";
import { Browser } from "../support/connector";
import { addPeople, BRUNO, CONSOLE, fieldOf, HELENA, INES, pageOf, postForm, signedIn, trySignIn, unescaped } from "../support/console";

afterEach(() => {
  vi.useRealTimers();
});

const from = (address: string) =>
  new Browser((request) => {
    const headers = new Headers(request.headers);
    headers.set("CF-Connecting-IP", address);
    return fetchWith(new Request(request, { headers }));
  });

const later = (ms: number) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + ms);
};

describe("console sign-in", () => {
  it("sends a signed-out visitor to the sign-in page, whose form has labels and the page headers", async () => {
    const res = await new Browser().request(`${CONSOLE}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/console/sign-in");
    const page = await new Browser().request(`${CONSOLE}/sign-in`);
    const html = await page.text();
    expect(page.headers.get("Content-Security-Policy")).toMatch(
      /^default-src 'none'; img-src https:; style-src 'sha256-[^']+'; form-action 'self'; frame-ancestors 'none'/,
    );
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.headers.get("X-Frame-Options")).toBe("DENY");
    expect(html).toContain('<label for="email">E-mail</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain("prefers-color-scheme:dark");
  });

  it("signs in with a __Host- session cookie: Secure, HttpOnly, SameSite=Lax, Path=/", async () => {
    const browser = new Browser();
    const res = await trySignIn(browser, { ...INES, email: "  INES@aurora.example " });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/console");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-console-session="))!;
    expect(cookie).toMatch(/^__Host-console-session=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    expect(await pageOf(browser, "")).toContain("Signed in as Inês Almeida (ines@aurora.example)");
    const token = cookie.split(";")[0]!.split("=")[1]!;
    const stored = await env.DB.prepare("SELECT token_hash FROM console_sessions").all<{ token_hash: string }>();
    expect(stored.results.map((r) => r.token_hash)).not.toContain(token);
  });

  it("answers a wrong password and an unknown e-mail alike, keeping the e-mail typed", async () => {
    const wrong = await trySignIn(new Browser(), { ...BRUNO, password: "not-the-password" });
    const unknown = await trySignIn(new Browser(), { email: "nobody@aurora.example", password: "not-the-password" });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const withoutToken = (html: string) => html.replace(/name="csrf" value="[^"]*"/, "");
    const [a, b] = [withoutToken(await wrong.text()), withoutToken(await unknown.text())];
    expect(a).toContain("The e-mail or password is not correct.");
    expect(b.replace("nobody@aurora.example", BRUNO.email)).toBe(a);
  });

  it("tells a disabled person who gives the right password that their account is disabled and whom to ask; a wrong one learns nothing", async () => {
    const dora = { email: "dora@aurora.example", password: "dora-console-pass" };
    await addPeople([{ id: "person-dora", organizationId: "org-aurora", ...dora, name: "Dora", grants: [] }]);
    await env.DB.prepare("UPDATE people SET disabled_at = '2026-11-20T10:00:00.000Z' WHERE id = 'person-dora'").run();
    const right = await trySignIn(new Browser(), dora);
    expect(right.status).toBe(403);
    expect(right.headers.getSetCookie().some((cookie) => cookie.startsWith("__Host-console-session="))).toBe(false);
    expect(unescaped(await right.text())).toContain(
      "Your account is disabled, so you cannot sign in. Ask your organization's administrator (Inês Almeida) to enable it again.",
    );
    const withoutToken = (html: string) => html.replace(/name="csrf" value="[^"]*"/, "");
    const wrong = await trySignIn(new Browser(), { ...dora, password: "not-the-password" });
    const unknown = await trySignIn(new Browser(), { email: "nobody@aurora.example", password: "not-the-password" });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const [a, b] = [withoutToken(await wrong.text()), withoutToken(await unknown.text())];
    expect(a).toContain("The e-mail or password is not correct.");
    expect(b.replace("nobody@aurora.example", dora.email)).toBe(a);
  });

  it(`waits after ${FREE_FAILURES} failures from one address, without locking the person out elsewhere`, async () => {
    for (let i = 0; i < FREE_FAILURES; i++)
      expect((await trySignIn(from("198.51.100.70"), { ...HELENA, password: "wrong-password" })).status).toBe(401);
    const throttled = await trySignIn(from("198.51.100.70"), HELENA);
    expect(throttled.status).toBe(429);
    expect(await throttled.text()).toContain("Too many failed sign-in attempts from here");
    expect((await trySignIn(from("203.0.113.70"), HELENA)).status).toBe(303);
  });

  it("refuses a sign-in form that did not come from its page (403), signing nobody in", async () => {
    const browser = new Browser();
    await browser.request(`${CONSOLE}/sign-in`);
    const forged = await postForm(browser, "/sign-in", { csrf: "made-up", ...INES });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("Nothing was changed");
    expect((await postForm(new Browser(), "/sign-in", { csrf: "x", ...INES })).status).toBe(403);
  });
});

describe("console sessions", () => {
  it(`end after ${SESSION_IDLE_MS / 60_000} minutes without a request`, async () => {
    const browser = await signedIn(INES);
    later(SESSION_IDLE_MS - 60_000);
    await pageOf(browser, "");
    later(SESSION_IDLE_MS - 60_000);
    await pageOf(browser, "");
    later(SESSION_IDLE_MS);
    const ended = await browser.request(CONSOLE);
    expect(ended.status).toBe(303);
    expect(ended.headers.get("Location")).toBe("/console/sign-in?ended=idle");
    expect(await pageOf(browser, "/sign-in?ended=idle")).toContain("after 30 minutes without activity");
  });

  it(`end ${SESSION_MAX_MS / 3_600_000} hours after sign-in, however active`, async () => {
    const browser = await signedIn(INES);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let at = 20 * 60_000; at < SESSION_MAX_MS; at += 20 * 60_000) {
      vi.setSystemTime(start + at);
      await pageOf(browser, "");
    }
    vi.setSystemTime(start + SESSION_MAX_MS);
    const ended = await browser.request(CONSOLE);
    expect(ended.headers.get("Location")).toBe("/console/sign-in?ended=expired");
  });

  it("sign out ends this session; sign out everywhere ends every session of the person", async () => {
    const [laptop, phone, other] = [await signedIn(BRUNO), await signedIn(BRUNO), await signedIn(INES)];
    const csrf = fieldOf(await pageOf(laptop, ""), "csrf");
    const out = await postForm(laptop, "/sign-out", { csrf });
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie()[0]).toMatch(/^__Host-console-session=; .*Max-Age=0$/);
    expect((await laptop.request(CONSOLE)).status).toBe(303);
    await pageOf(phone, "");

    const again = await signedIn(BRUNO);
    const everywhere = await postForm(again, "/sign-out-everywhere", { csrf: fieldOf(await pageOf(again, ""), "csrf") });
    expect(everywhere.headers.get("Location")).toBe("/console/sign-in?ended=everywhere");
    expect((await phone.request(CONSOLE)).status).toBe(303);
    await pageOf(other, "");
  });

  it("refuses a sign-out without the session's CSRF token", async () => {
    const browser = await signedIn(BRUNO);
    expect((await postForm(browser, "/sign-out-everywhere", { csrf: "forged" })).status).toBe(403);
    await pageOf(browser, "");
  });
});
