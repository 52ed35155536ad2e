import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { adminJson, admin } from "../support/admin";
import { Browser } from "../support/connector";
import { SESSION_COOKIE } from "../../../src/console/session";
import { addPeople, CONSOLE, fieldOf, HELENA, INES, pageOf, postForm, signedIn, trySignIn } from "../support/console";

const PIA = { email: "pia@aurora.example", password: "pia-first-password" };
const RUI = { email: "rui@aurora.example", password: "rui-first-password" };
const TEO = { email: "teo@aurora.example", password: "teo-first-password" };
const UNA = { email: "una@aurora.example", password: "una-first-password" };
const BEA = { email: "bea@boreal.example", password: "boreal-console-admin" };
const editorOfOne = [{ role: "editor" as const, entity_id: "HO-AUR-0001" }];

beforeAll(async () => {
  await addPeople([
    { id: "person-pia", organizationId: "org-aurora", ...PIA, name: "Pia", grants: editorOfOne },
    { id: "person-rui", organizationId: "org-aurora", ...RUI, name: "Rui", grants: editorOfOne },
    { id: "person-teo", organizationId: "org-aurora", ...TEO, name: "Teo", grants: editorOfOne },
    { id: "person-una", organizationId: "org-aurora", ...UNA, name: "Una", grants: editorOfOne },
    { id: "person-bea", organizationId: "org-boreal", ...BEA, name: "Bea", grants: [{ role: "administrator", entity_id: null }] },
  ]);
});

const csrfOf = async (browser: Browser) => fieldOf(await pageOf(browser, ""), "csrf");
const stillSignedIn = async (browser: Browser) => (await browser.request(`${CONSOLE}`)).status === 200;
const auditOf = async (id: string) =>
  (await adminJson("GET", `/audit?target=${id}`)).entries as { action: string; actor: string; detail: any }[];

