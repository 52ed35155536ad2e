import { env } from "cloudflare:test";
import { expect } from "vitest";
import { hashPassword } from "../../../src/crypto/password";
import { insertGrant, type ConsoleGrantRow } from "../../../src/storage/console-grants";
import { insertPerson } from "../../../src/storage/people";
import { Browser } from "./connector";

export const CONSOLE = "https://console.example.com/console";
export const INES = { email: "ines@aurora.example", password: "aurora-console-admin" };
export const BRUNO = { email: "bruno@aurora.example", password: "aurora-console-brand" };
export const HELENA = { email: "helena@aurora.example", password: "aurora-console-hotel" };

/** Text as it was before HTML escaped it. */
export const unescaped = (html: string): string =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** A hidden field's value in a page's first form that has it. */
export function fieldOf(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`no ${name} in page:\n${html.slice(0, 2000)}`);
  return unescaped(value);
}

/** Posts a web form from `browser`. */
export const postForm = (browser: Browser, path: string, fields: Record<string, string>): Promise<Response> =>
  browser.request(`${CONSOLE}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });

/** Opens the sign-in page and signs in; the answer to the form. */
export async function trySignIn(browser: Browser, person: { email: string; password: string }): Promise<Response> {
  const form = await browser.request(`${CONSOLE}/sign-in`);
  return postForm(browser, "/sign-in", { csrf: fieldOf(await form.text(), "csrf"), ...person });
}

/** A browser signed in as `person`. */
export async function signedIn(person: { email: string; password: string }, browser = new Browser()): Promise<Browser> {
  const res = await trySignIn(browser, person);
  expect(res.status, await res.clone().text()).toBe(303);
  return browser;
}

/** A signed-in page's HTML, which must answer `status`. */
export async function pageOf(browser: Browser, path: string, status = 200): Promise<string> {
  const res = await browser.request(`${CONSOLE}${path}`);
  const html = await res.text();
  expect(res.status, html.slice(0, 1000)).toBe(status);
  return html;
}

/** A person to add straight to D1, with their password and roles. */
interface AddedPerson {
  id: string;
  organizationId: string;
  email: string;
  password: string;
  name: string;
  grants: ConsoleGrantRow[];
}

/** Bea, administrator of the other organization (org-boreal): the far side of each cross-tenant check. */
export const BOREAL = { email: "bea@boreal.example", password: "boreal-console-admin" };
export const BEA: AddedPerson = {
  id: "person-bea",
  organizationId: "org-boreal",
  ...BOREAL,
  name: "Bea",
  grants: [{ role: "administrator", entity_id: null }],
};

/** Vera, of org-aurora, who may read the brand HO-AUR and change nothing. */
export const AURORA_VIEWER = { email: "vera@aurora.example", password: "aurora-console-viewer" };
export const VERA: AddedPerson = {
  id: "person-vera",
  organizationId: "org-aurora",
  ...AURORA_VIEWER,
  name: "Vera",
  grants: [{ role: "viewer", entity_id: "HO-AUR" }],
};

/** People added straight to D1 with their password and roles, for what the demo's three do not cover. */
export async function addPeople(people: AddedPerson[]): Promise<void> {
  const at = new Date().toISOString();
  const statements = await Promise.all(
    people.map(async (person) => [
      insertPerson(env.DB, {
        id: person.id,
        organization_id: person.organizationId,
        email: person.email,
        password_hash: await hashPassword(person.password, env.PASSWORD_PEPPER),
        display_name: person.name,
        created_at: at,
      }),
      ...person.grants.map((grant) => insertGrant(env.DB, person.id, grant, at)),
    ]),
  );
  await env.DB.batch(statements.flat());
}

/** Uploads `text` as file `name` from the import page; the answer. */
export async function upload(browser: Browser, name: string, text: string): Promise<Response> {
  const csrf = fieldOf(await pageOf(browser, "/import"), "csrf");
  const form = new FormData();
  form.set("csrf", csrf);
  form.set("file", new File([text], name, { type: "text/plain" }));
  return browser.request(`${CONSOLE}/import`, { method: "POST", body: form });
}
