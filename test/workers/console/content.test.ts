import { beforeAll, describe, expect, it } from "vitest";
import { adminJson } from "../support/admin";
import { get } from "../support/content";
import type { Browser } from "../support/connector";
import {
  addPeople,
  AURORA_VIEWER,
  BEA,
  BOREAL,
  BRUNO,
  fieldOf,
  HELENA,
  INES,
  pageOf,
  postForm,
  signedIn,
  unescaped,
  VERA,
} from "../support/console";

beforeAll(async () => {
  await addPeople([
    BEA,
    // A grant outside the organization's scope reaches nothing.
    { ...VERA, grants: [...VERA.grants, { role: "editor", entity_id: "HO-BOR-0001" }] },
  ]);
});

const faqListOf = async (entityId: string) => adminJson("GET", `/content/entities/${entityId}/faqs`);

/** The edit form of FAQ `position`: its CSRF token and the FAQ it was made on, and the FAQ's text as the form shows it. */
async function editForm(browser: Browser, entityId: string, position: number) {
  const html = await pageOf(browser, `/entities/${entityId}/faqs/${position}`);
  return {
    form: { csrf: fieldOf(html, "csrf"), faq_version: fieldOf(html, "faq_version"), original_question: fieldOf(html, "original_question") },
    text: {
      question: unescaped(/name="question"[^>]* value="([^"]*)"/.exec(html)![1]!),
      category: unescaped(/name="category"[^>]* value="([^"]*)"/.exec(html)![1]!),
      answer: unescaped(/<textarea[^>]*name="answer"[^>]*>([^<]*)<\/textarea>/.exec(html)![1]!),
    },
  };
}

describe("what a person sees", () => {
  it("lists the entities a grant reaches, searchable by name or ID", async () => {
    const helena = await pageOf(await signedIn(HELENA), "");
    expect(helena).toContain("HO-AUR-0001");
    expect(helena).toContain("1 found.");
    const bruno = await signedIn(BRUNO);
    expect(await pageOf(bruno, "")).toContain("The first 100; search to narrow them down.");
    const searched = await pageOf(bruno, "?q=hO-aur-0042");
    expect(searched).toContain("1 found.");
    expect(searched).toContain('href="/console/entities/HO-AUR-0042"');
    expect(await pageOf(bruno, "?q=DMO-LIS")).toContain("Nothing you may see matches");
    expect(await pageOf(await signedIn(INES), "?q=DMO-LIS")).toContain("Visit Lisboa");
  });

  it("shows an entity's FAQs in order with translations side by side, and flags what is missing", async () => {
    const html = await pageOf(await signedIn(BRUNO), "/entities/HO-AUR-0041");
    expect(html).toContain('<div lang="pt">');
    expect(html).toContain("Portuguese");
    const list = await faqListOf("HO-AUR-0041");
    expect(html.indexOf(list.faqs[0].question)).toBeLessThan(html.indexOf(list.faqs[1].question));
    const bruno = await signedIn(BRUNO);
    const { form } = await editForm(bruno, "HO-AUR-0041", 1);
    await postForm(bruno, "/entities/HO-AUR-0041/faqs", {
      csrf: form.csrf,
      category: "Pets",
      question: "Do you take parrots?",
      answer: "Yes.",
    });
    const after = await pageOf(bruno, "/entities/HO-AUR-0041?done=add");
    expect(after).toContain("The FAQ was added.");
    expect(after).toContain("Missing translations: German, Spanish, French, Portuguese.");
  });
});

