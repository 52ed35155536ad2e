import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_REPLACEMENTS } from "../../../src/catalogue/find-replace";
import { admin, adminJson } from "../support/admin";
import type { Browser } from "../support/connector";
import { addPeople, AURORA_VIEWER, BEA, BOREAL, BRUNO, fieldOf, HELENA, INES, pageOf, signedIn, unescaped, VERA } from "../support/console";

beforeAll(() =>
  addPeople([
    BEA,
    // A grant outside the organization's scope reaches nothing.
    { ...VERA, grants: [...VERA.grants, { role: "editor", entity_id: "HO-BOR-0001" }] },
  ]),
);

/** The links of the FAQs a home search found. */
const foundLinks = (html: string): string[] => {
  const section = html.slice(html.indexOf('id="found-faqs"'));
  return [...section.matchAll(/href="(\/console\/entities\/[^"]+)"/g)].map((match) => match[1]!);
};

const contentVersion = async () => (await env.DB.prepare("SELECT version FROM content_version").first<{ version: number }>())!.version;

describe("find anything from the home page", () => {
  it("finds FAQs by a word of their question or answer, grouped apart from hotels and pages, linked to their place", async () => {
    const html = await pageOf(await signedIn(INES), "?q=parking");
    expect(html).toContain("<h2>Hotels and pages</h2>");
    expect(html).toContain('<h2 id="found-faqs">FAQs</h2>');
    const links = foundLinks(html);
    expect(links.length).toBe(50);
    expect(links.every((link) => /^\/console\/entities\/(HO-AUR|DMO-LIS)[^#]*#faq-\d+$/.test(link))).toBe(true);
    expect(html).toContain("<mark>parking</mark>");
    expect(html).toMatch(/The first 50 of \d+; add words to narrow them down\./);
    // The link goes to the FAQ that has the word.
    const [entityPath, position] = links[0]!.split("#faq-");
    const list = await adminJson("GET", `/content/entities/${entityPath!.split("/").pop()}/faqs`);
    const faq = list.faqs[Number(position) - 1];
    expect(`${faq.question} ${faq.answer} ${JSON.stringify(faq.translations)}`.toLowerCase()).toMatch(/park/);
  });

  it("finds translations in their own words", async () => {
    const html = await pageOf(await signedIn(BRUNO), "?q=estacionamento");
    const links = foundLinks(html);
    expect(links.length).toBeGreaterThan(0);
    expect(html).toContain("<mark>estacionamento</mark>");
    expect(html).toContain("· Portuguese ·");
    // Only the translated hotels (41 to 60) have Portuguese.
    expect(links.every((link) => /HO-AUR-00(4[1-9]|5\d|60)#/.test(link))).toBe(true);
  });

  it("finds for a hotel's editor only that hotel's FAQs", async () => {
    const links = foundLinks(await pageOf(await signedIn(HELENA), "?q=parking"));
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((link) => link.startsWith("/console/entities/HO-AUR-0001#"))).toBe(true);
  });

  it("never finds another organization's FAQs, from either side, whatever a grant names", async () => {
    const ines = foundLinks(await pageOf(await signedIn(INES), "?q=breakfast"));
    const bea = foundLinks(await pageOf(await signedIn(BOREAL), "?q=breakfast"));
    const vera = foundLinks(await pageOf(await signedIn(AURORA_VIEWER), "?q=breakfast"));
    expect(ines.length).toBeGreaterThan(0);
    expect(bea.length).toBeGreaterThan(0);
    expect(ines.some((link) => link.includes("HO-BOR"))).toBe(false);
    expect(bea.every((link) => link.startsWith("/console/entities/HO-BOR"))).toBe(true);
    expect(vera.some((link) => link.includes("HO-BOR"))).toBe(false);
  });

  it("answers words that are no search, and search syntax, with nothing found rather than an error", async () => {
    const ines = await signedIn(INES);
    expect(await pageOf(ines, "?q=the")).toContain("No FAQ you may see has “the”");
    const syntax = await pageOf(ines, `?q=${encodeURIComponent('"park* NEAR( OR {terms_q} : kHO')}`);
    expect(syntax).toContain('id="found-faqs"');
  });
});

/** The preview page of a replacement, as `person` sees it. */
async function preview(browser: Browser, fields: Record<string, string | string[]>, status = 200): Promise<string> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) query.append(name, one);
  return pageOf(browser, `/replace?${query.toString()}`, status);
}

/** The form fields of a preview page's "Replace N" form, with its checked changes. */
function replaceForm(html: string): Record<string, string | string[]> & { change: string[] } {
  const form = html.slice(html.indexOf('<form method="post" action="/console/replace"'));
  const fields: Record<string, string | string[]> & { change: string[] } = { change: [] };
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[match[1]!] = unescaped(match[2]!);
  fields.change = [...form.matchAll(/name="change" value="([^"]+)" checked/g)].map((match) => unescaped(match[1]!));
  return fields;
}

const post = (browser: Browser, fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return browser.request("https://console.example.com/console/replace", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
};

describe("find and replace", () => {
  it("previews every change, per FAQ, language and field, the changed part marked, each checked", async () => {
    const bruno = await signedIn(BRUNO);
    expect(await pageOf(bruno, "/replace")).toContain("Aurora Hotels &amp; Resorts and its hotels (HO-AUR)");
    const html = await preview(bruno, { scope: "HO-AUR-0041", find: "wi-fi", replacement: "WiFi" });
    expect(html).toContain("<del>Wi-Fi</del><ins>WiFi</ins>");
    expect(html).toMatch(/FAQ \d+ · English · question/);
    expect(html).toContain("· Portuguese · answer");
    const form = replaceForm(html);
    expect(form.change.length).toBeGreaterThan(2);
    expect(html).toContain(`Replace ${form.change.length}</button>`);
    // Capital letters exactly: "wi-fi" is written "Wi-Fi" everywhere.
    expect(await preview(bruno, { scope: "HO-AUR-0041", find: "wi-fi", replacement: "WiFi", case: "on" })).toContain("Nothing to replace");
    // One language only.
    const portuguese = replaceForm(await preview(bruno, { scope: "HO-AUR-0041", find: "wi-fi", replacement: "WiFi", language: "pt" }));
    expect(portuguese.change.every((key) => key.includes("/pt/"))).toBe(true);
  });

  it("replaces the checked changes only, in one step, audited per entity, translations kept with their question", async () => {
    const bruno = await signedIn(BRUNO);
    const before = await adminJson("GET", "/content/entities/HO-AUR-0042/faqs");
    const form = replaceForm(await preview(bruno, { scope: "HO-AUR", find: "Wi-Fi", replacement: "WiFi", case: "on" }));
    const keys = form.change;
    const kept = keys.find((key) => key.startsWith("HO-AUR-0042/") && key.endsWith("/en/answer"))!;
    const chosen = keys.filter((key) => key !== kept);
    const version = await contentVersion();
    const res = await post(bruno, { ...form, change: chosen });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/console/replace?replaced=${chosen.length}`);
    expect(await pageOf(bruno, `/replace?replaced=${chosen.length}`)).toContain(`${chosen.length} changes were saved.`);
    expect(await contentVersion()).toBeGreaterThan(version);

    const after = await adminJson("GET", "/content/entities/HO-AUR-0042/faqs");
    const position = Number(kept.split("/")[1]);
    const faq = after.faqs[position - 1];
    expect(faq.question).toContain("WiFi");
    expect(faq.answer).toContain("Wi-Fi");
    expect(faq.translations.length).toBe(before.faqs[position - 1].translations.length);
    expect(faq.translations.find((t: any) => t.language === "pt").answer).toContain("WiFi");

    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0042");
    expect(entries[0]).toMatchObject({ actor: "person:bruno@aurora.example", action: "content.replace" });
    expect(entries[0].detail).toMatchObject({ find: "Wi-Fi", replacement: "WiFi" });
    // The changes page says it in words.
    expect(unescaped(await pageOf(await signedIn(INES), "/audit?entity=HO-AUR-0042"))).toContain("Replaced a text in FAQs");
  });

  it("refuses, naming it, an entity changed since the preview, and changes nothing", async () => {
    const bruno = await signedIn(BRUNO);
    const form = replaceForm(await preview(bruno, { scope: "HO-AUR", find: "free throughout", replacement: "included throughout" }));
    const [changed, untouched] = [...new Set(form.change.map((key) => key.split("/")[0]!))];
    const list = await adminJson("GET", `/content/entities/${changed}/faqs`);
    const edited = await admin(
      "PUT",
      `/content/entities/${changed}/faqs/1`,
      { ...list.faqs[0], answer: `${list.faqs[0].answer} Changed meanwhile.`, translations: undefined, position: undefined },
      { "If-Match": `"${list.version}"` },
    );
    expect(edited.status).toBe(200);
    const version = await contentVersion();
    const res = await post(bruno, form);
    const html = await res.text();
    expect(res.status).toBe(409);
    expect(unescaped(html)).toMatch(/Someone changed Aurora [^,]+ after you opened the preview/);
    expect(await contentVersion()).toBe(version);
    expect((await adminJson("GET", `/content/entities/${untouched}/faqs`)).faqs.some((f: any) => f.answer.includes("included"))).toBe(
      false,
    );
    // The page shows the preview as the FAQs are now, to check and replace again.
    const again = await post(bruno, replaceForm(html));
    expect(again.status, /id="problems">(.*?)<\/div>/.exec(await again.clone().text())?.[1]).toBe(303);
  });

  it("refuses a viewer, on the page and on a replayed post", async () => {
    const vera = await signedIn(AURORA_VIEWER);
    expect(await pageOf(vera, "/replace", 403)).toContain("You can read this content but not change it");
    const bruno = await signedIn(BRUNO);
    const form = replaceForm(await preview(bruno, { scope: "HO-AUR-0010", find: "buffet", replacement: "Buffet" }));
    const version = await contentVersion();
    const res = await post(vera, { ...form, csrf: fieldOf(await pageOf(vera, ""), "csrf") });
    expect(res.status).toBe(403);
    expect(await contentVersion()).toBe(version);
  });

  it("answers another organization's brand as it answers a missing one, both ways, and a hotel's editor the brand too", async () => {
    const ines = await signedIn(INES);
    const missing = await preview(ines, { scope: "HO-NOPE", find: "x", replacement: "y" }, 404);
    const boreal = await preview(ines, { scope: "HO-BOR", find: "x", replacement: "y" }, 404);
    expect(boreal).toBe(missing);
    const bea = await signedIn(BOREAL);
    await preview(bea, { scope: "HO-AUR", find: "x", replacement: "y" }, 404);
    await preview(await signedIn(HELENA), { scope: "HO-AUR", find: "x", replacement: "y" }, 404);
    // A replayed post of Aurora's preview by Boreal's administrator changes nothing.
    const form = replaceForm(await preview(await signedIn(BRUNO), { scope: "HO-AUR-0011", find: "buffet", replacement: "Buffet" }));
    const version = await contentVersion();
    const res = await post(bea, { ...form, csrf: fieldOf(await pageOf(bea, ""), "csrf") });
    expect(res.status).toBe(404);
    expect(await contentVersion()).toBe(version);
  });

  it(`makes at most ${MAX_REPLACEMENTS} changes at once: ${MAX_REPLACEMENTS} listed and made, one more refused`, async () => {
    const ines = await signedIn(INES);
    const html = await preview(ines, { scope: "HO-AUR", find: "the", replacement: "thé" });
    expect(html).toContain(`There are more than ${MAX_REPLACEMENTS} changes`);
    const form = replaceForm(html);
    expect(form.change.length).toBe(MAX_REPLACEMENTS);
    const version = await contentVersion();
    const tooMany = await post(ines, { ...form, change: [...form.change, "HO-AUR-0001/99/en/answer"] });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain(`${MAX_REPLACEMENTS + 1} changes were ticked; at most ${MAX_REPLACEMENTS} are made at once.`);
    expect(await contentVersion()).toBe(version);
    const made = await post(ines, form);
    expect(made.headers.get("Location")).toBe(`/console/replace?replaced=${MAX_REPLACEMENTS}`);
  });

  it("refuses a replacement that breaks the content's rules, and nothing ticked, with a page that says so", async () => {
    const bruno = await signedIn(BRUNO);
    const form = replaceForm(await preview(bruno, { scope: "HO-AUR-0012", find: "Is there parking", replacement: "x".repeat(1000) }));
    const version = await contentVersion();
    const res = await post(bruno, form);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/question is longer than 1,000 characters/);
    const none = await post(bruno, { ...form, change: [] });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("No change was ticked");
    expect(await contentVersion()).toBe(version);
    expect((await preview(bruno, { scope: "HO-AUR-0012", find: "", replacement: "y" }, 400)).includes("The text to find is empty.")).toBe(
      true,
    );
  });
});
