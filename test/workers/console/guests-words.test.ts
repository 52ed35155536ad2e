import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { serializeCsv } from "../../../src/catalogue/csv";
import { admin, adminJson, exportAll, importRecords } from "../support/admin";
import { addPeople, fieldOf, HELENA, pageOf, postForm, signedIn, unescaped } from "../support/console";
import { callTool, type Caller, openCallers } from "../support/mcp";

/**
 * Guests' words teach the search: an unanswered question attached to an FAQ as a way guests ask it (from the console
 * and the operator API), answered with a new FAQ in its language, or dismissed; who may do which, from both sides of
 * two organizations; and the phrasings travelling with exports and imports.
 */

const BOREAL = { email: "bo@boreal.example", password: "boreal-console-words" };
const AURORA_VIEWER = { email: "vera@aurora.example", password: "aurora-console-words" };

const { aurora, boreal } = openCallers("aurora", "boreal");
const call = (who: Caller, name: string, args: Record<string, unknown>) => callTool(who.token, who.session, name, args);

async function counted(question: string): Promise<void> {
  for (let tries = 0; tries < 50; tries++) {
    if (await env.DB.prepare("SELECT 1 FROM unanswered_questions WHERE question = ?").bind(question).first()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${question} was never counted`);
}

const KARAOKE = "is there a karaoke machine";
const KARAOKE_PT = "há uma máquina de karaoke";
const TELESCOPE = "do you lend telescopes to guests at night";
const ZEPPELIN = "is there a zeppelin mooring mast";
const DISMISSED = "what is the name of the chef's cat";

beforeAll(async () => {
  await addPeople([
    { id: "person-bo", organizationId: "org-boreal", ...BOREAL, name: "Bo", grants: [{ role: "administrator", entity_id: null }] },
    {
      id: "person-vera",
      organizationId: "org-aurora",
      ...AURORA_VIEWER,
      name: "Vera",
      grants: [{ role: "viewer", entity_id: "HO-AUR-0001" }],
    },
  ]);
  for (const [question, language] of [
    ["Is there a karaoke machine?", "en"],
    ["Há uma máquina de karaoke?", "pt"],
    ["Do you lend telescopes to guests at night?", "en"],
    ["What is the name of the chef's cat?", "en"],
  ])
    await call(aurora, "service_query", { entity: "HO-AUR-0001", question, language });
  await call(boreal, "service_query", { entity: "HO-BOR-0001", question: "Is there a zeppelin mooring mast?" });
  for (const question of [KARAOKE, KARAOKE_PT, TELESCOPE, DISMISSED, ZEPPELIN]) await counted(question);
});

const faqsOf = (entityId: string) => adminJson("GET", `/content/entities/${entityId}/faqs`);
const attachPath = (entityId: string, questions: string[]) =>
  `/entities/${entityId}/unanswered/attach?${new URLSearchParams(questions.map((q) => ["q", q])).toString()}`;

describe("the unanswered list", () => {
  it("groups near-duplicates across languages, with each question's count and language, and offers the three actions", async () => {
    const helena = await signedIn(HELENA);
    const html = unescaped(await pageOf(helena, "/unanswered"));
    const group = [...html.matchAll(/<ul class="asked">(.*?)<\/ul>/g)].map(([, items]) => items!).find((items) => items.includes(KARAOKE));
    expect(group).toContain(`${KARAOKE} <span class="muted">(1 × en)</span>`);
    expect(group).toContain(`${KARAOKE_PT} <span class="muted">(1 × pt)</span>`);
    expect(html).toContain("Attach to an FAQ");
    expect(html).toContain("Answer with a new FAQ");
    expect(html).toContain(">Dismiss</button>");
    expect(html).not.toContain(ZEPPELIN);
  });

  it("offers a viewer no action, and refuses the attach form and its replayed post without changing anything", async () => {
    const vera = await signedIn(AURORA_VIEWER);
    const html = await pageOf(vera, "/unanswered");
    expect(html).toContain(TELESCOPE);
    expect(html).not.toContain("Attach to an FAQ");
    await pageOf(vera, attachPath("HO-AUR-0001", [TELESCOPE]), 403);
    const before = await faqsOf("HO-AUR-0001");
    const csrf = fieldOf(html, "csrf");
    for (const path of ["attach", "answer", "dismiss"]) {
      const res = await postForm(vera, `/entities/HO-AUR-0001/unanswered/${path}`, {
        csrf,
        version: before.version,
        position: "1",
        q: TELESCOPE,
        question: "Do you lend telescopes?",
        answer: "Yes.",
        category: "Amenities",
      });
      expect(res.status, path).toBe(403);
    }
    expect(await faqsOf("HO-AUR-0001")).toEqual(before);
    expect(await pageOf(vera, "/unanswered?state=handled")).not.toContain(TELESCOPE);
  });

  it("answers another organization's person, and a missing entity, with the same 404, from both sides, changing nothing", async () => {
    const bo = await signedIn(BOREAL);
    const helena = await signedIn(HELENA);
    const boPage = await pageOf(bo, "/unanswered");
    expect(boPage).toContain(ZEPPELIN);
    expect(boPage).not.toContain(TELESCOPE);
    const aurora0001 = await faqsOf("HO-AUR-0001");
    const boreal0001 = await faqsOf("HO-BOR-0001");
    const tries: [typeof bo, string, string, string][] = [
      [bo, "HO-AUR-0001", TELESCOPE, fieldOf(boPage, "csrf")],
      [bo, "HO-NOWHERE-1", TELESCOPE, fieldOf(boPage, "csrf")],
      [helena, "HO-BOR-0001", ZEPPELIN, fieldOf(await pageOf(helena, "/unanswered"), "csrf")],
    ];
    const pages = new Set<string>();
    for (const [who, entityId, question, csrf] of tries) {
      pages.add(await pageOf(who, attachPath(entityId, [question]), 404));
      for (const path of ["attach", "answer", "dismiss"]) {
        const version = entityId === "HO-BOR-0001" ? boreal0001.version : aurora0001.version;
        const res = await postForm(who, `/entities/${entityId}/unanswered/${path}`, {
          csrf,
          version,
          position: "1",
          q: question,
          question: "Q?",
          answer: "A.",
          category: "C",
        });
        expect(res.status, `${entityId} ${path}`).toBe(404);
        expect(await res.text()).toContain("There is no brand, hotel or page with this ID that you may see.");
      }
    }
    expect(await faqsOf("HO-AUR-0001")).toEqual(aurora0001);
    expect(await faqsOf("HO-BOR-0001")).toEqual(boreal0001);
    expect(await pageOf(helena, "/unanswered")).toContain(TELESCOPE);
    expect(await pageOf(bo, "/unanswered")).toContain(ZEPPELIN);
  });

  it("refuses a post without the session's CSRF token, changing nothing", async () => {
    const helena = await signedIn(HELENA);
    const res = await postForm(helena, "/entities/HO-AUR-0001/unanswered/dismiss", { csrf: "forged", q: DISMISSED });
    expect(res.status).toBe(403);
    expect(unescaped(await pageOf(helena, "/unanswered?state=open"))).toContain(DISMISSED);
  });
});

describe("guests also ask", () => {
  it("attaches a group to an FAQ: asking it again gets that FAQ with confidence high, in either language, and a near wording finds it", async () => {
    const helena = await signedIn(HELENA);
    const form = await pageOf(helena, attachPath("HO-AUR-0001", [KARAOKE, KARAOKE_PT]));
    const list = await faqsOf("HO-AUR-0001");
    // Every FAQ is offered, each once, the search's candidates first.
    const offered = [...form.matchAll(/name="position" value="(\d+)"/g)].map(([, p]) => Number(p));
    expect([...offered].sort((a, b) => a - b)).toEqual(list.faqs.map((faq: { position: number }) => faq.position));
    const pets = list.faqs[offered[0]! - 1];
    const choice = (position: number) => ({ [`faq_version_${position}`]: fieldOf(form, `faq_version_${position}`) });
    // Another FAQ edited since the page was read does not refuse the attach: it is made on the FAQ chosen.
    const other = list.faqs.find((faq: { position: number }) => faq.position !== pets.position);
    const edited = { category: other.category, question: other.question, answer: `${other.answer} (edited)` };
    expect((await admin("PUT", `/content/entities/HO-AUR-0001/faqs/${other.position}`, edited, { "If-Match": "*" })).status).toBe(200);
    const saved = await postForm(helena, "/entities/HO-AUR-0001/unanswered/attach", {
      csrf: fieldOf(form, "csrf"),
      ...choice(pets.position),
      position: String(pets.position),
      q: KARAOKE,
    });
    expect(saved.status, await saved.clone().text()).toBe(303);
    const again = await postForm(helena, "/entities/HO-AUR-0001/unanswered/attach", {
      csrf: fieldOf(form, "csrf"),
      ...choice(pets.position),
      position: String(pets.position),
      q: KARAOKE_PT,
    });
    // Replayed on the FAQ's old version: refused, nothing changed.
    expect(again.status).toBe(409);
    expect((await faqsOf("HO-AUR-0001")).faqs[pets.position - 1].phrasings).toEqual([KARAOKE]);

    for (const [question, language] of [
      ["Is there a karaoke machine?", undefined],
      ["IS THERE A KARAOKE, MACHINE", "en"],
    ] as const) {
      const answer = await call(aurora, "service_query", { entity: "HO-AUR-0001", question, ...(language ? { language } : {}) });
      expect(answer.confidence, question).toBe("high");
      expect(answer.faqs[0].question).toBe(pets.question);
    }
    const near = await call(aurora, "service_query", { entity: "HO-AUR-0001", question: "could guests use the karaoke machine" });
    expect(near.faqs[0].question).toBe(pets.question);

    const handled = unescaped(await pageOf(helena, "/unanswered?state=handled"));
    expect(handled).toContain(`Attached to “${pets.question}” as a way guests ask it by helena@aurora.example on`);
    const open = await pageOf(helena, "/unanswered?state=open");
    expect(open).not.toContain(KARAOKE);
    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0001");
    expect(
      entries.some((e: { actor: string; action: string }) => e.action === "faq.phrasings" && e.actor === "person:helena@aurora.example"),
    ).toBe(true);
  });

  it("answers a Portuguese question with a new FAQ in English and Portuguese, the guest's words filled in", async () => {
    const helena = await signedIn(HELENA);
    const form = unescaped(
      await pageOf(helena, `/entities/HO-AUR-0001/unanswered/answer?${new URLSearchParams({ q: KARAOKE_PT, language: "pt" }).toString()}`),
    );
    expect(form).toContain('name="language" value="pt"');
    expect(form).toContain(
      `id="translation_question" name="translation_question" type="text" required="" value="Há uma máquina de karaoke?"`,
    );
    expect(form).toMatch(/id="question" name="question" type="text" required="" value=""/);
    const empty = await postForm(helena, "/entities/HO-AUR-0001/unanswered/answer", {
      csrf: fieldOf(form, "csrf"),
      language: "pt",
      q: KARAOKE_PT,
      question: "",
      answer: "",
      category: "Pets",
      translation_question: "Há karaoke?",
      translation_answer: "Sim.",
    });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Nothing was saved");
    const saved = await postForm(helena, "/entities/HO-AUR-0001/unanswered/answer", {
      csrf: fieldOf(form, "csrf"),
      language: "pt",
      q: KARAOKE_PT,
      question: "Is there a karaoke room?",
      answer: "Yes, on the first floor, from 18:00 to 23:00.",
      category: "Entertainment",
      translation_question: "Há uma máquina de karaoke?",
      translation_answer: "Sim, no primeiro andar, das 18:00 às 23:00.",
    });
    expect(saved.status, await saved.clone().text()).toBe(303);
    const list = await faqsOf("HO-AUR-0001");
    const added = list.faqs.at(-1);
    expect(added.question).toBe("Is there a karaoke room?");
    expect(added.translations).toEqual([
      { language: "pt", question: "Há uma máquina de karaoke?", answer: "Sim, no primeiro andar, das 18:00 às 23:00." },
    ]);
    expect(unescaped(await pageOf(helena, "/unanswered?state=handled"))).toContain(
      "Answered by the new FAQ “Is there a karaoke room?” by helena@aurora.example",
    );
  });

  it("dismisses a question: listed as handled, by whom, and no longer open", async () => {
    const helena = await signedIn(HELENA);
    const html = await pageOf(helena, "/unanswered");
    const res = await postForm(helena, "/entities/HO-AUR-0001/unanswered/dismiss", { csrf: fieldOf(html, "csrf"), q: DISMISSED });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/console/unanswered?done=dismissed");
    expect(await pageOf(helena, "/unanswered")).not.toContain(DISMISSED);
    expect(unescaped(await pageOf(helena, "/unanswered?state=handled"))).toContain("Dismissed by helena@aurora.example on");
  });

  it("offers adding or attaching from ask as a guest when the content does not answer, in the language it read", async () => {
    const helena = await signedIn(HELENA);
    const html = unescaped(
      await pageOf(helena, `/entities/HO-AUR-0001/ask?${new URLSearchParams({ question: "Há um telescópio?" }).toString()}`),
    );
    expect(html).toContain("The question was read as Portuguese (detected from its words).");
    expect(html).toContain("Add an FAQ for this question");
    expect(html).toContain("/console/entities/HO-AUR-0001/unanswered/answer?q=H%C3%A1+um+telesc%C3%B3pio%3F&language=pt");
    expect(html).toContain("Attach to an FAQ as a way guests ask it");
    expect(html).not.toContain("service_query");
    const vera = unescaped(await pageOf(await signedIn(AURORA_VIEWER), `/entities/HO-AUR-0001/ask?question=telescope`));
    expect(vera).not.toContain("Add an FAQ for this question");
  });
});

describe("the operator API", () => {
  it("attaches and detaches phrasings, lists unanswered questions with their state, and dismisses", async () => {
    const list = await faqsOf("HO-AUR-0002");
    const res = await admin(
      "POST",
      "/content/entities/HO-AUR-0002/faqs/1/phrasings",
      { add: ["Is there a falconry show?"] },
      { "If-Match": `"${list.version}"` },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const after = await res.json<{ faqs: { phrasings?: string[] }[] }>();
    expect(after.faqs[0]!.phrasings).toEqual(["Is there a falconry show?"]);
    const answer = await call(aurora, "service_query", { entity: "HO-AUR-0002", question: "is there a falconry show" });
    expect(answer.confidence).toBe("high");
    expect(answer.faqs[0].question).toBe(list.faqs[0].question);

    const stale = await admin(
      "POST",
      "/content/entities/HO-AUR-0002/faqs/1/phrasings",
      { remove: ["is there a falconry show"] },
      { "If-Match": `"${list.version}"` },
    );
    expect(stale.status).toBe(412);
    const detached = await admin(
      "POST",
      "/content/entities/HO-AUR-0002/faqs/1/phrasings",
      { remove: ["IS THERE A FALCONRY SHOW"] },
      { "If-Match": "*" },
    );
    expect((await detached.json<{ faqs: { phrasings?: string[] }[] }>()).faqs[0]!.phrasings).toBeUndefined();
    const missing = await admin("POST", "/content/entities/HO-NOWHERE-1/faqs/1/phrasings", { add: ["x"] }, { "If-Match": "*" });
    expect(missing.status).toBe(404);
    const bad = await admin("POST", "/content/entities/HO-AUR-0002/faqs/1/phrasings", { add: ["a".repeat(501)] }, { "If-Match": "*" });
    expect(bad.status).toBe(400);
    expect(await faqsOf("HO-AUR-0002")).toMatchObject({ faqs: list.faqs });

    const dismissed = await adminJson("POST", "/insights/unanswered/dismiss", {
      entityId: "HO-AUR-0001",
      questions: ["Do you lend telescopes to guests at night?"],
    });
    expect(dismissed).toEqual({ entityId: "HO-AUR-0001", dismissed: 1 });
    const handled = await adminJson("GET", "/insights/unanswered?organizationId=org-aurora&state=handled");
    const telescope = handled.questions.find((q: { question: string }) => q.question === TELESCOPE);
    expect(telescope.handled).toMatchObject({ outcome: "dismissed", faqQuestion: null, actor: expect.stringMatching(/^token:/) });
    const open = await adminJson("GET", "/insights/unanswered?organizationId=org-aurora&state=open");
    expect(open.questions.map((q: { question: string }) => q.question)).not.toContain(TELESCOPE);
    expect((await admin("POST", "/insights/unanswered/dismiss", { entityId: "HO-NOWHERE-1", questions: ["x"] })).status).toBe(404);
    expect((await admin("GET", "/insights/unanswered?state=closed")).status).toBe(400);
  });
});

describe("phrasings in exports and imports", () => {
  it("travel through NDJSON records and CSV, and importing the export back changes nothing", async () => {
    const [record] = (await exportAll()).filter((r) => r.id === "HO-AUR-0003");
    const phrased = {
      ...record,
      faqs: record.faqs.map((faq: object, i: number) =>
        i === 0 ? { ...faq, phrasings: ["is the bar open late", "o bar fecha tarde?"] } : faq,
      ),
    };
    await importRecords([phrased]);
    const [exported] = (await exportAll()).filter((r) => r.id === "HO-AUR-0003");
    expect(exported.faqs[0].phrasings).toEqual(["is the bar open late", "o bar fecha tarde?"]);
    expect((await importRecords([exported])).summary.entities).toMatchObject({ changed: 0, unchanged: 1 });

    const csv = serializeCsv([exported]);
    expect(csv.split("\n")[0]).toBe("\uFEFFentity,position,category,question,answer,language,source,phrasings");
    expect(csv).toContain('"is the bar open late\no bar fecha tarde?"');
    const { id } = await adminJson("POST", "/imports", undefined, 201);
    expect(await adminJson("POST", `/imports/${id}/csv`, { csv })).toEqual({ received: 1, invalid: [] });
    expect(await adminJson("POST", `/imports/${id}/plan`)).toMatchObject({ valid: true, changed: [] });
    await admin("DELETE", `/imports/${id}`);
    // Without phrasings the file reads as it always did.
    expect(serializeCsv([record]).split("\n")[0]).toBe("\uFEFFentity,position,category,question,answer,language,source");
  });
});