describe("who may change what", () => {
  it("lets a viewer read but not edit, through the pages and by replaying a form", async () => {
    const vera = await signedIn(AURORA_VIEWER);
    const page = await pageOf(vera, "/entities/HO-AUR-0002");
    expect(page).toContain("You can read these FAQs but not change them.");
    expect(page).not.toContain("/faqs/1/move");
    await pageOf(vera, "/entities/HO-AUR-0002/faqs/1", 403);
    const before = await faqListOf("HO-AUR-0002");
    const csrf = fieldOf(page, "csrf");
    const res = await postForm(vera, "/entities/HO-AUR-0002/faqs/1/remove", { csrf, version: before.version });
    expect(res.status).toBe(403);
    expect(await faqListOf("HO-AUR-0002")).toEqual(before);
  });

  it("keeps a hotel's editor out of another hotel, whatever form they replay", async () => {
    const helena = await signedIn(HELENA);
    const { form: own } = await editForm(helena, "HO-AUR-0001", 1);
    await pageOf(helena, "/entities/HO-AUR-0002", 404);
    await pageOf(helena, "/entities/HO-AUR-0002/faqs/1", 404);
    await pageOf(helena, "/entities/HO-AUR", 404);
    const other = await faqListOf("HO-AUR-0002");
    const replays = [
      ["/entities/HO-AUR-0002/faqs/1", { question: "Hijacked?", answer: "Yes.", category: "Pets" }],
      ["/entities/HO-AUR-0002/faqs", { question: "Hijacked?", answer: "Yes.", category: "Pets" }],
      ["/entities/HO-AUR-0002/faqs/1/remove", {}],
      ["/entities/HO-AUR-0002/faqs/1/move", { direction: "down" }],
    ] as const;
    for (const [path, fields] of replays) {
      const res = await postForm(helena, path, { ...own, ...fields });
      expect(res.status, path).toBe(404);
    }
    expect(await faqListOf("HO-AUR-0002")).toEqual(other);
  });

  it("shows a person of one organization nothing of another's, from both sides", async () => {
    const bea = await signedIn(BOREAL);
    const boreal = await pageOf(bea, "?q=HO-AUR");
    expect(boreal).toContain("Nothing you may see matches");
    await pageOf(bea, "/entities/HO-AUR-0001", 404);
    expect(await pageOf(bea, "?q=HO-BOR-0001")).toContain("1 found.");
    const aurora = await faqListOf("HO-AUR-0001");
    const csrf = fieldOf(await pageOf(bea, ""), "csrf");
    expect((await postForm(bea, "/entities/HO-AUR-0001/faqs/1/remove", { csrf, version: aurora.version })).status).toBe(404);
    expect(await faqListOf("HO-AUR-0001")).toEqual(aurora);

    const ines = await signedIn(INES);
    expect(await pageOf(ines, "?q=HO-BOR")).toContain("Nothing you may see matches");
    await pageOf(ines, "/entities/HO-BOR-0001", 404);
    // A grant naming an entity outside the organization's scope reaches nothing either.
    await pageOf(await signedIn(AURORA_VIEWER), "/entities/HO-BOR-0001", 404);
  });
});

