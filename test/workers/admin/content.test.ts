import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, ADMIN_AUTH, admin, adminJson, exportAll, importRecords, stageImport } from "../support/admin";
import { utf16, windows1252 } from "../support/encodings";
import { get } from "../support/content";
import { expectEnvelope } from "../support/mcp";
import { analyze } from "../../../src/search/analyze";
import { languageOf } from "../../../src/search/languages";

/** A word as the search index holds it (src/search/analyze.ts). */
const indexedAs = (word: string) => analyze(word, languageOf("en")).join(" ");

const version = async () => (await env.DB.prepare("SELECT version FROM content_version").first<{ version: number }>())!.version;
const auditCount = async (action: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM admin_audit WHERE action = ?").bind(action).first<{ n: number }>())!.n;

const faq = (n: number, extra = "") => ({ category: "Parking", question: `Is there parking ${n}?`, answer: `Yes, parking ${n}${extra}.` });

/** A small brand with `n` properties, members in the file format's order. */
function brandFile(brandId: string, n: number, updatedAt?: string) {
  const dated = updatedAt === undefined ? {} : { updatedAt };
  const records: any[] = [{ id: brandId, kind: "brand", name: `Brand ${brandId}`, ...dated, faqs: [faq(0)] }];
  for (let i = 1; i <= n; i++) {
    records.push({
      id: `${brandId}-${i}`,
      kind: "property",
      name: `${brandId} Hotel ${i}`,
      brandId,
      propertyId: 1000 + i,
      ...dated,
      faqs: [faq(i), faq(i + 100)],
    });
  }
  return records;
}

describe("content import", () => {
  it("plans, then commits a new brand all at once; the content API serves it and the content version moves", async () => {
    const before = await version();
    const id = await stageImport(brandFile("HO-NEW", 3));
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan).toMatchObject({
      valid: true,
      rows: 4,
      summary: { entities: { added: 4, changed: 0, removed: 0, unchanged: 0 }, faqs: { added: 7, changed: 0, removed: 0 } },
      added: ["HO-NEW", "HO-NEW-1", "HO-NEW-2", "HO-NEW-3"],
    });
    expect(await version()).toBe(before);
    expect((await get("/api/v3/content/HO-NEW/properties")).status).toBe(404);

    const committed = await adminJson("POST", `/imports/${id}/commit`);
    expect(committed.summary.entities.added).toBe(4);
    expect(committed.contentVersion).toBeGreaterThan(before);
    const roster = await (
      await get("/api/v3/content/HO-NEW/properties")
    ).json<{
      count: number;
      properties: { serviceId: string; propertyId: number }[];
    }>();
    expect(roster.count).toBe(3);
    expect(roster.properties[0]).toMatchObject({ serviceId: "HO-NEW-1", propertyId: 1001 });
    // The import is gone once committed.
    await expectEnvelope(await admin("POST", `/imports/${id}/commit`), 404, "not_found");
  });

  it("changes nothing when the same file is imported again: no row rewritten, content version, ETags and audit unmoved", async () => {
    await importRecords(brandFile("HO-SAME", 2));
    const etag = (await get("/api/v3/content/HO-SAME-1/faq.json")).headers.get("ETag");
    const updated = await env.DB.prepare("SELECT updated_at FROM entities WHERE id = 'HO-SAME-1'").first<{ updated_at: string }>();
    const [v, audits] = [await version(), await auditCount("content.import")];

    const again = await importRecords(brandFile("HO-SAME", 2));
    expect(again.summary).toEqual({
      entities: { added: 0, changed: 0, removed: 0, unchanged: 3 },
      faqs: { added: 0, changed: 0, removed: 0 },
      translations: { added: 0, changed: 0, removed: 0 },
    });
    expect(again.contentVersion).toBe(v);
    expect(await version()).toBe(v);
    expect(await auditCount("content.import")).toBe(audits);
    expect((await get("/api/v3/content/HO-SAME-1/faq.json")).headers.get("ETag")).toBe(etag);
    expect(await env.DB.prepare("SELECT updated_at FROM entities WHERE id = 'HO-SAME-1'").first()).toEqual(updated);
  });

  it("audits each entity an import changes, with the operator, the entity and its FAQs before and after", async () => {
    await importRecords(brandFile("HO-TRAIL", 2));
    const file = brandFile("HO-TRAIL", 2);
    file[1].faqs = [faq(1, " (changed)"), faq(101)];
    await importRecords(file);
    const { entries } = await adminJson("GET", "/audit?target=HO-TRAIL-1");
    expect(entries.map((entry: { action: string }) => entry.action)).toEqual(["content.import", "content.import"]);
    expect(entries[0].actor).toMatch(/^token:[0-9a-f]{16}$/);
    expect(entries[0].detail).toMatchObject({
      status: "changed",
      changes: {
        fields: [],
        faqs: [
          { language: "en", change: "changed", fields: [{ field: "answer", before: faq(1).answer, after: faq(1, " (changed)").answer }] },
        ],
      },
      before: { id: "HO-TRAIL-1", faqs: [faq(1), faq(101)] },
      after: { id: "HO-TRAIL-1", faqs: [faq(1, " (changed)"), faq(101)] },
    });
    expect(entries[1].detail).toMatchObject({ status: "added", before: null, after: { faqs: [faq(1), faq(101)] } });
    // Entities the import left as they were get no row.
    expect((await adminJson("GET", "/audit?target=HO-TRAIL-2")).entries).toHaveLength(1);
  });

  it("replaces an entity's FAQs, moves its dateModified and ETag, and removes properties a listed brand no longer has", async () => {
    await importRecords(brandFile("HO-EDIT", 3));
    const before = await (await get("/api/v3/content/HO-EDIT-1/faq.json")).json<{ dateModified: string }>();
    const etag = (await get("/api/v3/content/HO-EDIT-1/faq.json")).headers.get("ETag");

    const file = brandFile("HO-EDIT", 2);
    file[1].faqs = [faq(1, " (changed)"), faq(101), faq(7)];
    file[2].faqs = [faq(2)];
    const id = await stageImport(file);
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan.summary).toEqual({
      entities: { added: 0, changed: 2, removed: 1, unchanged: 1 },
      faqs: { added: 1, changed: 1, removed: 3 },
      translations: { added: 0, changed: 0, removed: 0 },
    });
    expect(plan.changed).toEqual(["HO-EDIT-1", "HO-EDIT-2"]);
    expect(plan.removed).toEqual(["HO-EDIT-3"]);
    await adminJson("POST", `/imports/${id}/commit`);

    const after = await get("/api/v3/content/HO-EDIT-1/faq.json?includeCategory=true");
    expect(after.headers.get("ETag")).not.toBe(etag);
    const page = await after.json<{ dateModified: string; mainEntity: { name: string; acceptedAnswer: { text: string } }[] }>();
    expect(page.dateModified > before.dateModified).toBe(true);
    expect(page.mainEntity.map((q) => q.acceptedAnswer.text)).toEqual([
      "Yes, parking 1 (changed).",
      "Yes, parking 101.",
      "Yes, parking 7.",
    ]);
    expect((await get("/api/v3/content/HO-EDIT-3/faq.json")).status).toBe(404);
    // FTS follows: the new text is searchable (as analysed: "changed" is indexed as its stem), nothing of the removed property is left.
    const hits = await env.DB.prepare(
      "SELECT count(*) AS n FROM faq_search JOIN faqs f ON f.id = faq_search.rowid WHERE faq_search MATCH ? AND f.entity_id LIKE 'HO-EDIT-%'",
    )
      .bind(`"${indexedAs("changed")}"`)
      .first<{ n: number }>();
    expect(hits!.n).toBe(1);
  });

  it("keeps the FTS5 index in step with FAQ updates and deletes", async () => {
    const matches = async (term: string) =>
      (await env.DB.prepare("SELECT count(*) AS n FROM faq_search WHERE faq_search MATCH ?")
        .bind(`"${indexedAs(term)}"`)
        .first<{ n: number }>())!.n;
    const town = (answers: string[]) =>
      importRecords([
        {
          id: "DMO-FTS",
          kind: "destination",
          name: "FTS town",
          faqs: answers.map((answer) => ({ category: "Transport", question: "Zeppelin?", answer })),
        },
      ]);
    await town(["Quokkaboat daily."]);
    expect([await matches("quokkaboat"), await matches("wombatferry")]).toEqual([1, 0]);
    await town(["Wombatferry daily."]);
    expect([await matches("quokkaboat"), await matches("wombatferry")]).toEqual([0, 1]);
    await town([]);
    expect([await matches("wombatferry"), await matches("zeppelin")]).toEqual([0, 0]);
    expect((await admin("DELETE", "/content/entities/DMO-FTS")).status).toBe(204);
  });

  it("reports every bad row by line and field, and applies nothing", async () => {
    const before = await version();
    const id = await stageImport([
      { id: "HO-BAD", kind: "brand", name: "Bad brand" },
      { id: "HO-BAD-1", kind: "property", name: "", brandId: "HO-BAD" },
      { id: "DMO-X", kind: "airport", name: "Wrong prefix" },
      { id: "HO-BAD-2", kind: "hotel", name: "No such kind" },
      { id: "HO-BAD-3", kind: "property", name: "Hotel", brandId: "HO-BAD", faqs: [{ category: "Parking", question: "Q?" }], extra: 1 },
      "not an object",
      { id: "HO-BAD-4", kind: "property", name: "Plain HTTP", brandId: "HO-BAD", url: "http://bad.example/hotel" },
      { id: "HO-BAD-5", kind: "property", name: "Not a URL", brandId: "HO-BAD", url: "aurora hotels dot com" },
      { id: "HO-BAD-6", kind: "property", name: "Credentials", brandId: "HO-BAD", url: "https://user:pw@bad.example/" },
      { id: "DMO-BAD", kind: "destination", name: "Script", url: "javascript:alert(1)" },
      { id: "HO-BAD-7", kind: "property", name: "Text ID", brandId: "HO-BAD", propertyId: "482913" },
      { id: "HO-BAD-8", kind: "property", name: "Fraction", brandId: "HO-BAD", propertyId: 4.5 },
    ]);
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan.valid).toBe(false);
    const problems = plan.errors.map((e: { line: number; field: string }) => `${e.line}:${e.field}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        "2:name",
        "3:id",
        "4:kind",
        "5:faqs.0.answer",
        "5:extra",
        "6:(record)",
        "7:url",
        "8:url",
        "9:url",
        "10:url",
        "11:propertyId",
        "12:propertyId",
      ]),
    );
    for (const line of [11, 12]) {
      expect(plan.errors.find((e: { line: number }) => e.line === line).message).toBe(
        "must be the partner's property number (0 or more, without decimals), or empty (null)",
      );
    }
    expect(plan.errors.find((e: { line: number }) => e.line === 7).message).toMatch(/https/);
    const commit = await admin("POST", `/imports/${id}/commit`);
    expect(commit.status).toBe(400);
    const body = await commit.json<{ error: { code: string; message: string; details: { line: number }[] } }>();
    expect(body.error.code).toBe("bad_request");
    expect(body.error.message).toMatch(/nothing was applied/);
    expect(body.error.details.length).toBe(plan.errorCount);
    expect(await version()).toBe(before);
    expect((await get("/api/v3/content/HO-BAD/properties")).status).toBe(404);
  });

  it("reports every problem of a file in one run: a wrong kind, the fields beside it, a translation's source, a later row", async () => {
    const id = await stageImport([
      {
        id: "HO-MANY",
        kind: "hotel",
        name: "",
        faqs: [{ category: "Parking", question: "Is there parking?", answer: "" }],
        translations: [{ language: "pt", faqs: [{ source: "Is there a pool?", question: "Há piscina?", answer: "Sim." }] }],
      },
      { id: "DMO-MANY", kind: "destination", name: "Many", faqs: [{ category: "", question: "Q?", answer: "A." }] },
    ]);
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan.errors.map((e: { line: number; field: string }) => `${e.line}:${e.field}`)).toEqual([
      "1:kind",
      "1:name",
      "1:faqs.0.answer",
      "1:translations.0.faqs.0.source",
      "2:faqs.0.category",
    ]);
    expect(plan.errors[0].message).toBe("must be brand, property, destination or airport");
    expect(plan.errorCount).toBe(5);
  });

  it("refuses duplicate IDs, unknown brands, non-brands as brands and kind changes, naming the lines", async () => {
    const id = await stageImport([
      { id: "HO-DUP", kind: "brand", name: "A" },
      { id: "HO-DUP", kind: "brand", name: "B" },
      { id: "HO-ORPHAN-1", kind: "property", name: "Orphan", brandId: "HO-NOPE" },
      { id: "HO-ORPHAN-2", kind: "property", name: "Under a hotel", brandId: "HO-AUR-0001" },
      { id: "HO-AUR-0002", kind: "brand", name: "Was a property" },
    ]);
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan.errors).toEqual([
      { line: 2, field: "id", message: "HO-DUP is already on line 1" },
      { line: 3, field: "brandId", message: "no brand HO-NOPE in the file or stored" },
      { line: 4, field: "brandId", message: "HO-AUR-0001 is a property, not a brand" },
      { line: 5, field: "kind", message: "HO-AUR-0002 is stored as a property; an entity's kind cannot change" },
    ]);
  });

  it("takes a brand the size of HO-BOR (1,200 properties and their FAQs) in chunks, and commits it at once", async () => {
    const file = (await exportAll()).filter((r) => r.id === "HO-BOR" || r.brandId === "HO-BOR");
    expect(file.length).toBe(1201);
    const big = file.map((r) => ({
      ...r,
      id: r.id.replace("HO-BOR", "HO-BIG"),
      ...(r.brandId ? { brandId: "HO-BIG" } : {}),
      updatedAt: undefined,
    }));
    const committed = await importRecords(big);
    expect(committed.summary.entities.added).toBe(1201);
    expect(committed.summary.faqs.added).toBe(file.reduce((n, r) => n + r.faqs.length, 0));
    expect((await (await get("/api/v3/content/HO-BIG/properties")).json<{ count: number }>()).count).toBe(1200);
  });

  it("limits a chunk to 2,000 rows and a record to 256 KiB", async () => {
    const { id } = await adminJson("POST", "/imports", undefined, 201);
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ line: i + 1, record: { id: `HO-LIM-${i}`, kind: "brand", name: "x" } }));
    expect((await admin("POST", `/imports/${id}/rows`, { rows: rows(2000) })).status).toBe(200);
    await expectEnvelope(await admin("POST", `/imports/${id}/rows`, { rows: rows(2001) }), 400, "bad_request");
    const huge = {
      id: "HO-HUGE",
      kind: "brand",
      name: "x".repeat(300),
      faqs: [{ category: "c", question: "q", answer: "a".repeat(9000) }],
    };
    const tooBig = { ...huge, faqs: Array.from({ length: 30 }, () => huge.faqs[0]) };
    const answer = await adminJson("POST", `/imports/${id}/rows`, { rows: [{ line: 1, record: tooBig }] });
    expect(answer.invalid[0]).toMatchObject({ line: 1, field: "(record)", message: expect.stringMatching(/larger than 262144 bytes/) });
    expect(await adminJson("GET", `/imports/${id}`)).toMatchObject({ rows: 2000, invalid: 1 });
    expect((await admin("DELETE", `/imports/${id}`)).status).toBe(204);
    await expectEnvelope(await admin("GET", `/imports/${id}`), 404, "not_found");
  });

  it("refuses to commit an empty import", async () => {
    const { id } = await adminJson("POST", "/imports", undefined, 201);
    expect(await expectEnvelope(await admin("POST", `/imports/${id}/commit`), 400, "bad_request")).toMatch(/no rows/);
  });
});

describe("content import from CSV", () => {
  it("reads one FAQ a row into a stored entity's FAQ list, with translations, and imports it", async () => {
    const { id } = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
    const csv = [
      "entity,position,category,question,answer,language,source",
      'HO-AUR-0006,2,Pets,Are dogs welcome?,"Yes, small ones.",,',
      "HO-AUR-0006,1,Parking,Is there parking?,Yes.,,",
      "HO-AUR-0006,,,Há estacionamento?,Sim.,pt,Is there parking?",
    ].join("\n");
    expect(await adminJson("POST", `/imports/${id}/csv`, { csv })).toEqual({ received: 1, invalid: [] });
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan).toMatchObject({ valid: true, changed: ["HO-AUR-0006"], removed: [] });
    await adminJson("POST", `/imports/${id}/commit`);
    const list = await adminJson("GET", "/content/entities/HO-AUR-0006/faqs");
    expect(list.faqs.map((f: { question: string }) => f.question)).toEqual(["Is there parking?", "Are dogs welcome?"]);
  });

  it("keeps a brand's hotels when the brand's own FAQs come as CSV", async () => {
    const { id } = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
    await adminJson("POST", `/imports/${id}/csv`, { csv: "entity,category,question,answer\nHO-AUR,General,Who are you?,Aurora Hotels.\n" });
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan).toMatchObject({ valid: true, changed: ["HO-AUR"], removed: [] });
    await admin("DELETE", `/imports/${id}`);
  });

  it("reports every problem of a CSV file by line and column", async () => {
    const { id } = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
    const csv = [
      "entity,position,category,question,answer,language,source",
      "HO-AUR-0007,x,Parking,Is there parking?,,,",
      "HO-NOPE-1,,Parking,Is there parking?,Yes.,,",
      "HO-AUR-0007,,,Há piscina?,Sim.,pt,Is there a pool?",
      'HO-AUR-0007,,General,"Unclosed,Yes.,,',
    ].join("\n");
    const accepted = await adminJson("POST", `/imports/${id}/csv`, { csv });
    const found = accepted.invalid.map((e: { line: number; field: string }) => `${e.line}:${e.field}`);
    expect(found).toEqual(expect.arrayContaining(["2:position", "2:answer", "3:entity", "4:source", "5:(row)"]));
    const plan = await adminJson("POST", `/imports/${id}/plan`);
    expect(plan.valid).toBe(false);
    expect(plan.errorCount).toBe(accepted.invalid.length);
    expect((await admin("POST", `/imports/${id}/commit`)).status).toBe(400);
  });
});

describe("content export", () => {
  it("exports what was imported, member for member, and the export imports again as 'unchanged'", async () => {
    const file = brandFile("HO-TRIP", 3, "2026-10-01T00:00:00Z");
    await importRecords(file);
    const exported = (await exportAll()).filter((r) => r.id.startsWith("HO-TRIP"));
    expect(exported.map((r) => JSON.stringify(r))).toEqual(file.map((r) => JSON.stringify(r)));

    const everything = await exportAll(97);
    const again = await importRecords(everything);
    expect(again.summary.entities).toEqual({ added: 0, changed: 0, removed: 0, unchanged: everything.length });
    expect(again.summary.faqs).toEqual({ added: 0, changed: 0, removed: 0 });
  });

  it("keeps an entity's url: in the export, in the feed's about, and a change of url moves dateModified", async () => {
    const hotel = { id: "HO-URL-1", kind: "property", name: "Url Hotel", brandId: "HO-URL", propertyId: null, faqs: [] };
    await importRecords([{ id: "HO-URL", kind: "brand", name: "Url Brand", faqs: [] }, hotel]);
    expect((await exportAll()).find((r) => r.id === "HO-URL-1")).not.toHaveProperty("url");
    const summary = await importRecords([{ ...hotel, url: "https://url-hotels.example/one" }]);
    expect(summary.summary.entities.changed).toBe(1);
    expect((await exportAll()).find((r) => r.id === "HO-URL-1")).toMatchObject({ url: "https://url-hotels.example/one" });
    const page = await (await get("/api/v3/content/HO-URL-1/faq.json")).json<{ about: { url?: string }; dateModified: string }>();
    expect(page.about.url).toBe("https://url-hotels.example/one");
    expect(page.dateModified).not.toBe("2026-11-01T10:00:00Z");
  });

  it("pages by entity ID", async () => {
    const first = await adminJson("GET", "/content/export?limit=2");
    expect(first.records.map((r: { id: string }) => r.id)).toEqual(["AIR-LIS", "DMO-LIS"]);
    expect(first.next).toBe("DMO-LIS");
    const second = await adminJson("GET", `/content/export?limit=1&after=${first.next}`);
    expect(second.records[0].id).toBe("HO-AUR");
    expect(second.records[0]).toEqual({
      id: "HO-AUR",
      kind: "brand",
      name: "Aurora Hotels & Resorts",
      url: "https://aurora-hotels.example/",
      updatedAt: "2026-11-01T10:00:00Z",
      faqs: expect.any(Array),
    });
    await expectEnvelope(await admin("GET", "/content/export?limit=0"), 400, "bad_request");
  });
});

describe("content removal", () => {
  it("removes a brand with its properties and FAQs, and from every scope", async () => {
    await importRecords(brandFile("HO-GONE", 2));
    await adminJson("POST", "/organizations", { id: "org-gone", name: "Gone", scope: ["HO-GONE"] }, 201);
    expect((await admin("DELETE", "/content/entities/HO-GONE")).status).toBe(204);
    expect((await get("/api/v3/content/HO-GONE-1/faq.json")).status).toBe(404);
    expect((await adminJson("GET", "/organizations/org-gone")).scope).toEqual([]);
    await expectEnvelope(await admin("DELETE", "/content/entities/HO-GONE"), 404, "not_found");
    const [entry] = (await adminJson("GET", "/audit?target=HO-GONE")).entries;
    expect(entry).toMatchObject({ action: "content.remove", detail: { kind: "brand", properties: 2 } });
  });
});

describe("content import of a CSV file's bytes", () => {
  const EXCEL =
    "entity;position;category;question;answer;language;source\r\nHO-AUR-0008;1;Parking;Is there parking?;€18 per night – garage at 5 °C, café nearby;;\r\n";
  const fetchBytes = (id: string, bytes: Uint8Array, type: string) =>
    SELF.fetch(`${ADMIN}/imports/${id}/csv`, { method: "POST", headers: { ...ADMIN_AUTH, "Content-Type": type }, body: bytes });
  const faqsOf = async (entityId: string) =>
    (await adminJson("GET", `/content/entities/${entityId}/faqs`)).faqs as { question: string; answer: string }[];

  it("reads Windows-1252 with semicolons and CRLF (Excel's 'CSV (Comma delimited)'), detected, and imports € ° – é unchanged", async () => {
    const { id } = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
    const res = await fetchBytes(id, windows1252(EXCEL), "text/csv");
    expect(await res.json()).toEqual({ received: 1, invalid: [], encoding: "Windows-1252 (Excel's 'CSV (Comma delimited)')" });
    await adminJson("POST", `/imports/${id}/commit`);
    expect((await faqsOf("HO-AUR-0008"))[0]).toMatchObject({ answer: "€18 per night – garage at 5 °C, café nearby" });
  });

  it("honours a declared charset, and reads UTF-16 with its mark, tab-separated (Excel's 'Unicode Text')", async () => {
    const declared = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
    const res = await fetchBytes(declared.id, windows1252(EXCEL), "text/csv; charset=windows-1252");
    expect(await res.json()).toMatchObject({ received: 1, invalid: [], encoding: "Windows-1252 (as the upload's charset said)" });
    await admin("DELETE", `/imports/${declared.id}`);

    const { id } = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
    const tabbed = EXCEL.replaceAll(";", "\t")
      .replace("€18 per night", "€19 per night, açúcar")
      .concat("HO-AUR-0008\t1\t\tHá estacionamento?\tSim: 19 € por noite, pão incluído\tpt\tIs there parking?\r\n");
    const accepted = await (await fetchBytes(id, utf16(tabbed), "text/tab-separated-values")).json();
    expect(accepted).toMatchObject({ received: 1, invalid: [], encoding: "UTF-16 little-endian (Excel's 'Unicode Text')" });
    await adminJson("POST", `/imports/${id}/commit`);
    expect((await faqsOf("HO-AUR-0008"))[0]!.answer).toBe("€19 per night, açúcar – garage at 5 °C, café nearby");
    const served = await get("/api/v3/content/HO-AUR-0008/faq.json?lang=pt");
    expect(await served.text()).toContain("Sim: 19 € por noite, pão incluído");
  });

  it("refuses bytes that are not text, by line, and stages nothing", async () => {
    const { id } = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
    const bytes = Uint8Array.from([...new TextEncoder().encode("entity,category,question,answer\nHO-AUR-0008,"), 0, 0, 0xff]);
    const res = await fetchBytes(id, bytes, "text/csv");
    expect(res.status).toBe(400);
    const body = await res.json<{ error: { details: unknown } }>();
    expect(body.error.details).toEqual([{ line: 2, field: "(file)", message: expect.stringContaining("NUL") }]);
    expect((await adminJson("GET", `/imports/${id}`)).rows).toBe(0);
    const unknown = await fetchBytes(id, windows1252(EXCEL), "text/csv; charset=klingon");
    expect(unknown.status).toBe(400);
    expect((await unknown.json<{ error: { message: string } }>()).error.message).toContain("klingon");
  });
});

describe("content template", () => {
  it("is the console's CSV template, with its byte order mark, for the operator only; imported unchanged it is refused", async () => {
    const res = await admin("GET", "/content/template.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text).toMatch(/^entity,position,category,question,answer,language,source\n/);
    expect(text).toContain("HO-YOUR-HOTEL");
    expect((await SELF.fetch(`${ADMIN}/content/template.csv`)).status).toBe(401);
    const posted = await admin("POST", "/content/template.csv");
    expect([posted.status, posted.headers.get("Allow")]).toEqual([405, "GET, HEAD"]);
    // A dot in a path is itself, not any character.
    expect((await admin("GET", "/content/templateXcsv")).status).toBe(404);
    expect((await admin("GET", "/openapiXjson")).status).toBe(404);

    const { id } = await adminJson<{ id: string }>("POST", "/imports", undefined, 201);
    const staged = await SELF.fetch(`${ADMIN}/imports/${id}/csv`, {
      method: "POST",
      headers: { ...ADMIN_AUTH, "Content-Type": "text/csv" },
      body: bytes,
    });
    const { invalid } = await staged.json<{ invalid: { line: number; field: string; message: string }[] }>();
    expect(invalid).toEqual([expect.objectContaining({ line: 2, field: "entity", message: expect.stringContaining("HO-YOUR-HOTEL") })]);
  });
});
