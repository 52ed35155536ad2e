import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
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
const csrfOfPassword = async (browser: Browser) => fieldOf(await pageOf(browser, "/password"), "csrf");

afterEach(() => {
  vi.useRealTimers();
});

describe("people, for administrators", () => {
  it("lists the organization's people with their roles, and no one else's", async () => {
    const ines = await signedIn(INES);
    const html = await pageOf(ines, "/people");
    expect(html).toContain("People of Aurora");
    expect(html).toContain("bruno@aurora.example");
    expect(html).toContain("Can edit Aurora Lisbon Riverside (HO-AUR-0001)");
    expect(html).toContain("Administrator of the organization");
    expect(html).not.toContain("bea@boreal.example");
    expect(html).toContain('<label for="email">E-mail</label>');
    expect(await pageOf(ines, "")).toContain('href="/console/people"');
    expect(await pageOf(await signedIn(BRUNO), "")).not.toContain('href="/console/people"');
    const bea = await pageOf(await signedIn(BOREAL), "/people");
    expect(bea).toContain("bea@boreal.example");
    expect(bea).not.toContain("aurora.example");
  });

  it("invites a person: the result survives a reload, shown to the inviting session alone, and a replay invites no one twice", async () => {
    const ines = await signedIn(INES);
    const csrf = await csrfOf(ines);
    const invite = { csrf, email: "Rita@Aurora.example", displayName: "Rita Reis", password: "" };
    const invited = await postForm(ines, "/people", invite);
    expect(invited.status).toBe(303);
    const result = invited.headers.get("Location")!;
    expect(result).toMatch(/^\/console\/people\/person_[0-9a-f]+\?done=invite$/);
    const personId = /people\/([^?]+)/.exec(result)![1]!;
    const html = await pageOf(ines, result.slice("/console".length));
    expect(html).toContain("The person was invited. Give them a role below.");
    const password = /Their first password is <strong>([^<]+)<\/strong>/.exec(html)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(result).not.toContain(password);
    // A reload shows the same password once more, and invites nobody again.
    const reloaded = await pageOf(ines, result.slice("/console".length));
    expect(reloaded.split(password).length - 1).toBe(1);
    // Another session of the same administrator, and the database, do not hold it readable.
    expect(await pageOf(await signedIn(INES), `/people/${personId}`)).not.toContain(password);
    const kept = await env.DB.prepare("SELECT sealed_password FROM console_made_passwords WHERE person_id = ?").bind(personId).first<{
      sealed_password: string;
    }>();
    expect(kept!.sealed_password).not.toContain(password);
    // Another organization's administrator and an editor never see the result page.
    expect(await pageOf(await signedIn(BOREAL), `/people/${personId}?done=invite`, 404)).not.toContain(password);
    expect(await pageOf(await signedIn(BRUNO), `/people/${personId}?done=invite`, 403)).not.toContain(password);
    // The same form posted again is refused: the e-mail is taken.
    const replayed = await postForm(ines, "/people", invite);
    expect(replayed.status).toBe(409);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM people WHERE email = 'rita@aurora.example'").first("n")).toBe(1);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM admin_audit WHERE action = 'person.invite' AND target = ?").bind(personId).first("n"),
    ).toBe(1);
    // Ten minutes on, it is no longer shown.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    expect(await pageOf(ines, `/people/${personId}`)).not.toContain(password);
    vi.useRealTimers();

    // Rita must choose her own password before anything else.
    const signIn = await trySignIn(new Browser(), { email: "rita@aurora.example", password });
    expect(signIn.headers.get("Location")).toBe("/console/password");
    const rita = await signedIn({ email: "rita@aurora.example", password });
    expect((await rita.request(CONSOLE)).headers.get("Location")).toBe("/console/password");
    expect(await pageOf(rita, "/password")).toContain("Choose your password");
    const chosen = await postForm(rita, "/password", {
      csrf: await csrfOfPassword(rita),
      current: password,
      next: "rita-own-password",
      repeated: "rita-own-password",
    });
    expect(chosen.status).toBe(303);
    expect(await pageOf(rita, "")).toContain("You have no content to look after yet.");

    const granted = await postForm(ines, `/people/${personId}/grants`, { csrf, role: "editor", entityId: "aurora madrid RIVERSIDE" });
    expect(granted.status).toBe(303);
    expect(await grantsOf(personId)).toEqual([{ role: "editor", entity_id: "HO-AUR-0003" }]);
    expect(await pageOf(ines, `/people/${personId}?done=grant`)).toContain("The role was given.");
    expect(await pageOf(rita, "")).toContain("HO-AUR-0003");
    const revoked = await postForm(ines, `/people/${personId}/revoke`, { csrf, role: "editor", entityId: "ho-aur-0003" });
    expect(revoked.status).toBe(303);
    expect(await grantsOf(personId)).toEqual([]);
    expect((await postForm(ines, `/people/${personId}/grants`, { csrf, role: "viewer", entityId: "ho-aur-0051" })).status).toBe(303);
    expect(await grantsOf(personId)).toEqual([{ role: "viewer", entity_id: "HO-AUR-0051" }]);

    expect((await postForm(ines, `/people/${personId}/disable`, { csrf })).status).toBe(303);
    const after = await rita.request(CONSOLE);
    expect(after.headers.get("Location")).toBe("/console/sign-in");
    expect((await trySignIn(new Browser(), { email: "rita@aurora.example", password: "rita-own-password" })).status).toBe(403);

    const rows = (
      await env.DB.prepare("SELECT actor, action, detail FROM admin_audit WHERE target = ? ORDER BY id").bind(personId).all<{
        actor: string;
        action: string;
        detail: string;
      }>()
    ).results;
    expect(rows.map((row) => row.action)).toEqual([
      "person.invite",
      "person.password",
      "person.grant",
      "person.revoke",
      "person.grant",
      "person.disable",
    ]);
    expect(rows.map((row) => row.actor)).toEqual(
      ["ines", "rita", "ines", "ines", "ines", "ines"].map((who) => `person:${who}@aurora.example`),
    );
    expect(JSON.parse(rows[1]!.detail)).toMatchObject({ by: "themselves", mustChoosePassword: { from: true, to: false } });
    expect(JSON.parse(rows[2]!.detail)).toMatchObject({ before: [], after: [{ role: "editor", entity_id: "HO-AUR-0003" }] });

    // The person's page tells their changes in words.
    const page = unescaped(await pageOf(ines, `/people/${personId}`));
    expect(page).toContain("Given: Can edit Aurora Madrid Riverside (HO-AUR-0003)");
    expect(page).toContain("Removed: Can edit Aurora Madrid Riverside (HO-AUR-0003)");
    expect(page).toContain("Must choose their own password: yes → no");
    expect(page).toContain("Can sign in: yes → no (disabled");
  });

  it("offers the scope by name, grouped by brand, and resolves a name or an ID in any case within it only", async () => {
    const ines = await signedIn(INES);
    const csrf = await csrfOf(ines);
    const html = unescaped(await pageOf(ines, "/people/person-helena"));
    expect(html).toContain('<optgroup label="Aurora Hotels & Resorts (HO-AUR)">');
    expect(html).toContain('<option value="HO-AUR-0051">Aurora Lisbon Old Town (HO-AUR-0051)</option>');
    expect(html).toContain('<optgroup label="Destinations"><option value="DMO-LIS">Visit Lisboa (DMO-LIS)</option>');
    expect(html).not.toContain("HO-BOR");
    const refusal = async (entityId: string) => {
      const res = await postForm(ines, "/people/person-helena/grants", { csrf, role: "viewer", entityId });
      expect(res.status).toBe(400);
      const text = unescaped(await res.text());
      return /id="entityId-problem" role="alert">(.*?)<\/div>/s.exec(text)![1]!.replace(entityId, "…");
    };
    const boreal = (await env.DB.prepare("SELECT name FROM entities WHERE id = 'HO-BOR-0001'").first<{ name: string }>())!.name;
    // Another organization's hotel, by ID or by name, gets the answer of one that does not exist.
    expect(await refusal("HO-BOR-0001")).toBe(await refusal("HO-ZZZ-0001"));
    expect(await refusal(boreal)).toBe(await refusal("Nowhere Inn Atlantis"));
    // A part of a name suggests what the scope holds with it, never another organization's.
    const partial = unescaped(
      await (await postForm(ines, "/people/person-helena/grants", { csrf, role: "viewer", entityId: "lisbon" })).text(),
    );
    expect(partial).toContain("Aurora Lisbon Old Town (HO-AUR-0051)");
    expect(partial).not.toContain("Boreal");
    expect(await grantsOf("person-helena")).toEqual([{ role: "editor", entity_id: "HO-AUR-0001" }]);
    // An administrator's role needs no entity, whatever the list says.
    expect((await postForm(ines, "/people/person-helena/grants", { csrf, role: "administrator", entityId: "HO-AUR-0002" })).status).toBe(
      303,
    );
    expect((await postForm(ines, "/people/person-helena/revoke", { csrf, role: "administrator", entityId: "" })).status).toBe(303);
  });

  it("for a scope too large to list, takes a name or ID typed in, and asks which when a name is several entities'", async () => {
    const bea = await signedIn(BOREAL);
    const csrf = await csrfOf(bea);
    await addPeople([
      { id: "person-bo", organizationId: "org-boreal", email: "bo@boreal.example", password: "bo-console-pass", name: "Bo", grants: [] },
    ]);
    const html = await pageOf(bea, "/people/person-bo");
    expect(html).toContain('<input id="entityId" name="entityId" value=""/>');
    const [first, second] = (
      await env.DB.prepare("SELECT id, name FROM entities WHERE id IN ('HO-BOR-0001', 'HO-BOR-0002') ORDER BY id").all<{
        id: string;
        name: string;
      }>()
    ).results;
    expect((await postForm(bea, "/people/person-bo/grants", { csrf, role: "viewer", entityId: first!.name.toUpperCase() })).status).toBe(
      303,
    );
    expect(await grantsOf("person-bo")).toEqual([{ role: "viewer", entity_id: "HO-BOR-0001" }]);
    // Two hotels under one name: the answer lists both, to be chosen by ID.
    await env.DB.prepare("UPDATE entities SET name = ?, name_key = lower(?) WHERE id = ?").bind(first!.name, first!.name, second!.id).run();
    const res = await postForm(bea, "/people/person-bo/grants", { csrf, role: "editor", entityId: first!.name });
    expect(res.status).toBe(400);
    const text = unescaped(await res.text());
    expect(text).toContain(`Your organization looks after 2 with the name “${first!.name}”: give the ID of the one you mean`);
    expect(text).toContain(`${first!.name} (HO-BOR-0001)`);
    expect(text).toContain(`${first!.name} (HO-BOR-0002)`);
    expect((await postForm(bea, "/people/person-bo/grants", { csrf, role: "editor", entityId: "ho-bor-0002" })).status).toBe(303);
    // Aurora's hotel, by name, is unknown here.
    const aurora = await postForm(bea, "/people/person-bo/grants", { csrf, role: "viewer", entityId: "Aurora Lisbon Riverside" });
    expect(aurora.status).toBe(400);
    expect(unescaped(await aurora.text())).toContain("Your organization does not look after “Aurora Lisbon Riverside”");
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
    expect(unescaped(await outside.text())).toContain("Your organization does not look after “HO-BOR-0001”");
    const noEntity = await postForm(ines, "/people/person-helena/grants", { csrf, role: "viewer", entityId: "" });
    expect(await noEntity.text()).toContain("The brand, hotel or page is needed for a viewer or editor");
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
