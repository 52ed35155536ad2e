import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, adminJson } from "../support/admin";
import { ANA, connectorTokens } from "../support/connector";
import { addPeople, BEA, BOREAL, BRUNO, fieldOf, HELENA, INES, pageOf, postForm, signedIn } from "../support/console";
import { get } from "../support/content";
import { BASE, initializeRequest, mcpHeaders, tokenFor } from "../support/mcp";

beforeAll(async () => {
  await addPeople([BEA]);
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
  it("shows the organization's webhook endpoints, and its people's changes on their own page, never another organization's", async () => {
    const ines = await signedIn(INES);
    const html = await pageOf(ines, "/access");
    expect(html).toContain("https://sync.aurora-partner.example/hook");
    expect(html).not.toContain("boreal-partner");
    expect(html).toContain('href="/console/audit"');
    const changes = await pageOf(ines, "/audit");
    expect(changes).toContain("Gave a role");
    expect(changes).toContain("helena@aurora.example");
    expect(changes).not.toContain("bea@boreal.example");
    expect(changes).toContain('<label for="person">Person (e-mail)</label>');
    const bea = await signedIn(BOREAL);
    expect(await pageOf(bea, "/access")).toContain("https://sync.boreal-partner.example/hook");
    const boreal = await pageOf(bea, "/audit");
    expect(boreal).not.toContain("aurora");
    expect(boreal).toContain("bea@boreal.example");
  });

  it("filters the changes by person, entity and day, and says what is wrong with a filter", async () => {
    const ines = await signedIn(INES);
    expect(await pageOf(ines, "/audit?person=INES%40aurora.example")).toContain("helena@aurora.example");
    expect(await pageOf(ines, "/audit?person=bruno%40aurora.example")).toContain("No change matches.");
    expect(await pageOf(ines, "/audit?person=bea%40boreal.example")).toContain("No change matches.");
    expect(await pageOf(ines, "/audit?entity=person-helena")).toContain("Gave a role");
    expect(await pageOf(ines, "/audit?entity=person-bea")).toContain("No change matches.");
    const today = new Date().toISOString().slice(0, 10);
    expect(await pageOf(ines, `/audit?from=${today}&to=${today}`)).toContain("helena@aurora.example");
    expect(await pageOf(ines, "/audit?to=2020-01-01")).toContain("No change matches.");
    expect(await pageOf(ines, "/audit?from=yesterday", 400)).toContain("From must be a date, like 2026-11-25.");
  });

  it("editors are not allowed", async () => {
    for (const who of [BRUNO, HELENA]) {
      expect(await pageOf(await signedIn(who), "/access", 403)).toContain("You are not allowed to do this");
    }
  });
});

const csrfOf = async (browser: Awaited<ReturnType<typeof signedIn>>) => fieldOf(await pageOf(browser, ""), "csrf");
const keyIdIn = (html: string) => /<dd>(key_[0-9a-f]+)<\/dd>/.exec(html)?.[1] ?? "";
const secretIn = (html: string) => /<code>(hck_[^<]+)<\/code>/.exec(html)?.[1] ?? "";

