import { beforeAll, describe, expect, it } from "vitest";
import { admin, adminJson } from "../support/admin";
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

beforeAll(() => addPeople([BEA, VERA]));

const faqListOf = (entityId: string) => adminJson("GET", `/content/entities/${entityId}/faqs`);

/** The fields of the first form of `html` that posts to `action`. */
function formFields(html: string, action: string): Record<string, string> {
  const form = new RegExp(
    `<form method="post" action="/console${action.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>([\\s\\S]*?)</form>`,
  ).exec(html);
  if (!form) throw new Error(`no form to ${action} in:\n${html.slice(0, 3000)}`);
  return Object.fromEntries([...form[1]!.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, unescaped(value!)]));
}

/** The hidden fields of FAQ `position`'s edit form: the FAQ it is made on. */
async function basisOf(browser: Browser, entityId: string, position: number) {
  return formFields(await pageOf(browser, `/entities/${entityId}/faqs/${position}`), `/entities/${entityId}/faqs/${position}`);
}

const ptFeed = async (entityId: string) => (await (await get(`/api/v3/content/${entityId}/faq.json?lang=pt`)).json<any>()).mainEntity;

describe("translations in the console", () => {
  it("adds, edits and removes an FAQ's translation, which the content API serves in that language", async () => {
    const bruno = await signedIn(BRUNO);
    const entityPage = await pageOf(bruno, "/entities/HO-AUR-0021");
    expect(entityPage).toContain('<label for="translate-1">Translate FAQ 1 into</label>');
    const to = await bruno.request("https://console.example.com/console/entities/HO-AUR-0021/faqs/1/translations?language=PT");
    expect(to.status).toBe(303);
    expect(to.headers.get("Location")).toBe("/console/entities/HO-AUR-0021/faqs/1/translations/pt");
    const form = await pageOf(bruno, "/entities/HO-AUR-0021/faqs/1/translations/pt");
    expect(form).toContain("Add the Portuguese translation of FAQ 1");
    const action = "/entities/HO-AUR-0021/faqs/1/translations/pt";
    const added = await postForm(bruno, action, {
      ...formFields(form, action),
      question: "Há estacionamento? €18 por noite",
      answer: "Sim, na garagem, por 18 € por noite.",
    });
    expect(added.status, await added.clone().text()).toBe(303);
    expect(added.headers.get("Location")).toBe("/console/entities/HO-AUR-0021?done=translate#faq-1");
    expect((await ptFeed("HO-AUR-0021"))[0].name).toBe("Há estacionamento? €18 por noite");

    const edit = await pageOf(bruno, action);
    expect(edit).toContain("Edit the Portuguese translation of FAQ 1");
    expect((await postForm(bruno, action, { ...formFields(edit, action), question: "Há estacionamento?", answer: "Sim." })).status).toBe(
      303,
    );
    expect((await faqListOf("HO-AUR-0021")).faqs[0].translations).toEqual([
      { language: "pt", question: "Há estacionamento?", answer: "Sim." },
    ]);

    const confirm = await pageOf(bruno, `${action}/remove`);
    expect(confirm).toContain("Remove the Portuguese translation of FAQ 1?");
    expect((await postForm(bruno, `${action}/remove`, formFields(confirm, `${action}/remove`))).status).toBe(303);
    expect((await faqListOf("HO-AUR-0021")).faqs[0].translations).toEqual([]);
    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0021");
    expect(entries.slice(0, 3).map((entry: any) => [entry.action, entry.actor])).toEqual([
      ["faq.untranslate", "person:bruno@aurora.example"],
      ["faq.translate", "person:bruno@aurora.example"],
      ["faq.translate", "person:bruno@aurora.example"],
    ]);
  });

  it("refuses a translation into the FAQ's own language, an unknown language and empty text, changing nothing", async () => {
    const bruno = await signedIn(BRUNO);
    const before = await faqListOf("HO-AUR-0022");
    const basis = await basisOf(bruno, "HO-AUR-0022", 1);
    await pageOf(bruno, "/entities/HO-AUR-0022/faqs/1/translations/en", 400);
    await pageOf(bruno, "/entities/HO-AUR-0022/faqs/1/translations/xx", 404);
    await pageOf(bruno, "/entities/HO-AUR-0022/faqs/1/translations/pt/remove", 404);
    const cases: [string, Record<string, string>, number, string][] = [
      [
        "/entities/HO-AUR-0022/faqs/1/translations/en",
        { question: "Q?", answer: "A." },
        400,
        "the language the FAQs themselves are written in",
      ],
      ["/entities/HO-AUR-0022/faqs/1/translations/klingon", { question: "Q?", answer: "A." }, 404, "does not name a language"],
      ["/entities/HO-AUR-0022/faqs/1/translations/pt", { question: " ", answer: "A." }, 400, "The question is empty."],
      ["/entities/HO-AUR-0022/faqs/1/translations/pt/remove", {}, 404, "no translation into that language"],
    ];
    for (const [path, fields, status, message] of cases) {
      const res = await postForm(bruno, path, { ...basis, ...fields });
      expect(res.status, path).toBe(status);
      expect(unescaped(await res.text()), path).toContain(message);
    }
    expect(await faqListOf("HO-AUR-0022")).toEqual(before);
  });

  it("keeps viewers, other hotels' editors and other organizations out, by the pages and by replaying the posts", async () => {
    const bruno = await signedIn(BRUNO);
    const basis = await basisOf(bruno, "HO-AUR-0023", 1);
    const before = await faqListOf("HO-AUR-0023");
    const fields = { question: "Sequestrado?", answer: "Sim." };
    const vera = await signedIn(AURORA_VIEWER);
    await pageOf(vera, "/entities/HO-AUR-0023/faqs/1/translations/pt", 403);
    expect(
      (
        await postForm(vera, "/entities/HO-AUR-0023/faqs/1/translations/pt", {
          ...basis,
          csrf: fieldOf(await pageOf(vera, ""), "csrf"),
          ...fields,
        })
      ).status,
    ).toBe(403);
    const helena = await signedIn(HELENA);
    await pageOf(helena, "/entities/HO-AUR-0023/faqs/1/translations/pt", 404);
    expect(
      (
        await postForm(helena, "/entities/HO-AUR-0023/faqs/1/translations/pt", {
          ...basis,
          csrf: fieldOf(await pageOf(helena, ""), "csrf"),
          ...fields,
        })
      ).status,
    ).toBe(404);
    const bea = await signedIn(BOREAL);
    await pageOf(bea, "/entities/HO-AUR-0023/faqs/1/translations/pt", 404);
    expect(
      (
        await postForm(bea, "/entities/HO-AUR-0023/faqs/1/translations/pt", {
          ...basis,
          csrf: fieldOf(await pageOf(bea, ""), "csrf"),
          ...fields,
        })
      ).status,
    ).toBe(404);
    expect(await faqListOf("HO-AUR-0023")).toEqual(before);
    // And the other way round: Aurora's administrator cannot translate Boreal's FAQs.
    const ines = await signedIn(INES);
    await pageOf(ines, "/entities/HO-BOR-0001/faqs/1/translations/pt", 404);
    const boreal = await faqListOf("HO-BOR-0001");
    expect(
      (
        await postForm(ines, "/entities/HO-BOR-0001/faqs/1/translations/pt", {
          ...basis,
          csrf: fieldOf(await pageOf(ines, ""), "csrf"),
          ...fields,
        })
      ).status,
    ).toBe(404);
    expect(await faqListOf("HO-BOR-0001")).toEqual(boreal);
  });
});

