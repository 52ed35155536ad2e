import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../support/connector";
import { addPeople, BRUNO, CONSOLE, fieldOf, HELENA, INES, pageOf, postForm, signedIn, trySignIn, unescaped } from "../support/console";

const BOREAL = { email: "bea@boreal.example", password: "boreal-console-admin" };

beforeAll(async () => {
  await addPeople([
    { id: "person-bea", organizationId: "org-boreal", ...BOREAL, name: "Bea", grants: [{ role: "administrator", entity_id: null }] },
  ]);
});

const grantsOf = async (personId: string) =>
  (await env.DB.prepare("SELECT role, entity_id FROM console_grants WHERE person_id = ? ORDER BY role, entity_id").bind(personId).all())
    .results;
const auditCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM admin_audit").first<{ n: number }>())!.n;
const csrfOf = async (browser: Browser) => fieldOf(await pageOf(browser, ""), "csrf");

describe("people, for administrators", () => {
  it("lists the organization's people with their roles, and no one else's", async () => {
    const ines = await signedIn(INES);
    const html = await pageOf(ines, "/people");
    expect(html).toContain("People of Aurora");
    expect(html).toContain("bruno@aurora.example");
    expect(html).toContain("Can edit HO-AUR-0001");
    expect(html).toContain("Administrator of the organization");
    expect(html).not.toContain("bea@boreal.example");
    expect(html).toContain('<label for="email">E-mail</label>');
    expect(await pageOf(ines, "")).toContain('href="/console/people"');
    expect(await pageOf(await signedIn(BRUNO), "")).not.toContain('href="/console/people"');
    const bea = await pageOf(await signedIn(BOREAL), "/people");
    expect(bea).toContain("bea@boreal.example");
    expect(bea).not.toContain("aurora.example");
  });

  it("invites a person, who signs in with the password shown once, gets a role, loses it, and is disabled", async () => {
    const ines = await signedIn(INES);
    const csrf = await csrfOf(ines);
    const invited = await postForm(ines, "/people", { csrf, email: "Rita@Aurora.example", displayName: "Rita Reis", password: "" });
    const html = await invited.text();
    expect(invited.status, html).toBe(201);
    const password = /Their first password is <strong>([^<]+)<\/strong>/.exec(html)![1]!;
    const personId = /action="\/console\/people\/([^/]+)\/grants"/.exec(html)![1]!;
    const rita = await signedIn({ email: "rita@aurora.example", password });
    expect(await pageOf(rita, "")).toContain("You have no content to look after yet.");

    const granted = await postForm(ines, `/people/${personId}/grants`, { csrf, role: "editor", entityId: "HO-AUR-0003" });
    expect(granted.status).toBe(303);
    expect(await pageOf(ines, `/people/${personId}?done=grant`)).toContain("The role was given.");
    expect(await pageOf(rita, "")).toContain("HO-AUR-0003");
    const revoked = await postForm(ines, `/people/${personId}/revoke`, { csrf, role: "editor", entityId: "HO-AUR-0003" });
    expect(revoked.status).toBe(303);
    expect(await grantsOf(personId)).toEqual([]);

    expect((await postForm(ines, `/people/${personId}/disable`, { csrf })).status).toBe(303);
    const after = await rita.request(CONSOLE);
    expect(after.headers.get("Location")).toBe("/console/sign-in");
    expect((await trySignIn(new Browser(), { email: "rita@aurora.example", password })).status).toBe(401);

    const rows = (
      await env.DB.prepare("SELECT actor, action, detail FROM admin_audit WHERE target = ? ORDER BY id").bind(personId).all<{
        actor: string;
        action: string;
        detail: string;
      }>()
    ).results;
    expect(rows.map((row) => row.action)).toEqual(["person.invite", "person.grant", "person.revoke", "person.disable"]);
    expect(rows.every((row) => row.actor === "person:ines@aurora.example")).toBe(true);
    expect(JSON.parse(rows[1]!.detail)).toMatchObject({ before: [], after: [{ role: "editor", entity_id: "HO-AUR-0003" }] });
  });

  it("refuses bad input in plain words and changes nothing", async () => {
    const ines = await signedIn(INES);
    const csrf = await csrfOf(ines);
    const before = await auditCount();
    const bad = await postForm(ines, "/people", { csrf, email: "not an address", displayName: " ", password: "short" });
    const html = await bad.text();
    expect(bad.status).toBe(400);
    expect(html).toContain("The e-mail must be an e-mail address, like name@example.com.");
    expect(html).toContain("The name is needed.");
    expect(html).toContain("The password must be at least 10 characters.");
    const taken = await postForm(ines, "/people", { csrf, email: "bruno@aurora.example", displayName: "Bruno again", password: "" });
    expect(taken.status).toBe(409);
    expect(unescaped(await taken.text())).toContain(
      "The e-mail bruno@aurora.example is already one of your people's: find them on this page.",
    );
    // Another organization's person: the answer says no more than that the address cannot be used here.
    await addPeople([
      {
        id: "person-zed",
        organizationId: "org-boreal",
        email: "zed@boreal.example",
        password: "zed-console-pass",
        name: "Zed",
        grants: [],
      },
    ]);
    const elsewhere = unescaped(
      await (await postForm(ines, "/people", { csrf, email: "zed@boreal.example", displayName: "Zed", password: "" })).text(),
    );
    expect(elsewhere).toContain(
      "The e-mail zed@boreal.example cannot be invited here. Use another address for this person, or ask your operator.",
    );
    expect(elsewhere).not.toMatch(/boreal\b(?!\.example)|signs in/i);
    const outside = await postForm(ines, "/people/person-helena/grants", { csrf, role: "editor", entityId: "HO-BOR-0001" });
    expect(outside.status).toBe(400);
    expect(await outside.text()).toContain("Your organization does not look after HO-BOR-0001");
    const noEntity = await postForm(ines, "/people/person-helena/grants", { csrf, role: "viewer", entityId: "" });
    expect(await noEntity.text()).toContain("The brand, hotel or page ID is needed for a viewer or editor");
    const own = await postForm(ines, "/people/person-ines/revoke", { csrf, role: "administrator", entityId: "" });
    expect(own.status).toBe(409);
    expect(await own.text()).toContain("You cannot remove your own administrator role.");
    const self = await postForm(ines, "/people/person-ines/disable", { csrf });
    expect(self.status).toBe(409);
    expect(await auditCount()).toBe(before);
    expect(await grantsOf("person-ines")).toEqual([{ role: "administrator", entity_id: null }]);
    expect(await grantsOf("person-helena")).toEqual([{ role: "editor", entity_id: "HO-AUR-0001" }]);
  });
});

