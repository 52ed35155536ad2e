import { describe, expect, it } from "vitest";
import { admin, adminJson, importRecords, stageImport } from "../support/admin";
import { get } from "../support/content";
import { feedPage } from "../support/partner-sync";
import { callTool, openSession, tokenFor } from "../support/mcp";

const faqsOf = (entityId: string) => `/content/entities/${entityId}/faqs`;

async function listOf(entityId: string): Promise<{ etag: string; body: any }> {
  const res = await admin("GET", faqsOf(entityId));
  expect(res.status).toBe(200);
  return { etag: res.headers.get("ETag")!, body: await res.json<any>() };
}

const withIfMatch = (etag: string) => ({ "If-Match": etag });
const NEW_FAQ = { category: "Pets", question: "May I bring my parrot?", answer: "Yes, birds in cages are welcome." };

describe("the operator API's single-FAQ operations", () => {
  it("lists an entity's FAQs in order with translations and the list's ETag", async () => {
    const { etag, body } = await listOf("HO-AUR-0041");
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(body.version).toBe(etag.slice(1, -1));
    expect(body.faqs[0].position).toBe(1);
    expect(body.faqs[0].translations.map((t: any) => t.language)).toEqual(["de", "es", "fr", "pt"]);
    expect((await admin("GET", faqsOf("HO-NOPE"))).status).toBe(404);
  });

  it("adds an FAQ that the content API, the change feed and MCP search then show, with an audit row", async () => {
    const before = await listOf("HO-AUR-0002");
    const feedBefore = await feedPage({ brandId: "HO-AUR", limit: 200 });
    const added = await admin("POST", faqsOf("HO-AUR-0002"), NEW_FAQ, withIfMatch(before.etag));
    expect(added.status).toBe(201);
    const list = await added.json<any>();
    expect(added.headers.get("ETag")).toBe(`"${list.version}"`);
    expect(list.faqs.at(-1)).toEqual({ position: before.body.faqs.length + 1, ...NEW_FAQ, translations: [] });

    const feed = await (await get("/api/v3/content/HO-AUR-0002/faq.json")).json<any>();
    expect(feed.mainEntity.at(-1).name).toBe(NEW_FAQ.question);
    const changes = await feedPage({ brandId: "HO-AUR", limit: 200, cursor: feedBefore.nextCursor });
    expect(changes.changes.map((c: any) => c.entityId)).toEqual(["HO-AUR-0002"]);

    const token = await tokenFor("aurora");
    const session = await openSession(token);
    const found = await callTool(token, session, "service_query", { entity: "HO-AUR-0002", question: "can I bring my parrot", limit: 1 });
    expect(JSON.stringify(found)).toContain("parrot");

    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0002");
    expect(entries[0]).toMatchObject({
      action: "faq.add",
      actor: expect.stringMatching(/^token:[0-9a-f]{16}$/),
      target: "HO-AUR-0002",
      detail: { before: null, after: { position: list.faqs.length, ...NEW_FAQ } },
    });
  });

  it("replaces, moves and removes by position, each against the ETag it read", async () => {
    let { etag, body } = await listOf("HO-AUR-0003");
    const [first, second] = body.faqs;
    const replaced = await admin(
      "PUT",
      `${faqsOf("HO-AUR-0003")}/1`,
      { ...first, position: undefined, translations: undefined, answer: "Changed." },
      withIfMatch(etag),
    );
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    etag = replaced.headers.get("ETag")!;
    const moved = await admin("POST", `${faqsOf("HO-AUR-0003")}/1/move`, { to: 2 }, withIfMatch(etag));
    expect(moved.status).toBe(200);
    body = await moved.json<any>();
    expect(body.faqs.slice(0, 2).map((f: any) => f.question)).toEqual([second.question, first.question]);
    expect(body.faqs[1].answer).toBe("Changed.");
    const removed = await admin("DELETE", `${faqsOf("HO-AUR-0003")}/2`, undefined, withIfMatch(moved.headers.get("ETag")!));
    expect(removed.status).toBe(200);
    expect((await removed.json<any>()).faqs.map((f: any) => f.question)).not.toContain(first.question);
    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0003");
    expect(entries.slice(0, 3).map((e: any) => e.action)).toEqual(["faq.remove", "faq.move", "faq.replace"]);
    expect(entries[2].detail.before.answer).toBe(first.answer);
    expect(entries[2].detail.after.answer).toBe("Changed.");
  });

  it("refuses a change without If-Match (428) or against a changed list (412, with the list now); nothing changes", async () => {
    const { etag } = await listOf("HO-AUR-0004");
    expect((await admin("POST", faqsOf("HO-AUR-0004"), NEW_FAQ)).status).toBe(428);
    await admin("POST", faqsOf("HO-AUR-0004"), NEW_FAQ, withIfMatch(etag));
    const now = await listOf("HO-AUR-0004");
    const stale = await admin("PUT", `${faqsOf("HO-AUR-0004")}/1`, { ...NEW_FAQ, question: "Another?" }, withIfMatch(etag));
    expect(stale.status).toBe(412);
    const refusal = await stale.json<any>();
    expect(refusal.error.code).toBe("precondition_failed");
    expect(refusal.error.message).toContain(`changed since ${etag}`);
    expect(refusal.current).toEqual(now.body);
    expect(await listOf("HO-AUR-0004")).toEqual(now);
  });

  it("refuses a duplicate question (409), bad text (400) and positions that hold nothing (404), changing nothing", async () => {
    const { etag, body } = await listOf("HO-AUR-0005");
    const shouting = { ...NEW_FAQ, question: `  ${body.faqs[0].question.toUpperCase()}  ` };
    const duplicate = await admin("POST", faqsOf("HO-AUR-0005"), shouting, withIfMatch(etag));
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json<any>()).error.message).toContain("FAQ 1 of HO-AUR-0005 already asks this question");
    const blank = await admin("POST", faqsOf("HO-AUR-0005"), { ...NEW_FAQ, question: "   " }, withIfMatch(etag));
    expect(blank.status).toBe(400);
    expect((await blank.json<any>()).error.details).toEqual([{ field: "question", message: "is empty" }]);
    expect((await admin("PUT", `${faqsOf("HO-AUR-0005")}/99`, NEW_FAQ, withIfMatch(etag))).status).toBe(404);
    expect((await admin("POST", `${faqsOf("HO-AUR-0005")}/1/move`, { to: 99 }, withIfMatch(etag))).status).toBe(400);
    expect((await admin("DELETE", `${faqsOf("HO-AUR-0005")}/0`, undefined, withIfMatch(etag))).status).toBe(404);
    expect((await admin("POST", faqsOf("HO-NOPE"), NEW_FAQ, withIfMatch(etag))).status).toBe(404);
    expect((await listOf("HO-AUR-0005")).etag).toBe(etag);
  });

  it("edits a brand's FAQs without touching its roster", async () => {
    const { etag } = await listOf("HO-AUR");
    const res = await admin("POST", faqsOf("HO-AUR"), NEW_FAQ, withIfMatch(etag));
    expect(res.status).toBe(201);
    const roster = await (await get("/api/v3/content/HO-AUR/properties")).json<any>();
    expect(roster.count).toBe(120);
  });
});

describe("imports refuse duplicate questions", () => {
  it("names the later question of a pair, case and spacing aside, in each language", async () => {
    const id = await stageImport([
      {
        kind: "airport",
        id: "AIR-DUP",
        name: "Duplicate Airport",
        faqs: [
          { category: "Parking", question: "Is there parking?", answer: "Yes." },
          { category: "Parking", question: "is  there PARKING? ", answer: "Still yes." },
        ],
      },
    ]);
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan.valid).toBe(false);
    expect(plan.errors).toContainEqual({
      line: 1,
      field: "faqs.1.question",
      message: "asks the same question as faqs.0 (case and spacing aside)",
    });
    await expect(importRecords([{ kind: "airport", id: "AIR-DUP", name: "Duplicate Airport", faqs: [] }])).resolves.toMatchObject({
      valid: true,
    });
  });
});