describe("one's own password", () => {
  it("changes it knowing the current one; every other session ends, this one stays, and the audit never holds it", async () => {
    const here = await signedIn(PIA);
    const elsewhere = await signedIn(PIA);
    const copied = Browser.withCookie(SESSION_COOKIE, here.cookie(SESSION_COOKIE)!);
    expect(await stillSignedIn(copied)).toBe(true);
    const csrf = await csrfOf(here);
    const next = "pia-second-password";
    const res = await postForm(here, "/password", { csrf, current: PIA.password, next, repeated: next });
    expect(res.status).toBe(303);
    expect(await pageOf(here, "/password?done=1")).toContain("Your password was changed. You were signed out everywhere else.");
    expect(await stillSignedIn(here)).toBe(true);
    expect(await stillSignedIn(elsewhere)).toBe(false);
    // The browser that changed it goes on with a new token: a copy of its old cookie is worth nothing.
    expect(here.cookie(SESSION_COOKIE)).not.toBe(copied.cookie(SESSION_COOKIE));
    expect(await stillSignedIn(copied)).toBe(false);
    expect((await trySignIn(new Browser(), PIA)).status).toBe(401);
    expect((await trySignIn(new Browser(), { ...PIA, password: next })).status).toBe(303);
    const [entry] = await auditOf("person-pia");
    expect(entry).toMatchObject({ action: "person.password", actor: "person:pia@aurora.example", detail: { by: "themselves" } });
    expect(JSON.stringify(entry)).not.toContain(next);
  });

  it("says every problem at once in plain words, and a wrong current password changes nothing", async () => {
    const rui = await signedIn(RUI);
    const csrf = await csrfOf(rui);
    const short = await postForm(rui, "/password", { csrf, current: RUI.password, next: "short", repeated: "other" });
    expect(short.status).toBe(400);
    const html = await short.text();
    expect(html).toContain("The new password must be at least 10 characters.");
    expect(html).toContain("The repeated password is not the same as the new password.");
    const wrong = await postForm(rui, "/password", {
      csrf,
      current: "not-my-password",
      next: "rui-second-password",
      repeated: "rui-second-password",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("The current password is not correct. Nothing was changed.");
    expect((await trySignIn(new Browser(), RUI)).status).toBe(303);
    expect(await auditOf("person-rui")).toEqual([]);
  });

  it("counts a wrong current password as a failed sign-in: after five, it waits", async () => {
    const teo = await signedIn(TEO);
    const csrf = await csrfOf(teo);
    const attempt = (current: string) =>
      postForm(teo, "/password", { csrf, current, next: "teo-second-password", repeated: "teo-second-password" });
    for (let n = 0; n < 5; n++) expect((await attempt(`guess-${n}`)).status).toBe(400);
    const throttled = await attempt(TEO.password);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await throttled.text()).toContain("Too many wrong passwords");
    expect((await trySignIn(new Browser(), { ...TEO, password: "teo-second-password" })).status).not.toBe(303);
  });

  it("refuses a change without the session's CSRF token", async () => {
    const helena = await signedIn(HELENA);
    const res = await postForm(helena, "/password", {
      csrf: "forged",
      current: HELENA.password,
      next: "x".repeat(12),
      repeated: "x".repeat(12),
    });
    expect(res.status).toBe(403);
    expect((await trySignIn(new Browser(), HELENA)).status).toBe(303);
  });
});

describe("an administrator sets a person's password and enables them again", () => {
  it("sets a given or made password: the person's sessions end, the old password stops working, the made one survives a reload", async () => {
    const ines = await signedIn(INES);
    const csrf = await csrfOf(ines);
    const helena = await signedIn(HELENA);
    const made = await postForm(ines, "/people/person-helena/password", { csrf, password: "" });
    expect(made.status).toBe(303);
    expect(made.headers.get("Location")).toBe("/console/people/person-helena?done=password");
    const html = await pageOf(ines, "/people/person-helena?done=password");
    const password = /Their new password is <strong>([^<]+)<\/strong>/.exec(html)?.[1] ?? "";
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(await pageOf(ines, "/people/person-helena?done=password")).toContain(password);
    expect(await stillSignedIn(helena)).toBe(false);
    expect((await trySignIn(new Browser(), HELENA)).status).toBe(401);
    expect((await trySignIn(new Browser(), { ...HELENA, password })).headers.get("Location")).toBe("/console/password");
    const given = await postForm(ines, "/people/person-helena/password", { csrf, password: HELENA.password });
    expect(given.status).toBe(303);
    // The made password is no longer hers: it is not shown any more.
    expect(await pageOf(ines, "/people/person-helena")).not.toContain(password);
    expect((await trySignIn(new Browser(), HELENA)).status).toBe(303);
    const [entry] = await auditOf("person-helena");
    expect(entry).toMatchObject({
      action: "person.password",
      actor: "person:ines@aurora.example",
      detail: { by: "administrator", mustChoosePassword: { from: true, to: true } },
    });
    expect(JSON.stringify(entry)).not.toContain(password);
    await env.DB.prepare("UPDATE people SET must_choose_password = 0 WHERE id = 'person-helena'").run();
  });

  it("refuses a password too short in plain words, changing nothing", async () => {
    const ines = await signedIn(INES);
    const res = await postForm(ines, "/people/person-helena/password", { csrf: await csrfOf(ines), password: "short" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The password must be at least 10 characters.");
    expect((await trySignIn(new Browser(), HELENA)).status).toBe(303);
  });

  it("another organization's administrator and an editor cannot, by page or replayed form", async () => {
    const bea = await signedIn(BEA);
    expect(
      (await postForm(bea, "/people/person-helena/password", { csrf: await csrfOf(bea), password: "taken-over-password" })).status,
    ).toBe(404);
    expect((await postForm(bea, "/people/person-helena/enable", { csrf: await csrfOf(bea) })).status).toBe(404);
    const helena = await signedIn(HELENA);
    expect(
      (await postForm(helena, "/people/person-bruno/password", { csrf: await csrfOf(helena), password: "taken-over-password" })).status,
    ).toBe(403);
    expect((await trySignIn(new Browser(), HELENA)).status).toBe(303);
    expect((await trySignIn(new Browser(), { email: "bruno@aurora.example", password: "taken-over-password" })).status).toBe(401);
  });

  it("enables a disabled person again, with their roles, audited; the operator API and another organization alike", async () => {
    const ines = await signedIn(INES);
    const csrf = await csrfOf(ines);
    expect((await postForm(ines, "/people/person-rui/disable", { csrf })).status).toBe(303);
    expect((await trySignIn(new Browser(), RUI)).status).toBe(403);
    expect((await postForm(ines, "/people/person-rui/enable", { csrf })).status).toBe(303);
    expect(await pageOf(ines, "/people/person-rui?done=enable")).toContain("The person can sign in again, with the roles they had.");
    const rui = await signedIn(RUI);
    expect(await pageOf(rui, "")).toContain('href="/console/entities/HO-AUR-0001"');
    expect((await auditOf("person-rui")).map((entry) => entry.action).slice(0, 2)).toEqual(["person.enable", "person.disable"]);

    await adminJson("POST", "/people/person-rui/disable");
    expect((await adminJson("POST", "/people/person-rui/enable")).disabled).toBe(false);
    expect((await admin("POST", "/people/person-rui/enable")).status).toBe(409);
    const set = await adminJson("POST", "/people/person-rui/password", {});
    expect(set.password.length).toBeGreaterThanOrEqual(20);
    expect((await admin("POST", "/people/person-rui/password", { password: "short" })).status).toBe(400);
    expect((await trySignIn(new Browser(), { ...RUI, password: set.password })).status).toBe(303);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM people WHERE id = 'person-rui' AND disabled_at IS NULL").first("n")).toBe(1);
  });
});

describe("a password someone else set", () => {
  it("must be replaced at the next sign-in: every other page sends there, a form elsewhere changes nothing, sign-out works", async () => {
    const { password } = await adminJson("POST", "/people/person-una/password", {});
    const response = await trySignIn(new Browser(), { ...UNA, password });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/console/password");
    const una = await signedIn({ ...UNA, password });
    for (const path of ["", "/entities/HO-AUR-0001", "/entities/HO-AUR-0001/faqs/1", "/import", "/unanswered", "/people"])
      expect((await una.request(`${CONSOLE}${path}`)).headers.get("Location"), path).toBe("/console/password");
    const csrf = fieldOf(await pageOf(una, "/password"), "csrf");
    expect(await pageOf(una, "/password")).toContain("The password you were given");
    const faqs = await env.DB.prepare("SELECT count(*) AS n FROM faqs WHERE entity_id = 'HO-AUR-0001'").first("n");
    const edit = await postForm(una, "/entities/HO-AUR-0001/faqs", { csrf, version: "x", question: "Q?", answer: "A.", category: "C" });
    expect(edit.headers.get("Location")).toBe("/console/password");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM faqs WHERE entity_id = 'HO-AUR-0001'").first("n")).toBe(faqs);
    // The given password again is not a choice.
    const same = await postForm(una, "/password", { csrf, current: password, next: password, repeated: password });
    expect(same.status).toBe(400);
    expect(await same.text()).toContain("The new password is the same as the current one: choose another.");
    const next = "una-chosen-password";
    const chosen = await postForm(una, "/password", { csrf, current: password, next, repeated: next });
    expect(chosen.status).toBe(303);
    expect(await pageOf(una, "")).toContain("Your content");
    expect((await adminJson("GET", "/people/person-una")).mustChoosePassword).toBe(false);
    const [entry] = await auditOf("person-una");
    expect(entry).toMatchObject({ action: "person.password", detail: { by: "themselves", mustChoosePassword: { from: true, to: false } } });

    await adminJson("POST", "/people/person-una/password", { password: "una-given-password" });
    const again = await signedIn({ ...UNA, password: "una-given-password" });
    const out = await postForm(again, "/sign-out", { csrf: fieldOf(await pageOf(again, "/password"), "csrf") });
    expect(out.headers.get("Location")).toBe("/console/sign-in?ended=out");
    expect((await again.request(CONSOLE)).headers.get("Location")).toBe("/console/sign-in");
  });
});

describe("an administrator's own password", () => {
  it("is not set through the people page, which asks for no current password", async () => {
    const ines = await signedIn(INES);
    const res = await postForm(ines, "/people/person-ines/password", { csrf: await csrfOf(ines), password: "taken-over-password" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Change your own password on “Your password”");
    expect((await trySignIn(new Browser(), INES)).status).toBe(303);
    expect((await auditOf("person-ines")).filter((entry) => entry.action === "person.password")).toEqual([]);
  });
});