describe("edits at the grain of one FAQ", () => {
  it("saves two people's edits of different FAQs of one hotel, and an addition, whatever order they come in", async () => {
    const [bruno, ines] = [await signedIn(BRUNO), await signedIn(INES)];
    const [first, second] = [await basisOf(bruno, "HO-AUR-0024", 1), await basisOf(ines, "HO-AUR-0024", 2)];
    const before = await faqListOf("HO-AUR-0024");
    const add = await postForm(ines, "/entities/HO-AUR-0024/faqs", {
      csrf: second.csrf!,
      category: "Pets",
      question: "Parrots?",
      answer: "Yes.",
    });
    expect(add.status).toBe(303);
    const text = (n: number) => ({ question: before.faqs[n].question, category: before.faqs[n].category });
    expect((await postForm(bruno, "/entities/HO-AUR-0024/faqs/1", { ...first, ...text(0), answer: "Bruno's answer." })).status).toBe(303);
    expect((await postForm(ines, "/entities/HO-AUR-0024/faqs/2", { ...second, ...text(1), answer: "Inês's answer." })).status).toBe(303);
    const after = await faqListOf("HO-AUR-0024");
    expect(after.faqs.map((faq: any) => faq.answer).slice(0, 2)).toEqual(["Bruno's answer.", "Inês's answer."]);
    expect(after.faqs.at(-1).question).toBe("Parrots?");
  });

  it("finds the FAQ a form was made on where it stands now, after someone moved it", async () => {
    const [bruno, ines] = [await signedIn(BRUNO), await signedIn(INES)];
    const third = await basisOf(bruno, "HO-AUR-0025", 3);
    const before = await faqListOf("HO-AUR-0025");
    expect(
      (await postForm(ines, "/entities/HO-AUR-0025/faqs/3/move", { ...(await basisOf(ines, "HO-AUR-0025", 3)), to: "1" })).status,
    ).toBe(303);
    const saved = await postForm(bruno, "/entities/HO-AUR-0025/faqs/3", {
      ...third,
      question: before.faqs[2].question,
      category: before.faqs[2].category,
      answer: "Edited where it went.",
    });
    expect(saved.headers.get("Location")).toBe("/console/entities/HO-AUR-0025?done=replace#faq-1");
    const after = await faqListOf("HO-AUR-0025");
    expect(after.faqs[0]).toMatchObject({ question: before.faqs[2].question, answer: "Edited where it went." });
    expect(after.faqs[2]).toMatchObject({ question: before.faqs[1].question, answer: before.faqs[1].answer });
  });

  it("shows both versions when a translation changed meanwhile, and re-applies one's own in one step", async () => {
    const [bruno, ines] = [await signedIn(BRUNO), await signedIn(INES)];
    const action = "/entities/HO-AUR-0041/faqs/1/translations/pt";
    const [a, b] = [formFields(await pageOf(bruno, action), action), formFields(await pageOf(ines, action), action)];
    expect((await postForm(bruno, action, { ...a, question: "Pergunta do Bruno?", answer: "Resposta do Bruno." })).status).toBe(303);
    const late = await postForm(ines, action, { ...b, question: "Pergunta da Inês?", answer: "Resposta da Inês." });
    expect(late.status).toBe(409);
    const html = unescaped(await late.text());
    expect(html).toContain("Resposta do Bruno.");
    expect(html).toContain("Resposta da Inês.");
    expect((await postForm(ines, action, formFields(html, action))).status).toBe(303);
    const pt = (await faqListOf("HO-AUR-0041")).faqs[0].translations.find((t: any) => t.language === "pt");
    expect(pt).toEqual({ language: "pt", question: "Pergunta da Inês?", answer: "Resposta da Inês." });
  });
});

