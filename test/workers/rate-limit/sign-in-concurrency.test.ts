import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { FREE_FAILURES } from "../../../src/rate-limit/failure-backoff";
import { adminJson } from "../support/admin";
import { addPeople, CONSOLE, fieldOf, pageOf, postForm, signedIn } from "../support/console";
import { Browser, demoRequest, formHandle } from "../support/connector";

/**
 * Attempts sent at once (a finding of the fourth review: 5 to 50 of 50 were checked before the first 429): every
 * sign-in path reserves its attempt before the password is checked, so no more than the free failures are checked,
 * however many arrive together.
 */

const BURST = 50;

/** A browser whose requests all come from `address`. */
const at = (address: string) =>
  new Browser((request) => {
    const headers = new Headers(request.headers);
    headers.set("CF-Connecting-IP", address);
    return SELF.fetch(new Request(request, { headers }));
  });

const tally = (statuses: number[]) => Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((t) => t === s).length]));

const CONSOLE_PERSON = { email: "una@aurora.example", password: "una-console-password" };
const OWN_PASSWORD_PERSON = { email: "vic@aurora.example", password: "vic-console-password" };
const CONNECTOR_USER = { email: "wes@aurora.example", password: "wes-connector-password" };

beforeAll(async () => {
  await addPeople(
    [CONSOLE_PERSON, OWN_PASSWORD_PERSON].map((person, n) => ({
      id: `person-burst-${n}`,
      organizationId: "org-aurora",
      ...person,
      name: person.email,
      grants: [{ role: "viewer" as const, entity_id: "HO-AUR-0001" }],
    })),
  );
  await adminJson("POST", "/users", { ...CONNECTOR_USER, organizationId: "org-aurora" }, 201);
});

describe(`${BURST} wrong passwords at once for one account from one address`, () => {
  it(`the console's sign-in checks ${FREE_FAILURES}, then refuses even the right one`, async () => {
    const browser = at("198.51.100.90");
    const csrf = fieldOf(await (await browser.request(`${CONSOLE}/sign-in`)).text(), "csrf");
    const statuses = await Promise.all(
      Array.from(
        { length: BURST },
        async (_, n) => (await postForm(browser, "/sign-in", { csrf, email: CONSOLE_PERSON.email, password: `guess-${n}` })).status,
      ),
    );
    expect(tally(statuses)).toEqual({ 401: FREE_FAILURES, 429: BURST - FREE_FAILURES });
    expect((await postForm(browser, "/sign-in", { csrf, ...CONSOLE_PERSON })).status).toBe(429);
  });

  it(`"Your password" checks ${FREE_FAILURES} current passwords, then refuses`, async () => {
    const browser = await signedIn(OWN_PASSWORD_PERSON, at("198.51.100.91"));
    const csrf = fieldOf(await pageOf(browser, "/password"), "csrf");
    const next = "vic-second-password";
    const statuses = await Promise.all(
      Array.from(
        { length: BURST },
        async (_, n) => (await postForm(browser, "/password", { csrf, current: `guess-${n}`, next, repeated: next })).status,
      ),
    );
    expect(tally(statuses)).toEqual({ 400: FREE_FAILURES, 429: BURST - FREE_FAILURES });
  });

  it(`the connector's sign-in checks ${FREE_FAILURES}, then refuses`, async () => {
    const browser = at("198.51.100.92");
    const { url } = await demoRequest();
    const handle = formHandle(await (await browser.request(url)).text());
    const statuses = await Promise.all(
      Array.from(
        { length: BURST },
        async (_, n) => (await browser.submit({ handle, decision: "signin", email: CONNECTOR_USER.email, password: `guess-${n}` })).status,
      ),
    );
    // The form's handle is single-use in KV, which is eventually consistent: some of a burst start again (400).
    // At most the free failures are checked: some of the burst may not get past the handle at all.
    expect(tally(statuses)[401]).toBeLessThanOrEqual(FREE_FAILURES);
    expect(tally(statuses)[401]).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 401 && s !== 429 && s !== 400)).toEqual([]);
  });
});
