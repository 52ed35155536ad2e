import { beforeAll, describe, expect, it } from "vitest";
import { admin, adminJson } from "../support/admin";
import { addPeople, fieldOf, pageOf, postForm, signedIn, unescaped } from "../support/console";

/**
 * An organization's partner keys add up to at most the quota its operator sets (a finding of the fourth review:
 * administrators issued five keys at 10⁹ an hour and raised the operator's key to 10⁹). At the quota, one past it,
 * from the console and the operator API, and under concurrency.
 */

const CARA = { email: "cara@quota.example", password: "cara-console-admin" };
const ORG = "org-quota";

beforeAll(async () => {
  await adminJson("POST", "/organizations", { id: ORG, name: "Quota Hotels", scope: ["HO-AUR-0009"] }, 201);
  await addPeople([
    { id: "person-cara", organizationId: ORG, ...CARA, name: "Cara", grants: [{ role: "administrator", entity_id: null }] },
  ]);
});

const csrfOf = async (browser: Awaited<ReturnType<typeof signedIn>>) => fieldOf(await pageOf(browser, "/access"), "csrf");
const keysOf = async () =>
  (await adminJson("GET", "/api-keys")).apiKeys.filter((k: { organizationId: string }) => k.organizationId === ORG);
const setQuota = (apiKeyQuota: number) => adminJson("PATCH", `/organizations/${ORG}`, { apiKeyQuota });

describe("an organization's key quota", () => {
  it("has a low default the operator can read, and only the operator changes it, audited", async () => {
    expect(await adminJson("GET", `/organizations/${ORG}`)).toMatchObject({ apiKeyQuota: 10_000 });
    expect((await admin("PATCH", `/organizations/${ORG}`, { apiKeyQuota: -1 })).status).toBe(400);
    expect((await admin("PATCH", `/organizations/${ORG}`, { apiKeyQuota: 1.5 })).status).toBe(400);
    expect((await admin("PATCH", `/organizations/${ORG}`, {})).status).toBe(400);
    await setQuota(3_000);
    const { entries } = await adminJson("GET", `/audit?target=${ORG}`);
    expect(entries[0]).toMatchObject({ action: "organization.api_key_quota", detail: { apiKeyQuota: { from: 10_000, to: 3_000 } } });
  });

  it("lets the console issue keys up to the quota and not one request past it", async () => {
    await setQuota(3_000);
    const cara = await signedIn(CARA);
    const issue = async (hourlyLimit: string) =>
      postForm(cara, "/access/keys", { csrf: await csrfOf(cara), partner: "Quota Partner", hourlyLimit, expiresOn: "" });
    expect((await issue("1000")).status).toBe(201);
    expect((await issue("2000")).status).toBe(201);
    const past = await issue("1");
    expect(past.status).toBe(400);
    const pastHtml = unescaped(await past.text());
    expect(pastHtml).toContain(
      "The hourly limit would take the organization's keys past 3,000 requests an hour, the most its operator allows; its other keys add up to 3,000, so this key may have at most 0.",
    );
    expect(await keysOf()).toHaveLength(2);
  });

  it("refuses raising a key past the quota from the console, and counts the key's own limit only once", async () => {
    const cara = await signedIn(CARA);
    const [big] = (await keysOf()).filter((k: { hourlyLimit: number }) => k.hourlyLimit === 2000);
    const raise = async (hourlyLimit: string) =>
      postForm(cara, `/access/keys/${big.id}`, { csrf: await csrfOf(cara), hourlyLimit, expiresOn: "" });
    expect((await raise("2001")).status).toBe(409);
    expect(unescaped(await (await raise("2001")).text())).toContain("its other keys add up to 1,000, so this key may have at most 2,000");
    expect((await raise("1500")).status).toBe(303);
    expect((await raise("2000")).status).toBe(303);
    expect((await adminJson("GET", `/api-keys/${big.id}`)).hourlyLimit).toBe(2000);
  });

  it("bounds the operator API too for an organization's keys, and a revoked or expired key stops counting", async () => {
    const issued = await admin("POST", "/api-keys", { partner: "Operator for Quota", organizationId: ORG, hourlyLimit: 1 });
    expect(issued.status).toBe(409);
    expect((await issued.json<{ error: { message: string } }>()).error.message).toContain("Raise the organization's apiKeyQuota first");
    const [small] = (await keysOf()).filter((k: { hourlyLimit: number }) => k.hourlyLimit === 1000);
    expect((await admin("PATCH", `/api-keys/${small.id}`, { hourlyLimit: 1001 })).status).toBe(409);
    await adminJson("POST", `/api-keys/${small.id}/revoke`);
    expect((await admin("POST", "/api-keys", { partner: "Operator for Quota", organizationId: ORG, hourlyLimit: 1000 })).status).toBe(201);
    // The operator's own keys belong to no organization and have no quota.
    expect((await admin("POST", "/api-keys", { partner: "Operator's Own", hourlyLimit: 1_000_000_000 })).status).toBe(201);
    await setQuota(3_001);
    expect((await admin("POST", "/api-keys", { partner: "Operator for Quota", organizationId: ORG, hourlyLimit: 1 })).status).toBe(201);
  });

  it("admits exactly what fits when keys are issued at once", async () => {
    const used = (await keysOf())
      .filter((k: { revokedAt: string | null }) => k.revokedAt === null)
      .reduce((sum: number, k: { hourlyLimit: number }) => sum + k.hourlyLimit, 0);
    await setQuota(used + 500);
    const statuses = await Promise.all(
      Array.from(
        { length: 10 },
        async () => (await admin("POST", "/api-keys", { partner: "Burst", organizationId: ORG, hourlyLimit: 100 })).status,
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
  });

  it("always lets a key be lowered, also for an organization its operator has put over its quota, and refuses raising it", async () => {
    const active = (await keysOf()).filter((k: { revokedAt: string | null }) => k.revokedAt === null);
    const used = active.reduce((sum: number, k: { hourlyLimit: number }) => sum + k.hourlyLimit, 0);
    await setQuota(used - 150);
    const [key] = active.filter((k: { hourlyLimit: number }) => k.hourlyLimit >= 100);
    expect((await admin("PATCH", `/api-keys/${key.id}`, { hourlyLimit: key.hourlyLimit - 50 })).status).toBe(200);
    const cara = await signedIn(CARA);
    const lower = await postForm(cara, `/access/keys/${key.id}`, {
      csrf: await csrfOf(cara),
      hourlyLimit: String(key.hourlyLimit - 60),
      expiresOn: "",
    });
    expect(lower.status).toBe(303);
    expect((await admin("PATCH", `/api-keys/${key.id}`, { hourlyLimit: key.hourlyLimit - 55 })).status).toBe(409);
  });
});
