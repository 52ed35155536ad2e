import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { editFaqs, readFaqList } from "../../../src/catalogue/faq-edits";
import { MAX_VERSIONS_PER_FAQ, VERSIONS_KEPT_DAYS } from "../../../src/catalogue/faq-versions";
import { insertAudit } from "../../../src/storage/admin-audit";
import { dailyUpkeep } from "../../../src/upkeep";
import { admin, adminJson, importRecords } from "../support/admin";
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

const faqListOf = async (entityId: string) => adminJson("GET", `/content/entities/${entityId}/faqs`);
const versionRows = async (entityId: string) =>
  (
    await env.DB.prepare("SELECT id, faq_id, action, actor, removed, faq FROM faq_versions WHERE entity_id = ? ORDER BY id")
      .bind(entityId)
      .all<{ id: number; faq_id: string; action: string; actor: string | null; removed: number; faq: string }>()
  ).results;
const lastAudit = async (entityId: string) => (await adminJson("GET", `/audit?target=${entityId}`)).entries[0];

/** Saves FAQ `position`'s edit form with `changes`, as `browser`; the answer. */
async function saveEdit(browser: Browser, entityId: string, position: number, changes: Record<string, string>) {
  const html = await pageOf(browser, `/entities/${entityId}/faqs/${position}`);
  const fields = {
    csrf: fieldOf(html, "csrf"),
    faq_version: fieldOf(html, "faq_version"),
    original_question: fieldOf(html, "original_question"),
  };
  const list = await faqListOf(entityId);
  const { question, answer, category } = list.faqs[position - 1];
  return postForm(browser, `/entities/${entityId}/faqs/${position}`, { ...fields, question, answer, category, ...changes });
}

/** The restore forms of a page: each version ID it offers, in page order. */
const restoreIds = (html: string) => [...html.matchAll(/versions\/(\d+)\/restore/g)].map((match) => Number(match[1]));

