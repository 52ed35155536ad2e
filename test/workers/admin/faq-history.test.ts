import { describe, expect, it } from "vitest";
import { admin, adminJson, importRecords } from "../support/admin";

const faqsOf = (entityId: string) => `/content/entities/${entityId}/faqs`;

async function listOf(entityId: string): Promise<{ etag: string; body: any }> {
  const res = await admin("GET", faqsOf(entityId));
  expect(res.status).toBe(200);
  return { etag: res.headers.get("ETag")!, body: await res.json<any>() };
}

const restore = (entityId: string, versionId: number, headers: Record<string, string> = {}) =>
  admin("POST", `/content/entities/${entityId}/faq-versions/${versionId}/restore`, undefined, headers);

describe("an FAQ's history through the operator API", () => {
  it("lists an FAQ's versions whole, newest first, and restores an earlier one against the list's ETag, audited", async () => {
    const before = await listOf("HO-AUR-0042");
    const first = before.body.faqs[0];
    const { position: _, ...changed } = { ...first, answer: "Changed by the operator." };
    const put = await admin(
      "PUT",
      `${faqsOf("HO-AUR-0042")}/1`,
      { category: changed.category, question: changed.question, answer: changed.answer },
      {
        "If-Match": before.etag,
      },
    );
    expect(put.status).toBe(200);
    const { versions } = await adminJson("GET", `${faqsOf("HO-AUR-0042")}/1/versions`);
    expect(versions).toHaveLength(2);
    expect(versions[0]).toMatchObject({ action: "faq.replace", actor: expect.stringMatching(/^token:/), removed: false, position: 1 });
    expect(versions[0].faq.answer).toBe("Changed by the operator.");
    expect(versions[1]).toMatchObject({ action: "before", actor: null, faqId: versions[0].faqId });
    const { position: __, ...whole } = first;
    expect(versions[1].faq).toEqual({ ...whole, phrasings: [] });

    expect((await restore("HO-AUR-0042", versions[1].id)).status).toBe(428);
    const stale = await restore("HO-AUR-0042", versions[1].id, { "If-Match": before.etag });
    expect(stale.status).toBe(412);
    const now = await listOf("HO-AUR-0042");
    const restored = await restore("HO-AUR-0042", versions[1].id, { "If-Match": now.etag });
    expect(restored.status).toBe(200);
    expect((await restored.json<any>()).faqs).toEqual(before.body.faqs);
    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0042");
    expect(entries[0]).toMatchObject({
      action: "faq.restore",
      detail: { before: { answer: "Changed by the operator." }, after: { answer: first.answer } },
    });
    const after = await adminJson("GET", `${faqsOf("HO-AUR-0042")}/1/versions`);
    expect(after.versions.map((v: any) => v.action)).toEqual(["faq.restore", "faq.replace", "before"]);
  });

  it("lists removed FAQs and brings one back at its place with its translations", async () => {
    const before = await listOf("HO-AUR-0052");
    const second = before.body.faqs[1];
    expect(second.translations).toHaveLength(4);
    expect((await admin("DELETE", `${faqsOf("HO-AUR-0052")}/2`, undefined, { "If-Match": before.etag })).status).toBe(200);
    const { versions } = await adminJson("GET", "/content/entities/HO-AUR-0052/removed-faqs");
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ removed: true, position: 2, action: "faq.remove", faq: { question: second.question } });
    expect(versions[0].faq.translations).toEqual(second.translations);
    const restored = await restore("HO-AUR-0052", versions[0].id, { "If-Match": "*" });
    expect(restored.status).toBe(200);
    expect((await restored.json<any>()).faqs).toEqual(before.body.faqs);
    expect((await adminJson("GET", "/content/entities/HO-AUR-0052/removed-faqs")).versions).toEqual([]);
  });

  it("writes an import's changes as versions, and refuses what is not there", async () => {
    const records = (await adminJson("GET", "/content/export?limit=1&after=HO-AUR-0052")).records;
    expect(records[0].id).toBe("HO-AUR-0053");
    const [pt] = records[0].translations.filter((t: any) => t.language === "pt");
    pt.faqs[0].answer = "Resposta nova.";
    await importRecords(records);
    const { versions } = await adminJson("GET", `${faqsOf("HO-AUR-0053")}/1/versions`);
    expect(versions[0]).toMatchObject({ action: "content.import" });
    expect(versions[0].faq.translations.find((t: any) => t.language === "pt").answer).toBe("Resposta nova.");
    // Importing the same again writes no version.
    await importRecords(records);
    expect((await adminJson("GET", `${faqsOf("HO-AUR-0053")}/1/versions`)).versions).toHaveLength(versions.length);

    expect((await admin("GET", `${faqsOf("HO-AUR-0053")}/99/versions`)).status).toBe(404);
    expect((await admin("GET", `${faqsOf("HO-NOPE")}/1/versions`)).status).toBe(404);
    expect((await admin("GET", "/content/entities/HO-NOPE/removed-faqs")).status).toBe(404);
    // A version of another entity, or none, is not found under this one.
    const other = await listOf("HO-AUR-0054");
    const res = await restore("HO-AUR-0054", versions[0].id, { "If-Match": other.etag });
    expect(res.status).toBe(404);
    expect((await res.json<any>()).error.message).toBe("HO-AUR-0054 has no FAQ version with this ID.");
    expect((await restore("HO-AUR-0054", 999_999, { "If-Match": other.etag })).status).toBe(404);
    expect((await listOf("HO-AUR-0054")).body).toEqual(other.body);
  });
});