describe("not allowed", () => {
  it("editors get 'not allowed', also replaying an administrator's form with their own session, and nothing changes", async () => {
    const before = await auditCount();
    for (const who of [BRUNO, HELENA]) {
      const browser = await signedIn(who);
      const csrf = await csrfOf(browser);
      expect(await pageOf(browser, "/people", 403)).toContain("You are not allowed to do this");
      expect(await pageOf(browser, "/people/person-helena", 403)).toContain("You are not allowed to do this");
      for (const [path, fields] of [
        ["/people", { email: "mallory@aurora.example", displayName: "Mallory", password: "" }],
        ["/people/person-helena/grants", { role: "administrator", entityId: "" }],
        ["/people/person-bruno/grants", { role: "administrator", entityId: "" }],
        ["/people/person-ines/revoke", { role: "administrator", entityId: "" }],
        ["/people/person-ines/disable", {}],
      ] as const) {
        const res = await postForm(browser, path, { csrf, ...fields });
        expect(res.status, path).toBe(403);
      }
    }
    expect(await auditCount()).toBe(before);
    expect(await grantsOf("person-helena")).toEqual([{ role: "editor", entity_id: "HO-AUR-0001" }]);
    expect(await grantsOf("person-ines")).toEqual([{ role: "administrator", entity_id: null }]);
    expect(await env.DB.prepare("SELECT id FROM people WHERE email = 'mallory@aurora.example'").first()).toBeNull();
  });

  it("another organization's administrator sees and changes none of org-aurora's people, and the other way round", async () => {
    const before = await auditCount();
    const bea = await signedIn(BOREAL);
    const csrf = await csrfOf(bea);
    expect(await pageOf(bea, "/people/person-helena", 404)).toContain("There is no person with this ID in your organization.");
    for (const [path, fields] of [
      ["/people/person-helena/grants", { role: "editor", entityId: "HO-AUR-0001" }],
      ["/people/person-helena/revoke", { role: "editor", entityId: "HO-AUR-0001" }],
      ["/people/person-ines/revoke", { role: "administrator", entityId: "" }],
      ["/people/person-helena/disable", {}],
    ] as const) {
      expect((await postForm(bea, path, { csrf, ...fields })).status, path).toBe(404);
    }
    // Bea cannot give her own people a role on Aurora's content either.
    const outside = await postForm(bea, "/people/person-bea/grants", { csrf, role: "editor", entityId: "HO-AUR-0001" });
    expect(outside.status).toBe(400);
    const ines = await signedIn(INES);
    const inesCsrf = await csrfOf(ines);
    expect(await pageOf(ines, "/people/person-bea", 404)).toContain("There is no person with this ID in your organization.");
    expect((await postForm(ines, "/people/person-bea/disable", { csrf: inesCsrf })).status).toBe(404);
    expect((await postForm(ines, "/people/person-bea/revoke", { csrf: inesCsrf, role: "administrator", entityId: "" })).status).toBe(404);
    expect(await auditCount()).toBe(before);
    expect(await grantsOf("person-bea")).toEqual([{ role: "administrator", entity_id: null }]);
    expect((await pageOf(bea, "/people")).includes("Can sign in")).toBe(true);
  });

  it("refuses a people form without the session's CSRF token", async () => {
    const ines = await signedIn(INES);
    const res = await postForm(ines, "/people/person-helena/disable", { csrf: "forged" });
    expect(res.status).toBe(403);
    expect(await env.DB.prepare("SELECT disabled_at FROM people WHERE id = 'person-helena'").first()).toEqual({ disabled_at: null });
  });
});