describe("an FAQ's history", () => {
  it("shows who changed each FAQ last, and every version whole, newest first; an earlier one is restored, audited", async () => {
    const bruno = await signedIn(BRUNO);
    const before = await faqListOf("HO-AUR-0043");
    const first = before.faqs[0];
    expect(first.translations.map((t: any) => t.language)).toEqual(["de", "es", "fr", "pt"]);
    expect((await saveEdit(bruno, "HO-AUR-0043", 1, { answer: "A new answer." })).status).toBe(303);

    const entityPage = unescaped(await pageOf(bruno, "/entities/HO-AUR-0043"));
    expect(entityPage).toMatch(/Last changed by Bruno[^,]*, \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(entityPage).toContain('href="/console/entities/HO-AUR-0043/faqs/1/history"');
    expect(entityPage).toContain("No change recorded here yet");

    const history = unescaped(await pageOf(bruno, "/entities/HO-AUR-0043/faqs/1/history"));
    expect(history).toContain(`History of “${first.question}”`);
    expect(history.indexOf("Changed an FAQ by Bruno")).toBeLessThan(history.indexOf("As it was before its first recorded change"));
    expect(history).toContain("This is the FAQ as it is now.");
    expect(history).toContain(first.answer);
    for (const translation of first.translations) expect(history).toContain(translation.answer);
    const [earlier] = restoreIds(history);
    expect(restoreIds(history)).toHaveLength(1);

    const res = await postForm(bruno, `/entities/HO-AUR-0043/versions/${earlier}/restore`, {
      csrf: fieldOf(history, "csrf"),
      faq_version: fieldOf(history, "faq_version"),
      original_question: fieldOf(history, "original_question"),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/console/entities/HO-AUR-0043?done=restore#faq-1");
    expect(await faqListOf("HO-AUR-0043")).toMatchObject({ faqs: before.faqs });
    const audit = await lastAudit("HO-AUR-0043");
    expect(audit).toMatchObject({ actor: "person:bruno@aurora.example", action: "faq.restore" });
    expect(audit.detail.after).toMatchObject({ position: 1, answer: first.answer });
    const again = unescaped(await pageOf(bruno, "/entities/HO-AUR-0043/faqs/1/history"));
    expect(again).toContain("Restored an FAQ by Bruno");
    expect(restoreIds(again)).toHaveLength(1);
  });

  it("restores one FAQ's version while another FAQ changes, and refuses it once that FAQ itself has changed", async () => {
    const bruno = await signedIn(BRUNO);
    expect((await saveEdit(bruno, "HO-AUR-0052", 1, { answer: "First change." })).status).toBe(303);
    const history = unescaped(await pageOf(bruno, "/entities/HO-AUR-0052/faqs/1/history"));
    const [earlier] = restoreIds(history);
    const restore = () =>
      postForm(bruno, `/entities/HO-AUR-0052/versions/${earlier}/restore`, {
        csrf: fieldOf(history, "csrf"),
        faq_version: fieldOf(history, "faq_version"),
        original_question: fieldOf(history, "original_question"),
      });
    // Someone else edits FAQ 2 after the page was read: the restore of FAQ 1 goes ahead.
    expect((await saveEdit(await signedIn(INES), "HO-AUR-0052", 2, { answer: "Ines's change." })).status).toBe(303);
    const restored = await restore();
    expect(restored.status, await restored.clone().text()).toBe(303);
    const now = await faqListOf("HO-AUR-0052");
    expect(now.faqs[0].answer).not.toBe("First change.");
    expect(now.faqs[1].answer).toBe("Ines's change.");
    // FAQ 1 itself changed since (by that restore): the same form is refused, and nothing moves.
    expect((await saveEdit(bruno, "HO-AUR-0052", 1, { answer: "Second change." })).status).toBe(303);
    const before = await faqListOf("HO-AUR-0052");
    const refused = await restore();
    expect(refused.status).toBe(409);
    expect(await faqListOf("HO-AUR-0052")).toEqual(before);
    // A version of FAQ 1 sent with FAQ 2's basis replaces neither.
    const second = unescaped(await pageOf(bruno, "/entities/HO-AUR-0052/faqs/2/history"));
    const crossed = await postForm(bruno, `/entities/HO-AUR-0052/versions/${earlier}/restore`, {
      csrf: fieldOf(second, "csrf"),
      faq_version: fieldOf(second, "faq_version"),
      original_question: fieldOf(second, "original_question"),
    });
    expect(crossed.status).toBe(409);
    expect(await faqListOf("HO-AUR-0052")).toEqual(before);
    // Removed after its history was read: the restore is refused rather than bringing it back.
    const shown = unescaped(await pageOf(bruno, "/entities/HO-AUR-0052/faqs/1/history"));
    expect((await admin("DELETE", "/content/entities/HO-AUR-0052/faqs/1", undefined, { "If-Match": "*" })).status).toBe(200);
    const removed = await faqListOf("HO-AUR-0052");
    const [latest] = restoreIds(shown);
    const afterRemoval = await postForm(bruno, `/entities/HO-AUR-0052/versions/${latest}/restore`, {
      csrf: fieldOf(shown, "csrf"),
      faq_version: fieldOf(shown, "faq_version"),
      original_question: fieldOf(shown, "original_question"),
    });
    expect(afterRemoval.status).toBe(409);
    expect(await faqListOf("HO-AUR-0052")).toEqual(removed);
  });

  it("keeps an FAQ's history through a reworded question and through an import", async () => {
    const bruno = await signedIn(BRUNO);
    const before = await faqListOf("HO-AUR-0044");
    const second = before.faqs[1];
    await saveEdit(bruno, "HO-AUR-0044", 2, { question: "A reworded question?" });
    const records = (await adminJson("GET", "/content/export?limit=1&after=HO-AUR-0043")).records;
    expect(records[0].id).toBe("HO-AUR-0044");
    records[0].faqs[1].answer = "Answered by an import.";
    await importRecords(records);

    const history = unescaped(await pageOf(bruno, "/entities/HO-AUR-0044/faqs/2/history"));
    expect(history).toContain("History of “A reworded question?”");
    expect(history).toContain("Imported FAQs by the operator");
    expect(history).toContain("Answered by an import.");
    expect(history).toContain(second.question);
    const rows = (await versionRows("HO-AUR-0044")).map((row) => row.faq_id);
    expect(new Set(rows).size).toBe(1);
    expect(rows).toHaveLength(3);
  });

  it("asks before removing, names what went with Undo, and restores the FAQ with its translations at its place", async () => {
    const bruno = await signedIn(BRUNO);
    const before = await faqListOf("HO-AUR-0045");
    const third = before.faqs[2];
    const confirm = unescaped(await pageOf(bruno, "/entities/HO-AUR-0045/faqs/3/remove"));
    expect(confirm).toContain(`Remove “${third.question}”?`);
    expect(confirm).toContain("with its 4 translations");
    for (const translation of third.translations) expect(confirm).toContain(translation.question);
    expect(await faqListOf("HO-AUR-0045")).toEqual(before);

    const removed = await postForm(bruno, "/entities/HO-AUR-0045/faqs/3/remove", {
      csrf: fieldOf(confirm, "csrf"),
      faq_version: fieldOf(confirm, "faq_version"),
      original_question: fieldOf(confirm, "original_question"),
    });
    expect(removed.status).toBe(303);
    expect((await faqListOf("HO-AUR-0045")).faqs).toHaveLength(before.faqs.length - 1);
    const after = unescaped(await pageOf(bruno, "/entities/HO-AUR-0045?done=remove"));
    expect(after).toContain(`Removed “${third.question}” with its de, es, fr and pt translations.`);
    expect(after).toContain("Recently removed");
    const [undo] = restoreIds(after);
    const res = await postForm(bruno, `/entities/HO-AUR-0045/versions/${undo}/restore`, { csrf: fieldOf(after, "csrf") });
    expect(res.status).toBe(303);
    expect(await faqListOf("HO-AUR-0045")).toMatchObject({ faqs: before.faqs });
    expect(await lastAudit("HO-AUR-0045")).toMatchObject({ action: "faq.restore", detail: { before: null, after: { position: 3 } } });
    const page = unescaped(await pageOf(bruno, "/entities/HO-AUR-0045?done=restore"));
    expect(page).toContain("The FAQ was restored.");
    expect(page).not.toContain("Recently removed");
    // Restoring the same removal again changes nothing: the FAQ is back as it was.
    const audited = await lastAudit("HO-AUR-0045");
    const replay = await postForm(bruno, `/entities/HO-AUR-0045/versions/${undo}/restore`, { csrf: fieldOf(page, "csrf") });
    expect(replay.status).toBe(303);
    expect(await faqListOf("HO-AUR-0045")).toMatchObject({ faqs: before.faqs });
    expect(await lastAudit("HO-AUR-0045")).toEqual(audited);
  });

  it("puts a removed FAQ last when the list is shorter than its old place now", async () => {
    const list = await readFaqList(env.DB, "HO-AUR-0046");
    const count = list!.faqs.length;
    const remove = (position: number, version: string) =>
      editFaqs(
        env,
        { entityId: "HO-AUR-0046", edit: { action: "remove", position }, basis: { list: version }, actor: "token:test" },
        () => {},
      );
    const first = await remove(count, list!.version);
    if (first.outcome !== "saved") throw new Error(first.outcome);
    const second = await remove(count - 1, first.list.version);
    if (second.outcome !== "saved") throw new Error(second.outcome);
    const [removedLast] = (await adminJson("GET", "/content/entities/HO-AUR-0046/removed-faqs")).versions.filter(
      (version: any) => version.faq.question === list!.faqs[count - 1]!.question,
    );
    expect((await admin("POST", `/content/entities/HO-AUR-0046/faq-versions/${removedLast.id}/restore`)).status).toBe(428);
    const res = await adminRestore("HO-AUR-0046", removedLast.id, second.list.version);
    expect(res.status).toBe(200);
    const now = await res.json<any>();
    expect(now.faqs).toHaveLength(count - 1);
    expect(now.faqs[count - 2]).toMatchObject({ question: list!.faqs[count - 1]!.question });
  });
});

const adminRestore = (entityId: string, versionId: number, version: string) =>
  admin("POST", `/content/entities/${entityId}/faq-versions/${versionId}/restore`, undefined, { "If-Match": `"${version}"` });

describe("who may restore", () => {
  it("refuses a viewer's restore and confirm page; nothing changes", async () => {
    const bruno = await signedIn(BRUNO);
    await saveEdit(bruno, "HO-AUR-0047", 1, { answer: "Changed for the viewer's test." });
    const vera = await signedIn(AURORA_VIEWER);
    const history = await pageOf(vera, "/entities/HO-AUR-0047/faqs/1/history");
    expect(history).not.toContain("Restore this version");
    await pageOf(vera, "/entities/HO-AUR-0047/faqs/1/remove", 403);
    const [row] = await versionRows("HO-AUR-0047");
    const before = await faqListOf("HO-AUR-0047");
    const res = await postForm(vera, `/entities/HO-AUR-0047/versions/${row!.id}/restore`, { csrf: fieldOf(history, "csrf") });
    expect(res.status).toBe(403);
    expect(await faqListOf("HO-AUR-0047")).toEqual(before);
    // A hotel's editor is out of another hotel's reach: the same 404 as an entity that does not exist.
    const helena = await signedIn(HELENA);
    const csrf = fieldOf(await pageOf(helena, ""), "csrf");
    const replayed = await postForm(helena, `/entities/HO-AUR-0047/versions/${row!.id}/restore`, { csrf });
    expect(replayed.status).toBe(404);
    expect((await postForm(helena, `/entities/NO-SUCH/versions/${row!.id}/restore`, { csrf })).status).toBe(404);
    await pageOf(helena, "/entities/HO-AUR-0047/faqs/1/history", 404);
    expect(await faqListOf("HO-AUR-0047")).toEqual(before);
  });

  it("keeps each organization's versions its own, from both sides and by replaying another's version ID", async () => {
    const bea = await signedIn(BOREAL);
    await saveEdit(bea, "HO-BOR-0001", 1, { answer: "Boreal's own change." });
    const [boreal] = await versionRows("HO-BOR-0001");
    const [aurora] = await versionRows("HO-AUR-0047");
    const auroraBefore = await faqListOf("HO-AUR-0047");
    const borealBefore = await faqListOf("HO-BOR-0001");
    const beaCsrf = fieldOf(await pageOf(bea, ""), "csrf");
    // Bea posts to Aurora's entity: not found, as a missing one.
    const toAurora = await postForm(bea, `/entities/HO-AUR-0047/versions/${aurora!.id}/restore`, { csrf: beaCsrf });
    expect(toAurora.status).toBe(404);
    expect(await toAurora.text()).toContain("There is no brand, hotel or page with this ID that you may see.");
    // Bea replays Aurora's version ID on her own hotel: no such version there.
    const replayed = await postForm(bea, `/entities/HO-BOR-0001/versions/${aurora!.id}/restore`, { csrf: beaCsrf });
    expect(replayed.status).toBe(404);
    await pageOf(bea, "/entities/HO-AUR-0047/faqs/1/history", 404);
    // And the other way round.
    const ines = await signedIn(INES);
    const inesCsrf = fieldOf(await pageOf(ines, ""), "csrf");
    expect((await postForm(ines, `/entities/HO-BOR-0001/versions/${boreal!.id}/restore`, { csrf: inesCsrf })).status).toBe(404);
    expect((await postForm(ines, `/entities/HO-AUR-0047/versions/${boreal!.id}/restore`, { csrf: inesCsrf })).status).toBe(404);
    expect(await faqListOf("HO-AUR-0047")).toEqual(auroraBefore);
    expect(await faqListOf("HO-BOR-0001")).toEqual(borealBefore);
    // The operator API refuses a version of another entity the same way.
    expect((await adminRestore("HO-AUR-0047", boreal!.id, auroraBefore.version)).status).toBe(404);
  });
});

describe("how much history is kept", () => {
  it(`keeps an FAQ's newest ${MAX_VERSIONS_PER_FAQ} versions, and none older than ${VERSIONS_KEPT_DAYS} days`, async () => {
    const entityId = "HO-AUR-0048";
    let version = (await readFaqList(env.DB, entityId))!.version;
    const edit = async (n: number) => {
      const outcome = await editFaqs(
        env,
        {
          entityId,
          edit: { action: "replace", position: 1, faq: { category: "Parking", question: "Is there parking?", answer: `Answer ${n}.` } },
          basis: { list: version },
          actor: "token:test",
        },
        () => {},
      );
      if (outcome.outcome !== "saved") throw new Error(outcome.outcome);
      version = outcome.list.version;
    };
    // The text before the first change, then one version per edit: at the limit after MAX - 1 edits.
    for (let n = 1; n < MAX_VERSIONS_PER_FAQ; n++) await edit(n);
    let rows = await versionRows(entityId);
    expect(rows).toHaveLength(MAX_VERSIONS_PER_FAQ);
    expect(rows[0]!.actor).toBeNull();
    await edit(MAX_VERSIONS_PER_FAQ);
    rows = await versionRows(entityId);
    expect(rows).toHaveLength(MAX_VERSIONS_PER_FAQ);
    expect(rows[0]!.actor).toBe("token:test");
    expect(JSON.parse(rows[0]!.faq).answer).toBe("Answer 1.");

    const at = Date.parse("2026-01-01T00:00:00.000Z");
    await env.DB.prepare("UPDATE faq_versions SET at = ? WHERE id = ?").bind(new Date(at).toISOString(), rows[0]!.id).run();
    await dailyUpkeep(env, new Date(at + VERSIONS_KEPT_DAYS * 86_400_000));
    expect(await versionRows(entityId)).toHaveLength(MAX_VERSIONS_PER_FAQ);
    await dailyUpkeep(env, new Date(at + VERSIONS_KEPT_DAYS * 86_400_000 + 1));
    expect(await versionRows(entityId)).toHaveLength(MAX_VERSIONS_PER_FAQ - 1);
  });
});

describe("the changes page", () => {
  it("shows editors the changes to what they may edit, FAQs by question, long texts expandable; viewers are refused", async () => {
    const bruno = await signedIn(BRUNO);
    await saveEdit(bruno, "HO-AUR-0049", 1, { answer: `A long answer ${"that goes on ".repeat(20)}and ends here.` });
    const question = (await faqListOf("HO-AUR-0049")).faqs[0].question;
    const changes = unescaped(await pageOf(bruno, "/audit?entity=HO-AUR-0049"));
    expect(changes).toContain(`FAQ "${question}" (number 1)`);
    expect(changes).not.toContain("FAQ 1:");
    expect(changes).toContain("<details><summary>");
    expect(changes).toContain("and ends here.");
    expect(changes).toContain("Bruno");
    const helena = unescaped(await pageOf(await signedIn(HELENA), "/audit"));
    expect(helena).not.toContain("HO-AUR-0049");
    await pageOf(await signedIn(AURORA_VIEWER), "/audit", 403);
    expect(await pageOf(bruno, "")).toContain('href="/console/audit"');
  });

  it("shows administrators people's changes in words and pages through them; another organization's never", async () => {
    const ines = await signedIn(INES);
    const person = await pageOf(ines, "/people/person-helena");
    await postForm(ines, "/people/person-helena/grants", { csrf: fieldOf(person, "csrf"), role: "viewer", entityId: "HO-AUR-0002" });
    const words = unescaped(await pageOf(ines, "/audit?entity=person-helena"));
    expect(words).toContain("Gave a role");
    expect(words).toContain("Given: Can read HO-AUR-0002");
    expect(words).toContain("Roles now: Can edit HO-AUR-0001; Can read HO-AUR-0002");

    const at = new Date().toISOString();
    await env.DB.batch(
      Array.from({ length: 51 }, (_, n) =>
        insertAudit(env.DB, { at, actor: "token:test", action: "faq.move", target: "HO-AUR-0070", detail: { n } }),
      ),
    );
    const first = unescaped(await pageOf(ines, "/audit?entity=HO-AUR-0070"));
    expect(first.match(/<tr>/g)).toHaveLength(51);
    const older = /href="(\/console\/audit\?[^"]*before=\d+[^"]*)">Older changes/.exec(first)?.[1];
    expect(older).toBeDefined();
    const second = unescaped(await pageOf(ines, older!.slice("/console".length)));
    expect(second.match(/<tr>/g)).toHaveLength(2);
    expect(second).not.toContain("Older changes</a>");
    await pageOf(ines, "/audit?before=x", 400);

    expect(await pageOf(ines, "/audit?entity=HO-BOR-0001")).toContain("No change matches.");
    const bea = await pageOf(await signedIn(BOREAL), "/audit");
    expect(bea).not.toContain("HO-AUR");
    expect(bea).not.toContain("aurora.example");
  });
});
