import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_REPLACEMENTS } from "../../../src/catalogue/find-replace";
import { admin, adminJson } from "../support/admin";

const contentVersion = async () => (await env.DB.prepare("SELECT version FROM content_version").first<{ version: number }>())!.version;

describe("GET /content/faqs/search", () => {
  it("finds FAQs of every organization by their words, in any language, the words marked", async () => {
    const found = await adminJson("GET", "/content/faqs/search?q=parking");
    expect(found.faqs.length).toBe(50);
    expect(found.total).toBeGreaterThan(1000);
    expect(found.faqs[0]).toMatchObject({ field: "question", translation: false });
    expect(found.faqs[0].excerpt).toContain("**parking**");
    const portuguese = await adminJson("GET", "/content/faqs/search?q=estacionamento&entity=HO-AUR");
    expect(portuguese.faqs.every((faq: any) => faq.language === "pt" && faq.entityId.startsWith("HO-AUR-"))).toBe(true);
  });

  it("narrows to one entity, a brand with its hotels", async () => {
    const hotel = await adminJson("GET", "/content/faqs/search?q=parking&entity=HO-AUR-0001");
    expect(hotel.total).toBeGreaterThan(0);
    expect(hotel.faqs.every((faq: any) => faq.entityId === "HO-AUR-0001")).toBe(true);
    const boreal = await adminJson("GET", "/content/faqs/search?q=breakfast&entity=HO-BOR");
    expect(boreal.faqs.length).toBeGreaterThan(0);
    expect(boreal.faqs.every((faq: any) => faq.entityId.startsWith("HO-BOR-"))).toBe(true);
  });

  it("refuses an empty search and an entity that does not exist", async () => {
    expect((await admin("GET", "/content/faqs/search?q=")).status).toBe(400);
    expect((await admin("GET", "/content/faqs/search?q=parking&entity=HO-NOPE")).status).toBe(404);
  });
});

describe("POST /content/replace", () => {
  it("previews, then makes the chosen changes with an audit entry per entity; the preview changes nothing", async () => {
    const request = { scope: "HO-AUR-0041", find: "Wi-Fi", replacement: "WLAN-Wi-Fi", caseSensitive: true };
    const version = await contentVersion();
    const preview = await adminJson("POST", "/content/replace/preview", request);
    expect(await contentVersion()).toBe(version);
    expect(preview.scope).toMatchObject({ id: "HO-AUR-0041", kind: "property" });
    expect(new Set(preview.changes.map((change: any) => change.language))).toEqual(new Set(["en", "pt", "fr"]));
    const chosen = preview.changes.filter((change: any) => change.language !== "fr");
    const applied = await adminJson("POST", "/content/replace", {
      ...request,
      changes: chosen.map((change: any) => change.key),
      versions: preview.versions,
    });
    expect(applied).toEqual({ changes: chosen.length, entities: ["HO-AUR-0041"] });
    const list = await adminJson("GET", "/content/entities/HO-AUR-0041/faqs");
    const wifi = list.faqs.find((faq: any) => faq.question.includes("WLAN-Wi-Fi"));
    expect(wifi.translations.find((t: any) => t.language === "fr").answer).not.toContain("WLAN");
    expect(wifi.translations.find((t: any) => t.language === "pt").answer).toContain("WLAN-Wi-Fi");
    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0041");
    expect(entries[0]).toMatchObject({ action: "content.replace", detail: { find: "Wi-Fi", replacement: "WLAN-Wi-Fi" } });
    expect(entries[0].actor).toMatch(/^token:/);
    // The FAQ's history has the replace as a version, and its earlier text restores in one step.
    const position = list.faqs.indexOf(wifi) + 1;
    const { versions } = await adminJson("GET", `/content/entities/HO-AUR-0041/faqs/${position}/versions`);
    expect(versions[0]).toMatchObject({ action: "content.replace", faq: { question: wifi.question } });
    const earlier = versions.find((version: any) => !version.faq.question.includes("WLAN"));
    const restored = await admin("POST", `/content/entities/HO-AUR-0041/faq-versions/${earlier.id}/restore`, undefined, {
      "If-Match": "*",
    });
    expect(restored.status, await restored.clone().text()).toBe(200);
    expect((await adminJson("GET", "/content/entities/HO-AUR-0041/faqs")).faqs[position - 1].question).toBe(earlier.faq.question);
  });

  it("refuses, naming it, an entity changed since the preview, and writes nothing", async () => {
    const request = { scope: "HO-AUR", find: "buffet breakfast", replacement: "breakfast buffet" };
    const preview = await adminJson("POST", "/content/replace/preview", request);
    const changed = preview.changes[0].entityId;
    const list = await adminJson("GET", `/content/entities/${changed}/faqs`);
    const moved = await admin("POST", `/content/entities/${changed}/faqs/1/move`, { to: 2 }, { "If-Match": `"${list.version}"` });
    expect(moved.status).toBe(200);
    const version = await contentVersion();
    const res = await admin("POST", "/content/replace", {
      ...request,
      changes: preview.changes.map((c: any) => c.key),
      versions: preview.versions,
    });
    expect(res.status).toBe(409);
    expect((await res.json<any>()).error.message).toContain(`Changed since the preview: ${changed}.`);
    expect(await contentVersion()).toBe(version);
  });

  it("refuses changes the preview does not have, a scope that does not exist, and a replacement breaking the rules", async () => {
    const request = { scope: "HO-AUR-0002", find: "Is there parking", replacement: "x".repeat(1000) };
    const preview = await adminJson("POST", "/content/replace/preview", request);
    const version = await contentVersion();
    const invalid = await admin("POST", "/content/replace", { ...request, changes: [preview.changes[0].key], versions: preview.versions });
    expect(invalid.status).toBe(400);
    expect((await invalid.json<any>()).error.message).toMatch(/HO-AUR-0002 FAQ \d+'s question is longer than 1,000 characters/);
    const unknown = await admin("POST", "/content/replace", {
      ...request,
      changes: ["HO-BOR-0001/1/en/answer"],
      versions: preview.versions,
    });
    expect(unknown.status).toBe(400);
    expect((await admin("POST", "/content/replace/preview", { ...request, scope: "HO-NOPE" })).status).toBe(404);
    expect(await contentVersion()).toBe(version);
  });

  it(`makes ${MAX_REPLACEMENTS} changes at once and refuses ${MAX_REPLACEMENTS + 1}`, async () => {
    const request = { scope: "HO-AUR", find: "the", replacement: "thé" };
    const preview = await adminJson("POST", "/content/replace/preview", request);
    expect(preview.changes.length).toBe(MAX_REPLACEMENTS);
    expect(preview.more).toBe(true);
    const keys = preview.changes.map((change: any) => change.key);
    const version = await contentVersion();
    const tooMany = await admin("POST", "/content/replace", {
      ...request,
      changes: [...keys, "HO-AUR-0001/99/en/answer"],
      versions: preview.versions,
    });
    expect(tooMany.status).toBe(400);
    expect(await contentVersion()).toBe(version);
    const applied = await adminJson("POST", "/content/replace", { ...request, changes: keys, versions: preview.versions });
    expect(applied.changes).toBe(MAX_REPLACEMENTS);
    const again = await adminJson("POST", "/content/replace/preview", request);
    expect(again.changes.some((change: any) => keys.includes(change.key))).toBe(false);
  });
});
