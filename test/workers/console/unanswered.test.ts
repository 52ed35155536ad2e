import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { adminJson } from "../support/admin";
import { addPeople, BRUNO, CONSOLE, fieldOf, HELENA, INES, pageOf, postForm, signedIn } from "../support/console";
import { callTool, type Caller, openCallers } from "../support/mcp";

/** The questions guests could not get answered, in the console: who sees which, and answering one. */

const BOREAL = { email: "bo@boreal.example", password: "boreal-console-admin" };
const AURORA_VIEWER = { email: "vito@aurora.example", password: "aurora-console-viewer" };

const { aurora, boreal } = openCallers("aurora", "boreal");
const call = (who: Caller, name: string, args: Record<string, unknown>) => callTool(who.token, who.session, name, args);

/** Waits until the count of `question` (written after the tool answered) is stored. */
async function counted(question: string): Promise<void> {
  for (let tries = 0; tries < 50; tries++) {
    const row = await env.DB.prepare("SELECT 1 FROM unanswered_questions WHERE question = ?").bind(question).first();
    if (row) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${question} was never counted`);
}

const AT_0001 = "is there a karaoke machine";
const AT_0002 = "is there a falconry show";
const NO_ENTITY = "do you lend telescopes";
const AT_BOREAL = "is there a zeppelin mooring";

beforeAll(async () => {
  await addPeople([
    { id: "person-bo", organizationId: "org-boreal", ...BOREAL, name: "Bo", grants: [{ role: "administrator", entity_id: null }] },
    {
      id: "person-vito",
      organizationId: "org-aurora",
      ...AURORA_VIEWER,
      name: "Vito",
      grants: [{ role: "viewer", entity_id: "HO-AUR-0001" }],
    },
  ]);
  const asked = [
    await call(aurora, "service_query", { entity: "HO-AUR-0001", question: "Is there a karaoke machine?" }),
    await call(aurora, "service_query", { entity: "HO-AUR-0001", question: "is there a karaoke machine" }),
    await call(aurora, "service_query", { entity: "HO-AUR-0002", question: "Is there a falconry show?", language: "pt-BR" }),
    await call(aurora, "service_search_documents", { query: "Do you lend telescopes?" }),
  ];
  expect(asked.map((result: { confidence: string }) => result.confidence)).toEqual(["none", "none", "none", "none"]);
  expect(
    (await call(boreal, "service_search_documents", { query: "Is there a zeppelin mooring?", entityId: "HO-BOR-0001" })).confidence,
  ).toBe("none");
  for (const question of [AT_0001, AT_0002, NO_ENTITY, AT_BOREAL]) await counted(question);
});

/** The rows of the page's table, as text: times asked, question, asked of, language. */
const rowsOf = (html: string): string[] =>
  [...html.matchAll(/<tr><td>(\d+)<\/td><td>([^<]*)<\/td><td>(?:<a [^>]*>)?([^<]*)(?:<\/a>)?<\/td><td>([^<]*)<\/td>/g)].map(
    ([, count, question, entity, language]) => `${count} × ${question} · ${entity} · ${language}`,
  );

/** The name the page shows for `entityId`, from its link. */
const nameIn = (html: string, entityId: string): string =>
  new RegExp(`href="/console/entities/${entityId}">([^<]*)<`).exec(html)?.[1] ?? entityId;

describe("the questions guests could not get answered", () => {
  it("shows a hotel's editor the questions asked of their hotel, with how often and in which language", async () => {
    const helena = await signedIn(HELENA);
    expect(await pageOf(helena, "")).toContain('href="/console/unanswered"');
    const html = await pageOf(helena, "/unanswered");
    expect(rowsOf(html)).toEqual([`2 × ${AT_0001} · ${nameIn(html, "HO-AUR-0001")} · English (en)`]);
    expect(html).toContain("Answer with a new FAQ");
    expect(html).not.toContain(AT_0002);
    expect(html).not.toContain(NO_ENTITY);
  });

  it("shows a brand's editor its hotels' questions, filtered by hotel and language, but no question asked of no hotel", async () => {
    const bruno = await signedIn(BRUNO);
    const html = await pageOf(bruno, "/unanswered");
    expect(html).toContain(AT_0001);
    expect(html).toContain(AT_0002);
    expect(html).toContain("Brazilian Portuguese (pt-BR)");
    expect(html).not.toContain(NO_ENTITY);
    const portuguese = await pageOf(bruno, "/unanswered?entity=&language=pt");
    expect(portuguese).toContain(AT_0002);
    expect(portuguese).not.toContain(AT_0001);
    const oneHotel = await pageOf(bruno, "/unanswered?entity=HO-AUR-0001&language=");
    expect(oneHotel).toContain(AT_0001);
    expect(oneHotel).not.toContain(AT_0002);
    expect(await pageOf(bruno, "/unanswered?entity=HO-AUR")).toContain(AT_0002);
  });

  it("shows the administrator every question of the organization, those asked of no hotel too", async () => {
    const html = await pageOf(await signedIn(INES), "/unanswered");
    for (const question of [AT_0001, AT_0002, NO_ENTITY]) expect(html).toContain(question);
    expect(html).toContain("No one hotel or page");
    expect(html).not.toContain(AT_BOREAL);
  });

  it("shows a person of another organization none of these, and them none of theirs", async () => {
    const bo = await signedIn(BOREAL);
    const html = await pageOf(bo, "/unanswered");
    expect(html).toContain(AT_BOREAL);
    for (const question of [AT_0001, AT_0002, NO_ENTITY]) expect(html).not.toContain(question);
    const refused = await pageOf(bo, "/unanswered?entity=HO-AUR-0001", 400);
    expect(refused).toContain("There is no brand, hotel or page with this ID that you may see.");
    expect(refused).not.toContain(AT_0001);
    for (const person of [HELENA, BRUNO]) expect(await pageOf(await signedIn(person), "/unanswered")).not.toContain(AT_BOREAL);
  });

  it("refuses a filter for a hotel out of reach in the same words whether it exists or not, and bad filters in plain words", async () => {
    const helena = await signedIn(HELENA);
    for (const entity of ["HO-AUR-0002", "HO-BOR-0001", "HO-NOWHERE-1"]) {
      const html = await pageOf(helena, `/unanswered?entity=${entity}`, 400);
      expect(html, entity).toContain("There is no brand, hotel or page with this ID that you may see.");
      expect(html, entity).not.toContain(AT_0002);
    }
    const badId = await pageOf(helena, `/unanswered?entity=${encodeURIComponent("no such <hotel>")}`, 400);
    expect(badId).toContain("That is not the ID of a brand, hotel or page. Choose one from the list.");
    const badLanguage = await pageOf(helena, "/unanswered?language=klingon", 400);
    expect(badLanguage).toContain("That is not a language. Choose one from the list.");
    expect(badLanguage).not.toMatch(/BCP 47|regex|9007199254740991/);
  });

  it("offers a viewer no way to answer, and refuses the answer form and its replay", async () => {
    const vito = await signedIn(AURORA_VIEWER);
    const html = await pageOf(vito, "/unanswered");
    expect(html).toContain(AT_0001);
    expect(html).not.toContain("Answer with a new FAQ");
    await pageOf(vito, `/entities/HO-AUR-0001/faqs/new?question=x`, 403);
    const before = await adminJson("GET", "/content/entities/HO-AUR-0001/faqs");
    const res = await postForm(vito, "/entities/HO-AUR-0001/faqs", {
      csrf: fieldOf(html, "csrf"),
      version: before.version,
      question: "Can I moor my zeppelin?",
      answer: "Yes.",
      category: "Amenities",
    });
    expect(res.status).toBe(403);
    expect(await adminJson("GET", "/content/entities/HO-AUR-0001/faqs")).toEqual(before);
  });
});

describe("answering a question", () => {
  it("opens the answer form with the question filled in; once saved, asking again finds the new FAQ, audited as the person", async () => {
    const helena = await signedIn(HELENA);
    const html = await pageOf(helena, "/unanswered");
    const link = /href="(\/console\/entities\/HO-AUR-0001\/unanswered\/answer\?[^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
    expect(link).toBeDefined();
    const form = await helena.request(`${CONSOLE}${link!.slice("/console".length)}`);
    const formHtml = await form.text();
    expect(form.status).toBe(200);
    expect(formHtml).toContain("Answer with a new FAQ of");
    expect(formHtml).toContain('value="Is there a karaoke machine?"');
    const saved = await postForm(helena, "/entities/HO-AUR-0001/unanswered/answer", {
      csrf: fieldOf(formHtml, "csrf"),
      q: AT_0001,
      question: "Is there a karaoke machine?",
      answer: "Yes: in the lounge bar, every Friday from 9 pm.",
      category: "Amenities",
    });
    expect(saved.status, await saved.clone().text()).toBe(303);
    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0001");
    expect(entries.some((e: { actor: string }) => e.actor === "person:helena@aurora.example")).toBe(true);
    const again = await call(aurora, "service_query", { entity: "HO-AUR-0001", question: "Is there a karaoke machine?" });
    expect(again.confidence).not.toBe("none");
    expect(again.faqs[0].question).toBe("Is there a karaoke machine?");
  });
});