describe("editing one FAQ", () => {
  it("saves an edit that the content API shows, audited with the person and before and after", async () => {
    const bruno = await signedIn(BRUNO);
    const { form, text } = await editForm(bruno, "HO-AUR-0010", 1);
    const saved = await postForm(bruno, "/entities/HO-AUR-0010/faqs/1", { ...form, ...text, answer: "A new answer from the console." });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toBe("/console/entities/HO-AUR-0010?done=replace#faq-1");
    const feed = await (await get("/api/v3/content/HO-AUR-0010/faq.json")).json<any>();
    expect(feed.mainEntity[0].acceptedAnswer.text).toBe("A new answer from the console.");
    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0010");
    expect(entries[0]).toMatchObject({
      actor: "person:bruno@aurora.example",
      action: "faq.replace",
      detail: {
        before: { position: 1, question: text.question, answer: text.answer },
        after: { position: 1, question: text.question, answer: "A new answer from the console." },
      },
    });
  });

  it("moves an FAQ to any position in one step, and removes one", async () => {
    const ines = await signedIn(INES);
    const before = await faqListOf("HO-AUR-0011");
    const last = before.faqs.length;
    expect(last).toBeGreaterThan(3);
    const page = await pageOf(ines, "/entities/HO-AUR-0011");
    expect(page).toContain(`<label for="move-${last}">Move FAQ ${last} to</label>`);
    const lastForm = (await editForm(ines, "HO-AUR-0011", last)).form;
    expect((await postForm(ines, `/entities/HO-AUR-0011/faqs/${last}/move`, { ...lastForm, to: "2" })).status).toBe(303);
    const moved = await faqListOf("HO-AUR-0011");
    expect(moved.faqs.map((f: any) => f.question)).toEqual(
      [before.faqs[0], before.faqs[last - 1], ...before.faqs.slice(1, last - 1)].map((f: any) => f.question),
    );
    const second = (await editForm(ines, "HO-AUR-0011", 2)).form;
    expect((await postForm(ines, "/entities/HO-AUR-0011/faqs/2/remove", second)).status).toBe(303);
    const removed = await faqListOf("HO-AUR-0011");
    expect(removed.faqs.map((f: any) => f.question)).toEqual(moved.faqs.filter((_: any, i: number) => i !== 1).map((f: any) => f.question));
  });

  it("refuses a save over the same FAQ changed meanwhile, showing both versions; nothing changes until theirs is re-applied", async () => {
    const [first, second] = [await signedIn(BRUNO), await signedIn(INES)];
    const [a, b] = [await editForm(first, "HO-AUR-0012", 1), await editForm(second, "HO-AUR-0012", 1)];
    expect((await postForm(first, "/entities/HO-AUR-0012/faqs/1", { ...a.form, ...a.text, answer: "First editor's answer." })).status).toBe(
      303,
    );
    const stored = await faqListOf("HO-AUR-0012");
    const late = await postForm(second, "/entities/HO-AUR-0012/faqs/1", { ...b.form, ...b.text, answer: "Second editor's answer." });
    expect(late.status).toBe(409);
    const html = await late.text();
    expect(html).toContain("Someone else changed this FAQ");
    expect(html).toContain("First editor&#39;s answer.");
    expect(html).toContain("Second editor&#39;s answer.");
    expect(await faqListOf("HO-AUR-0012")).toEqual(stored);
    // "Save yours over it": one post, made on the FAQ as it is now.
    const again = /<form method="post" action="\/console(\/entities\/HO-AUR-0012\/faqs\/1)">([\s\S]*?)<\/form>/.exec(html)!;
    const fields = Object.fromEntries(
      [...again[2]!.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, unescaped(value!)]),
    );
    expect((await postForm(second, again[1]!, fields)).status).toBe(303);
    expect((await faqListOf("HO-AUR-0012")).faqs[0].answer).toBe("Second editor's answer.");
  });

  it("refuses a duplicate question and bad input in plain words, changing nothing", async () => {
    const bruno = await signedIn(BRUNO);
    const { form } = await editForm(bruno, "HO-AUR-0013", 2);
    const before = await faqListOf("HO-AUR-0013");
    const cases: [string, Record<string, string>, number, string][] = [
      [
        "/entities/HO-AUR-0013/faqs/2",
        { question: `  ${before.faqs[0].question.toUpperCase()} `, answer: "x", category: "x" },
        409,
        "FAQ 1 of",
      ],
      ["/entities/HO-AUR-0013/faqs/2", { question: "   ", answer: "x", category: "x" }, 400, "The question is empty."],
      [
        "/entities/HO-AUR-0013/faqs/2",
        { question: "q".repeat(1001), answer: "x", category: "x" },
        400,
        "The question is longer than 1,000 characters.",
      ],
      // A form made on no FAQ that is there: FAQ 99 is gone, or never was.
      [
        "/entities/HO-AUR-0013/faqs/99",
        { faq_version: "0", original_question: "Gone?", question: "Fine?", answer: "x", category: "x" },
        409,
        "is no longer among the FAQs",
      ],
      ["/entities/HO-AUR-0013/faqs/abc", { question: "Fine?", answer: "x", category: "x" }, 404, "that you may see"],
      ["/entities/HO-NOPE/faqs/1", { question: "Fine?", answer: "x", category: "x" }, 404, "that you may see"],
      ["/entities/HO-AUR-0013/faqs/1/move", { to: "0" }, 400, "choose a position from 1 to"],
      ["/entities/HO-AUR-0013/faqs/2/move", { to: "99" }, 400, "choose a position from 1 to"],
    ];
    for (const [path, fields, status, message] of cases) {
      const res = await postForm(bruno, path, { ...form, ...fields });
      expect(res.status, path).toBe(status);
      expect(await res.text(), path).toContain(message);
    }
    expect(await faqListOf("HO-AUR-0013")).toEqual(before);
  });

  it("refuses a write without the session's CSRF token, changing nothing", async () => {
    const bruno = await signedIn(BRUNO);
    const { form } = await editForm(bruno, "HO-AUR-0014", 1);
    const before = await faqListOf("HO-AUR-0014");
    const res = await postForm(bruno, "/entities/HO-AUR-0014/faqs/1/remove", { ...form, csrf: "" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Nothing was changed.");
    const other = await signedIn(INES);
    const theirs = fieldOf(await pageOf(other, ""), "csrf");
    expect((await postForm(bruno, "/entities/HO-AUR-0014/faqs/1/remove", { ...form, csrf: theirs })).status).toBe(403);
    expect(await faqListOf("HO-AUR-0014")).toEqual(before);
  });
});
