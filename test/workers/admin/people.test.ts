import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { admin, adminJson } from "../support/admin";
import { CONSOLE, trySignIn } from "../support/console";
import { Browser } from "../support/connector";

/** The console's people through the operator API: the same service as the console's people pages. */

const auditOf = async (target: string) =>
  (
    await env.DB.prepare("SELECT actor, action, detail FROM admin_audit WHERE target = ? ORDER BY id").bind(target).all<{
      actor: string;
      action: string;
      detail: string;
    }>()
  ).results.map((row) => ({ ...row, detail: JSON.parse(row.detail) }));

describe("/admin/v1/people", () => {
  it("lists an organization's people with their roles", async () => {
    const { people } = await adminJson("GET", "/people?organizationId=org-aurora");
    expect(people.map((p: { email: string }) => p.email)).toEqual(["bruno@aurora.example", "helena@aurora.example", "ines@aurora.example"]);
    expect(people[2].grants).toEqual([{ role: "administrator", entityId: null }]);
    expect((await adminJson("GET", "/people?organizationId=org-boreal")).people).toEqual([]);
  });

  it("invites with a password shown once, grants, revokes and audits each change", async () => {
    const invited = await adminJson(
      "POST",
      "/people",
      { email: " Nuno@Aurora.example ", displayName: "Nuno", organizationId: "org-aurora" },
      201,
    );
    expect(invited.person).toMatchObject({ email: "nuno@aurora.example", grants: [], disabled: false, mustChoosePassword: true });
    expect(invited.password).toMatch(/.{20,}/);
    const id = invited.person.id;
    const signIn = await trySignIn(new Browser(), { email: "nuno@aurora.example", password: invited.password });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("Location")).toBe("/console/password");

    // An ID in any case, or the name, of an entity the organization's scope holds.
    const granted = await adminJson("POST", `/people/${id}/grants`, { role: "editor", entityId: "ho-aur-0002" });
    expect(granted.grants).toEqual([{ role: "editor", entityId: "HO-AUR-0002" }]);
    expect((await admin("POST", `/people/${id}/grants`, { role: "editor", entityId: "Aurora Porto Riverside" })).status).toBe(409);
    const byName = await adminJson("POST", `/people/${id}/grants`, { role: "viewer", entityId: "aurora lisbon old town" });
    expect(byName.grants).toContainEqual({ role: "viewer", entityId: "HO-AUR-0051" });
    await adminJson("POST", `/people/${id}/revoke`, { role: "viewer", entityId: "HO-AUR-0051" });
    const revoked = await adminJson("POST", `/people/${id}/revoke`, { role: "editor", entityId: "Ho-Aur-0002" });
    expect(revoked.grants).toEqual([]);

    const rows = await auditOf(id);
    expect(rows.map((row) => row.action)).toEqual(["person.invite", "person.grant", "person.grant", "person.revoke", "person.revoke"]);
    expect(rows[0]!.detail).toMatchObject({ mustChoosePassword: true });
    expect(rows[1]!.detail).toEqual({ email: "nuno@aurora.example", before: [], after: [{ role: "editor", entity_id: "HO-AUR-0002" }] });
    expect(rows.every((row) => row.actor.startsWith("token:"))).toBe(true);
  });

  it("refuses a grant outside the organization's scope, bad input and a taken e-mail, and changes nothing", async () => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM console_grants").first<{ n: number }>();
    const outside = await admin("POST", "/people/person-helena/grants", { role: "editor", entityId: "HO-BOR-0001" });
    expect(outside.status).toBe(400);
    expect((await outside.json<any>()).error.message).toBe("The person's organization's scope does not hold HO-BOR-0001.");
    const byForeignName = await admin("POST", "/people/person-helena/grants", { role: "editor", entityId: "boreal inn lisbon riverside" });
    expect(byForeignName.status).toBe(400);
    expect((await byForeignName.json<any>()).error.message).toBe(
      "The person's organization's scope does not hold boreal inn lisbon riverside.",
    );
    const noEntity = await admin("POST", "/people/person-helena/grants", { role: "administrator", entityId: "HO-AUR" });
    expect(noEntity.status).toBe(400);
    expect((await noEntity.json<any>()).error.message).toContain("entityId must be left empty for an administrator");
    const badRole = await admin("POST", "/people/person-helena/grants", { role: "owner", entityId: "HO-AUR" });
    expect((await badRole.json<any>()).error.message).toContain("role must be viewer, editor or administrator");
    const taken = await admin("POST", "/people", { email: "ines@aurora.example", displayName: "Other", organizationId: "org-aurora" });
    expect(taken.status).toBe(409);
    const short = await admin("POST", "/people", {
      email: "x@aurora.example",
      displayName: "X",
      organizationId: "org-aurora",
      password: "short",
    });
    expect((await short.json<any>()).error.message).toContain("password must be at least 10 characters");
    expect((await admin("POST", "/people/person-nobody/disable")).status).toBe(404);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM console_grants").first<{ n: number }>()).toEqual(before);
  });

  it("disables a person: they cannot sign in, and their sessions end", async () => {
    await adminJson(
      "POST",
      "/people",
      { email: "olga@aurora.example", displayName: "Olga", organizationId: "org-aurora", password: "olga-password-1" },
      201,
    );
    const { people } = await adminJson("GET", "/people?organizationId=org-aurora");
    const olga = people.find((p: { email: string }) => p.email === "olga@aurora.example");
    await adminJson("POST", `/people/${olga.id}/grants`, { role: "viewer", entityId: "HO-AUR" });
    const browser = new Browser();
    expect((await trySignIn(browser, { email: "olga@aurora.example", password: "olga-password-1" })).status).toBe(303);
    expect((await browser.request(`${CONSOLE}/password`)).status).toBe(200);

    const disabled = await adminJson("POST", `/people/${olga.id}/disable`);
    expect(disabled.disabled).toBe(true);
    expect((await admin("POST", `/people/${olga.id}/disable`)).status).toBe(409);
    const after = await browser.request(CONSOLE);
    expect(after.status).toBe(303);
    expect(after.headers.get("Location")).toBe("/console/sign-in");
    const again = await trySignIn(new Browser(), { email: "olga@aurora.example", password: "olga-password-1" });
    expect(again.status).toBe(403);
    expect(await again.text()).toContain("Your account is disabled, so you cannot sign in.");
    expect((await auditOf(olga.id)).at(-1)).toMatchObject({ action: "person.disable" });
  });
});