describe("what a brand has not translated yet", () => {
  it("counts, per language, the FAQs without a translation, and lists the hotels that lack most", async () => {
    const html = unescaped(await pageOf(await signedIn(BRUNO), "/translations?brand=HO-AUR"));
    const api = await adminJson("GET", "/content/brands/HO-AUR/untranslated");
    const pt = api.languages.find((language: any) => language.language === "pt");
    expect(pt.missing).toBeGreaterThan(0);
    expect(pt.missing).toBeLessThan(pt.of);
    expect(pt.entities[0].missing).toBeGreaterThanOrEqual(pt.entities.at(-1).missing);
    expect(html).toContain(`Portuguese: ${pt.missing} of ${pt.of} FAQs not translated`);
    expect(html).toContain(`href="/console/entities/${pt.entities[0].id}"`);
    expect((await admin("GET", "/content/brands/HO-AUR-0001/untranslated")).status).toBe(404);
    expect((await admin("GET", "/content/brands/HO-NOPE/untranslated")).status).toBe(404);
  });

  it("offers only the brands one may see, and answers another organization's brand as a missing one", async () => {
    const helena = unescaped(await pageOf(await signedIn(HELENA), "/translations"));
    expect(helena).toContain("You may see no brand.");
    const bea = await signedIn(BOREAL);
    await pageOf(bea, "/translations?brand=HO-AUR", 404);
    await pageOf(bea, "/translations?brand=HO-NOPE", 404);
    expect(await pageOf(bea, "/translations")).toContain("Boreal Inns (HO-BOR)");
    const ines = await signedIn(INES);
    await pageOf(ines, "/translations?brand=HO-BOR", 404);
    expect(await pageOf(ines, "/translations")).not.toContain("HO-BOR");
  });
});

describe("translations through the operator API", () => {
  it("adds and removes a translation against the list's ETag, and says when there is none to remove", async () => {
    const res = await admin("GET", "/content/entities/HO-AUR-0026/faqs");
    const etag = res.headers.get("ETag")!;
    const put = await admin(
      "PUT",
      "/content/entities/HO-AUR-0026/faqs/1/translations/pt-br",
      { question: "Tem wi-fi?", answer: "Sim." },
      { "If-Match": etag },
    );
    expect(put.status, await put.clone().text()).toBe(200);
    const list = await put.json<any>();
    expect(list.faqs[0].translations).toEqual([{ language: "pt-BR", question: "Tem wi-fi?", answer: "Sim." }]);
    const stale = await admin("DELETE", "/content/entities/HO-AUR-0026/faqs/1/translations/pt-BR", undefined, { "If-Match": etag });
    expect(stale.status).toBe(412);
    const fresh = { "If-Match": `"${list.version}"` };
    expect((await admin("DELETE", "/content/entities/HO-AUR-0026/faqs/1/translations/pt-BR", undefined, fresh)).status).toBe(200);
    const again = await admin("GET", "/content/entities/HO-AUR-0026/faqs");
    const none = await admin("DELETE", "/content/entities/HO-AUR-0026/faqs/1/translations/pt-BR", undefined, {
      "If-Match": again.headers.get("ETag")!,
    });
    expect(none.status).toBe(404);
    expect((await none.json<any>()).error.message).toContain("has no translation into pt-BR");
    const own = await admin(
      "PUT",
      "/content/entities/HO-AUR-0026/faqs/1/translations/en",
      { question: "Q?", answer: "A." },
      { "If-Match": "*" },
    );
    expect(own.status).toBe(400);
    const unknown = await admin(
      "PUT",
      "/content/entities/HO-AUR-0026/faqs/1/translations/xx",
      { question: "Q?", answer: "A." },
      { "If-Match": "*" },
    );
    expect(unknown.status).toBe(400);
  });
});