describe("content API keys of the organization", () => {
  it("shows the organization's keys with their limit and use this hour, never the operator's or another organization's", async () => {
    const ines = await signedIn(INES);
    const csrf = await csrfOf(ines);
    const issued = await postForm(ines, "/access/keys", { csrf, partner: "Counting Co", hourlyLimit: "50", expiresOn: "" });
    expect(issued.status).toBe(201);
    const shown = await issued.text();
    const [id, secret] = [keyIdIn(shown), secretIn(shown)];
    expect(shown).toContain("It is shown only now");
    for (let n = 0; n < 3; n++) expect((await get("/api/v3/content/HO-AUR/properties", secret)).status).toBe(200);
    const html = await pageOf(ines, "/access");
    expect(html).toContain("Lisboa Travel Guides");
    expect(html).toContain(`<a href="/console/access/keys/${id}">Counting Co</a>`);
    // A key of 50 an hour is counted one request at a time: exactly the three made.
    expect(html).toMatch(new RegExp(`${id}\\)</span></td><td>3</td><td>50</td><td>Never</td><td>Working</td>`));
    expect(html).not.toContain("Demo Partner");
    expect(html).not.toContain(secret);
    const bea = await pageOf(await signedIn(BOREAL), "/access");
    expect(bea).toContain("No key was issued for your organization.");
    expect(bea).not.toContain("Counting Co");
  });

  it("another organization's key and the operator's are not found, through the pages or by replaying their forms", async () => {
    const bea = await signedIn(BOREAL);
    const csrf = await csrfOf(bea);
    for (const id of ["key-aurora-partner", "key-demo"]) {
      expect(await pageOf(bea, `/access/keys/${id}`, 404)).toContain("There is no API key with this ID for your organization.");
      expect((await postForm(bea, `/access/keys/${id}/revoke`, { csrf })).status).toBe(404);
      expect((await postForm(bea, `/access/keys/${id}`, { csrf, hourlyLimit: "1", expiresOn: "" })).status).toBe(404);
    }
    const ines = await signedIn(INES);
    expect((await postForm(ines, "/access/keys/key-demo/revoke", { csrf: await csrfOf(ines) })).status).toBe(404);
    expect(await adminJson("GET", "/api-keys/key-aurora-partner")).toMatchObject({
      hourlyLimit: 500,
      revokedAt: null,
      organizationId: "org-aurora",
    });
    expect(await adminJson("GET", "/api-keys/key-demo")).toMatchObject({ hourlyLimit: 1000, revokedAt: null, organizationId: null });
    expect((await get("/api/v3/content/HO-AUR/properties", "aurora-partner-key")).status).toBe(200);
  });

  it("says every problem of the issue form at once in plain words, and issues nothing", async () => {
    const ines = await signedIn(INES);
    const before = (await adminJson("GET", "/api-keys")).apiKeys.length;
    const res = await postForm(ines, "/access/keys", {
      csrf: await csrfOf(ines),
      partner: " ",
      hourlyLimit: "lots",
      expiresOn: "2020-01-01",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The partner&#39;s name is needed.");
    expect(html).toContain("The hourly limit must be a whole number from 1 to 1,000,000,000.");
    expect(html).toContain("The day it stops working must be in the future.");
    const badDay = await postForm(ines, "/access/keys", { csrf: await csrfOf(ines), partner: "P", hourlyLimit: "5", expiresOn: "someday" });
    expect(await badDay.text()).toContain("The day it stops working must be a day, like 2027-01-31.");
    expect((await adminJson("GET", "/api-keys")).apiKeys.length).toBe(before);
  });

  it("takes an hourly limit at its bounds and refuses one past them", async () => {
    // A key of 1,000,000,000 an hour needs the operator to allow the organization that much first.
    await adminJson("PATCH", "/organizations/org-aurora", { apiKeyQuota: 10_000_000_000 });
    const ines = await signedIn(INES);
    const issue = async (hourlyLimit: string) =>
      (await postForm(ines, "/access/keys", { csrf: await csrfOf(ines), partner: "Bounds", hourlyLimit, expiresOn: "" })).status;
    expect(await issue("1")).toBe(201);
    expect(await issue("1,000,000,000")).toBe(201);
    expect(await issue("0")).toBe(400);
    expect(await issue("1000000001")).toBe(400);
    expect(await issue("2.5")).toBe(400);
  });

  it("changes a key's terms and revokes it, audited with the person, before and after; a revoked key stays revoked", async () => {
    const ines = await signedIn(INES);
    const csrf = await csrfOf(ines);
    const shown = await (await postForm(ines, "/access/keys", { csrf, partner: "Terms Co", hourlyLimit: "10", expiresOn: "" })).text();
    const [id, secret] = [keyIdIn(shown), secretIn(shown)];
    const saved = await postForm(ines, `/access/keys/${id}`, { csrf, hourlyLimit: "20", expiresOn: "2099-12-31" });
    expect(saved.status).toBe(303);
    expect(await pageOf(ines, `/access/keys/${id}?done=terms`)).toContain("The key&#39;s terms were changed.");
    expect(await adminJson("GET", `/api-keys/${id}`)).toMatchObject({ hourlyLimit: 20, expiresAt: "2099-12-31T00:00:00.000Z" });
    expect((await postForm(ines, `/access/keys/${id}`, { csrf, hourlyLimit: "", expiresOn: "" })).status).toBe(400);
    expect(await adminJson("GET", `/api-keys/${id}`)).toMatchObject({ hourlyLimit: 20 });
    expect((await postForm(ines, `/access/keys/${id}/revoke`, { csrf })).status).toBe(303);
    expect((await get("/api/v3/content/HO-AUR/properties", secret)).status).toBe(401);
    const again = await postForm(ines, `/access/keys/${id}/revoke`, { csrf });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This key was revoked on");
    expect((await postForm(ines, `/access/keys/${id}`, { csrf, hourlyLimit: "30", expiresOn: "" })).status).toBe(409);
    const { entries } = await adminJson("GET", `/audit?target=${id}`);
    expect(entries.map((entry: { action: string }) => entry.action)).toEqual(["api_key.revoke", "api_key.update", "api_key.create"]);
    expect(entries[1]).toMatchObject({
      actor: "person:ines@aurora.example",
      detail: {
        organizationId: "org-aurora",
        hourlyLimit: { from: 10, to: 20 },
        expiresAt: { from: null, to: "2099-12-31T00:00:00.000Z" },
      },
    });
    const words = await pageOf(ines, `/audit?entity=${id}`);
    expect(words).toContain("Revoked an API key");
    expect(words).toContain("hourlyLimit: 10 → 20");
  });

  it("shows what the operator did to the organization's keys in its changes", async () => {
    const key = await adminJson("POST", "/api-keys", { partner: "Operator Issued", organizationId: "org-boreal" }, 201);
    await adminJson("PATCH", `/api-keys/${key.id}`, { hourlyLimit: 7 });
    const bea = await pageOf(await signedIn(BOREAL), `/audit?entity=${key.id}`);
    expect(bea).toContain("Operator Issued");
    expect(bea).toContain("Changed an API key&#39;s terms");
    expect(bea).toContain("The operator");
    expect(await pageOf(await signedIn(INES), `/audit?entity=${key.id}`)).toContain("No change matches.");
    expect((await admin("POST", "/api-keys", { partner: "Nobody's", organizationId: "org-nowhere" })).status).toBe(400);
  });

  it("is for administrators only", async () => {
    for (const who of [BRUNO, HELENA]) {
      const browser = await signedIn(who);
      const csrf = await csrfOf(browser);
      expect((await postForm(browser, "/access/keys", { csrf, partner: "Sneaky", hourlyLimit: "5", expiresOn: "" })).status).toBe(403);
      expect(await pageOf(browser, "/access/keys/key-aurora-partner", 403)).toContain("You are not allowed to do this");
      expect((await postForm(browser, "/access/keys/key-aurora-partner/revoke", { csrf })).status).toBe(403);
    }
    expect(await adminJson("GET", "/api-keys/key-aurora-partner")).toMatchObject({ revokedAt: null });
  });
});

describe("assistants of the organization", () => {
  it("lists its clients with a secret, its connector users with the clients they allowed, and its MCP requests this hour", async () => {
    await connectorTokens({ user: ANA });
    const html = await pageOf(await signedIn(INES), "/access");
    expect(html).toContain("<td>aurora-assistant</td><td>This service</td>");
    expect(html).not.toContain("boreal-assistant");
    expect(html).toMatch(/<td>ana@aurora\.example<\/td><td>Yes<\/td><td>Demo connector \(\d{4}-\d{2}-\d{2}\)<\/td>/);
    expect(html).toMatch(/made \d+ of their 3,600 requests this hour/);
    const bea = await pageOf(await signedIn(BOREAL), "/access");
    expect(bea).toContain("<td>boreal-assistant</td>");
    expect(bea).not.toContain("ana@aurora.example");
    expect(bea).toContain("Nobody of your organization may connect an assistant with their own sign-in.");
  });

  it("counts the organization's MCP requests this hour", async () => {
    const before = Number(/made (\d+) of their/.exec(await pageOf(await signedIn(INES), "/access"))?.[1]);
    const token = await tokenFor("aurora");
    const res = await SELF.fetch(`${BASE}/v1/sse`, {
      method: "POST",
      headers: mcpHeaders(token),
      body: JSON.stringify(initializeRequest()),
    });
    expect(res.status).toBe(200);
    const after = Number(/made (\d+) of their/.exec(await pageOf(await signedIn(INES), "/access"))?.[1]);
    expect(after).toBeGreaterThan(before);
  });
});

describe("changes the operator made to the organization's content", () => {
  it("show in its changes, in words, and never in another organization's", async () => {
    const list = await admin("GET", "/content/entities/HO-AUR-0007/faqs");
    const etag = list.headers.get("ETag") ?? "";
    const added = await admin(
      "POST",
      "/content/entities/HO-AUR-0007/faqs",
      { category: "Pets", question: "May I bring my parrot?", answer: "Yes, birds in cages are welcome." },
      { "If-Match": etag },
    );
    expect(added.status).toBe(201);
    const ines = await pageOf(await signedIn(INES), "/audit?entity=HO-AUR-0007");
    expect(ines).toMatch(/<td[^>]*>The operator<\/td><td[^>]*>Added an FAQ<\/td><td[^>]*>HO-AUR-0007<\/td>/);
    expect(ines).toContain("&quot;May I bring my parrot?&quot;");
    expect(await pageOf(await signedIn(BOREAL), "/audit?entity=HO-AUR-0007")).toContain("No change matches.");
  });
});
