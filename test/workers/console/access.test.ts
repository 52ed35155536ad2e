import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../../src/crypto/password";
import { insertGrant } from "../../../src/storage/console-grants";
import { insertPerson } from "../../../src/storage/people";
import { adminJson } from "../support/admin";
import { BRUNO, fieldOf, HELENA, INES, pageOf, postForm, signedIn } from "../support/console";

const BOREAL = { email: "bea@boreal.example", password: "boreal-console-admin" };

beforeAll(async () => {
  const at = new Date().toISOString();
  await env.DB.batch([
    insertPerson(env.DB, {
      id: "person-bea",
      organization_id: "org-boreal",
      email: BOREAL.email,
      password_hash: await hashPassword(BOREAL.password, env.PASSWORD_PEPPER),
      display_name: "Bea",
      created_at: at,
    }),
    insertGrant(env.DB, "person-bea", { role: "administrator", entity_id: null }, at),
  ]);
  await adminJson("POST", "/webhooks", { url: "https://sync.aurora-partner.example/hook", brands: ["HO-AUR"] }, 201);
  await adminJson("POST", "/webhooks", { url: "https://sync.boreal-partner.example/hook", brands: ["HO-BOR"] }, 201);
  // Ines gives Helena a second role and Bea gives her own person one: each organization's audit has its own rows.
  const ines = await signedIn(INES);
  const csrf = fieldOf(await pageOf(ines, ""), "csrf");
  expect((await postForm(ines, "/people/person-helena/grants", { csrf, role: "viewer", entityId: "HO-AUR-0005" })).status).toBe(303);
  const bea = await signedIn(BOREAL);
  const beaCsrf = fieldOf(await pageOf(bea, ""), "csrf");
  expect((await postForm(bea, "/people/person-bea/grants", { csrf: beaCsrf, role: "editor", entityId: "HO-BOR" })).status).toBe(303);
});

describe("partners and access, for administrators", () => {
  it("shows the organization's webhook endpoints and its people's changes, never another organization's", async () => {
    const html = await pageOf(await signedIn(INES), "/access");
    expect(html).toContain("https://sync.aurora-partner.example/hook");
    expect(html).not.toContain("boreal-partner");
    expect(html).toContain("person.grant");
    expect(html).toContain("person-helena");
    expect(html).not.toContain("person-bea");
    expect(html).toContain('<label for="person">Person (e-mail)</label>');
    expect(html).toContain("API keys and connector clients belong to the whole service");
    const bea = await pageOf(await signedIn(BOREAL), "/access");
    expect(bea).toContain("https://sync.boreal-partner.example/hook");
    expect(bea).not.toContain("aurora");
    expect(bea).toContain("person-bea");
  });

  it("filters the changes by person, entity and day, and says what is wrong with a filter", async () => {
    const ines = await signedIn(INES);
    expect(await pageOf(ines, "/access?person=INES%40aurora.example")).toContain("person-helena");
    expect(await pageOf(ines, "/access?person=bruno%40aurora.example")).toContain("No change matches.");
    expect(await pageOf(ines, "/access?person=bea%40boreal.example")).toContain("No change matches.");
    expect(await pageOf(ines, "/access?entity=person-helena")).toContain("person.grant");
    expect(await pageOf(ines, "/access?entity=person-bea")).toContain("No change matches.");
    const today = new Date().toISOString().slice(0, 10);
    expect(await pageOf(ines, `/access?from=${today}&to=${today}`)).toContain("person-helena");
    expect(await pageOf(ines, "/access?to=2020-01-01")).toContain("No change matches.");
    expect(await pageOf(ines, "/access?from=yesterday", 400)).toContain("From must be a date, like 2026-11-25.");
  });

  it("editors are not allowed", async () => {
    for (const who of [BRUNO, HELENA]) {
      expect(await pageOf(await signedIn(who), "/access", 403)).toContain("You are not allowed to do this");
    }
  });
});
