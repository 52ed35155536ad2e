import { beforeAll, describe, expect, it } from "vitest";
import { admin, adminJson, importRecords } from "../support/admin";
import type { Browser } from "../support/connector";
import {
  addPeople,
  BEA,
  BOREAL,
  BRUNO,
  CONSOLE,
  fieldOf,
  HELENA,
  INES,
  pageOf,
  postForm,
  signedIn,
  unescaped,
  upload,
} from "../support/console";
import { utf16, windows1252 } from "../support/encodings";

beforeAll(async () => {
  await addPeople([BEA]);
});

async function exported(browser: Browser, scope: string, format: string): Promise<string> {
  const res = await browser.request(`${CONSOLE}/export?scope=${scope}&format=${format}`);
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(200);
  return text;
}

const faqsOf = async (entityId: string) =>
  (await adminJson("GET", `/content/entities/${entityId}/faqs`)).faqs as { question: string; answer: string }[];

describe("console import", () => {
  it("previews what is added, changed and removed, refuses removals without the checkbox, then applies and audits", async () => {
    const ines = await signedIn(INES);
    expect(await pageOf(ines, "")).toContain('href="/console/import"');
    const csv = await exported(ines, "HO-AUR-0003", "csv");
    const [header, first, second, ...rest] = csv.trimEnd().split("\n");
    expect(header).toBe("entity,position,category,question,answer,language,source");
    const before = await faqsOf("HO-AUR-0003");
    const changedFirst = first!.replace(before[0]!.answer.split(",")[0]!, "A changed answer");
    const file = [header, changedFirst, ...rest, 'HO-AUR-0003,,Pets,Are dogs welcome?,"Yes, small ones.",,'].join("\n");
    expect(second).toBeDefined();
    const preview = await upload(ines, "faqs.csv", file);
    const html = await preview.text();
    expect(preview.status, html.slice(0, 2000)).toBe(200);
    expect(html).toContain("FAQs added: 1, changed: 1, removed: 1.");
    expect(html).toContain("Are dogs welcome?");
    expect(html).toContain("Remove these 1 FAQs");
    const digest = fieldOf(html, "digest");
    const csrf = fieldOf(html, "csrf");

    const unconfirmed = await postForm(ines, "/import/confirm", { csrf, digest });
    expect(unconfirmed.status).toBe(400);
    expect(unescaped(await unconfirmed.text())).toContain(
      'Nothing was imported: this import removes content. Tick "Remove these 1 FAQs" to confirm.',
    );
    expect(await faqsOf("HO-AUR-0003")).toEqual(before);

    const confirmed = await postForm(ines, "/import/confirm", { csrf, digest, remove: "1/0" });
    expect(confirmed.status, (await confirmed.clone().text()).slice(0, 2000)).toBe(200);
    const after = await faqsOf("HO-AUR-0003");
    expect(after.map((f) => f.question)).toContain("Are dogs welcome?");
    expect(after).toHaveLength(before.length);
    const { entries } = await adminJson("GET", "/audit?target=HO-AUR-0003");
    expect(entries[0]).toMatchObject({ actor: "person:ines@aurora.example", action: "content.import", target: "HO-AUR-0003" });
    expect(entries[0].detail.before.faqs).toHaveLength(before.length);
    expect(entries[0].detail.after.faqs.map((f: { question: string }) => f.question)).toContain("Are dogs welcome?");

    // The same confirmation again finds nothing waiting.
    expect((await postForm(ines, "/import/confirm", { csrf, digest, remove: "1/0" })).status).toBe(410);
  });

  it("shows every problem of a file at once, by line and field", async () => {
    const ines = await signedIn(INES);
    const ndjson = [
      JSON.stringify({
        id: "HO-AUR-0004",
        kind: "hotel",
        name: "",
        faqs: [{ category: "Parking", question: "Is there parking?", answer: "" }],
        translations: [{ language: "pt", faqs: [{ source: "Is there a pool?", question: "Há piscina?", answer: "Sim." }] }],
      }),
      "not json",
    ].join("\n");
    const res = await upload(ines, "file.ndjson", ndjson);
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(html).toContain("5 problems");
    for (const text of [
      "kind must be brand, property, destination or airport",
      "name is empty",
      "faqs.0.answer is empty",
      "translations.0.faqs.0.source",
      "is not a JSON record",
    ]) {
      expect(html).toContain(text.replace(/"/g, "&quot;"));
    }
    const csv = [
      "entity,category,question,answer,language,source",
      "HO-AUR-0004,,Is there parking?,Yes.,,",
      "HO-AUR-0004,Parking,Is there parking?,,,",
      "HO-AUR-0004,,Há piscina?,Sim.,pt,Is there a pool?",
    ].join("\n");
    const csvRes = await upload(ines, "file.csv", csv);
    const csvHtml = await csvRes.text();
    expect(csvRes.status).toBe(400);
    const rows = [...csvHtml.matchAll(/<tr class="problem"><td>(\d+)<\/td><td>([^<]*)<\/td>/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(rows).toEqual(expect.arrayContaining(["2:category", "3:answer", "3:question", "4:source"]));
  });

  it("refuses a file touching a hotel the editor may not edit, also when a confirmation is replayed", async () => {
    const helena = await signedIn(HELENA);
    const ines = await signedIn(INES);
    const before = await faqsOf("HO-AUR-0002");
    const csv = `entity,category,question,answer\nHO-AUR-0001,General,Is there a lift?,Yes.\nHO-AUR-0002,General,Is there a lift?,Yes.\n`;
    // A CSV names stored entities: one she may not change is answered as one that is not stored.
    const res = await upload(helena, "f.csv", csv);
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("no brand, hotel or page HO-AUR-0002 that you may change is stored");
    expect(text).not.toContain("HO-AUR-0001 that");
    // Ines previews a change of HO-AUR-0002; Helena replays its confirmation with her own token.
    const preview = await (
      await upload(ines, "f.csv", `entity,category,question,answer\nHO-AUR-0002,General,Is there a lift?,Yes.\n`)
    ).text();
    const digest = fieldOf(preview, "digest");
    const helenaCsrf = fieldOf(await pageOf(helena, "/import"), "csrf");
    const replay = await postForm(helena, "/import/confirm", { csrf: helenaCsrf, digest, remove: "100" });
    expect(replay.status).toBe(410);
    expect(await faqsOf("HO-AUR-0002")).toEqual(before);
    // Her own hotel she may import.
    expect((await upload(helena, "f.csv", `entity,category,question,answer\nHO-AUR-0001,General,Is there a lift?,Yes.\n`)).status).toBe(
      200,
    );
  });

  it("refuses another organization's entities, both ways, and exports only what the person may see", async () => {
    const ines = await signedIn(INES);
    const bea = await signedIn(BOREAL);
    const aurora = await upload(bea, "f.csv", `entity,category,question,answer\nHO-AUR-0005,General,Is there a lift?,Yes.\n`);
    expect(aurora.status).toBe(400);
    expect(await aurora.text()).toContain("no brand, hotel or page HO-AUR-0005 that you may change is stored");
    const boreal = await upload(ines, "f.ndjson", JSON.stringify({ id: "HO-BOR-0001", kind: "property", name: "X", brandId: "HO-BOR" }));
    expect(boreal.status).toBe(403);
    expect(await boreal.text()).toContain("HO-BOR-0001");
    expect((await ines.request(`${CONSOLE}/export?scope=HO-BOR-0001&format=csv`)).status).toBe(404);
    expect((await bea.request(`${CONSOLE}/export?scope=HO-AUR-0005&format=json`)).status).toBe(404);
    const all = await exported(bea, "all", "ndjson");
    expect(all).not.toContain("HO-AUR");
  });

  it("round-trips CSV, NDJSON and JSON: an export imported back changes nothing", async () => {
    const bruno = await signedIn({ email: "bruno@aurora.example", password: "aurora-console-brand" });
    for (const format of ["csv", "ndjson", "json"]) {
      const file = await exported(bruno, "HO-AUR", format);
      const res = await upload(bruno, `export.${format}`, file);
      const html = await res.text();
      expect(res.status, html.slice(0, 3000)).toBe(200);
      expect(html).toContain("FAQs added: 0, changed: 0, removed: 0.");
      expect(html).not.toContain("Remove these");
      const done = await postForm(bruno, "/import/confirm", { csrf: fieldOf(html, "csrf"), digest: fieldOf(html, "digest") });
      expect(await done.text()).toContain("nothing changed");
    }
  });
});

describe("console upload, as browsers send it", () => {
  /** A multipart body as Chromium writes one: its boundary has capitals, which must not be folded. */
  async function browserUpload(
    browser: Browser,
    body: (csrf: string, boundary: string) => string,
    boundary = "----WebKitFormBoundaryQx7LmZ2pT9RkA3Vb",
  ) {
    const csrf = fieldOf(await pageOf(browser, "/import"), "csrf");
    return browser.request(`${CONSOLE}/import`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: body(csrf, boundary),
    });
  }
  const part = (boundary: string, name: string, value: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: text/csv` : ""}\r\n\r\n${value}\r\n`;

  it("reads a file whose boundary has capital letters", async () => {
    const ines = await signedIn(INES);
    const csv = await exported(ines, "HO-AUR-0004", "csv");
    const res = await browserUpload(ines, (csrf, b) => `${part(b, "csrf", csrf)}${part(b, "file", csv, "aurora-0004.csv")}--${b}--\r\n`);
    const html = await res.text();
    expect(res.status, html.slice(0, 1000)).toBe(200);
    expect(html).toContain("FAQs added: 0, changed: 0, removed: 0.");
  });

  it("says an upload arrived garbled, in plain words, and imports nothing", async () => {
    const ines = await signedIn(INES);
    const before = await faqsOf("HO-AUR-0004");
    const res = await browserUpload(ines, (csrf, b) => `${part(b, "csrf", csrf)}--${b}\r\nContent-Disposition: form-data; name="file"`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The upload arrived incomplete or garbled.");
    expect(await faqsOf("HO-AUR-0004")).toEqual(before);
  });
});

describe("what an import changes besides the FAQ list", () => {
  const auditOf = async (id: string) => (await adminJson("GET", `/audit?target=${id}`)).entries[0];

  it("previews and audits a change of only the hotel's web page, field by field", async () => {
    const ines = await signedIn(INES);
    const [record] = (await exported(ines, "HO-AUR-0006", "ndjson"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const before = record.url ?? null;
    const moved = { ...record, url: "https://aurora.example/hotels/six-moved" };
    const html = unescaped(await (await upload(ines, "url.ndjson", `${JSON.stringify(moved)}\n`)).text());
    expect(html).toContain("FAQs added: 0, changed: 0, removed: 0.");
    expect(html).toContain("Details changed (names, web pages, brands): 1.");
    expect(html).toMatch(
      /<th scope="row">Web page<\/th><td class="before">[^<]*<\/td><td class="after">https:\/\/aurora.example\/hotels\/six-moved<\/td>/,
    );
    const confirmed = await postForm(ines, "/import/confirm", { csrf: fieldOf(html, "csrf"), digest: fieldOf(html, "digest") });
    expect(confirmed.status).toBe(200);
    const entry = await auditOf("HO-AUR-0006");
    expect(entry.detail.changes).toEqual({
      fields: [{ field: "url", before, after: "https://aurora.example/hotels/six-moved" }],
      faqs: [],
    });
    expect(entry.detail.before.url ?? null).toBe(before);
    expect(entry.detail.after.url).toBe("https://aurora.example/hotels/six-moved");
  });

  it("previews and audits a change of only a Portuguese answer, and lists the translations an FAQ's removal takes", async () => {
    const ines = await signedIn(INES);
    const csv = await exported(ines, "HO-AUR-0051", "csv");
    const rows = csv.trimEnd().split("\n");
    const ptIndex = rows.findIndex((row) => /,pt,/.test(row));
    expect(ptIndex).toBeGreaterThan(0);
    const changedPt = rows.map((row, i) =>
      i === ptIndex ? row.replace(/^(HO-AUR-0051,\d*,,[^,]*,)("[^"]*"|[^,]*)/, "$1Resposta nova.") : row,
    );
    const html = unescaped(await (await upload(ines, "pt.csv", `${changedPt.join("\n")}\n`)).text());
    expect(html).toContain("FAQs added: 0, changed: 0, removed: 0.");
    expect(html).toContain("Translations added: 0, changed: 1, removed: 0.");
    expect(html).toMatch(
      /Changed \(pt\): [^<]+<\/caption>.*<th scope="row">Answer<\/th><td class="before">[^<]+<\/td><td class="after">Resposta nova.<\/td>/s,
    );
    expect((await postForm(ines, "/import/confirm", { csrf: fieldOf(html, "csrf"), digest: fieldOf(html, "digest") })).status).toBe(200);
    const entry = await auditOf("HO-AUR-0051");
    expect(entry.detail.changes.faqs).toEqual([
      expect.objectContaining({
        language: "pt",
        change: "changed",
        fields: [expect.objectContaining({ field: "answer", after: "Resposta nova." })],
      }),
    ]);

    // The first FAQ removed with its translations: each is said.
    const source = rows.find((row) => /,pt,/.test(row))!;
    const position = source.split(",")[1];
    const without = (await exported(ines, "HO-AUR-0051", "csv"))
      .trimEnd()
      .split("\n")
      .filter((row, i) => i === 0 || row.split(",")[1] !== position);
    const removal = unescaped(await (await upload(ines, "less.csv", `${without.join("\n")}\n`)).text());
    expect(removal).toContain("FAQs added: 0, changed: 0, removed: 1.");
    expect(removal).toMatch(/Translations added: 0, changed: 0, removed: [1-9]/);
    expect(removal).toContain("Removed (pt):");
  });
});

describe("removing whole hotels", () => {
  const hotel = (n: number) => ({
    id: `HO-RMV-${n}`,
    kind: "property",
    name: `Remove ${n}`,
    brandId: "HO-RMV",
    propertyId: null,
    faqs: [],
  });
  const brand = { id: "HO-RMV", kind: "brand", name: "Removals", faqs: [] };

  beforeAll(async () => {
    await importRecords([brand, hotel(1), hotel(2), hotel(3)]);
    await adminJson("POST", "/organizations/org-aurora/scope", { entityId: "HO-RMV" });
  });

  it("needs a confirmation that names them, even without FAQs", async () => {
    const ines = await signedIn(INES);
    const file = [brand, hotel(1), hotel(3)].map((r) => JSON.stringify(r)).join("\n");
    const html = unescaped(await (await upload(ines, "brand.ndjson", file)).text());
    expect(html).toContain("Remove these 1 brand, hotel or page and 0 FAQs");
    const [csrf, digest] = [fieldOf(html, "csrf"), fieldOf(html, "digest")];
    expect((await postForm(ines, "/import/confirm", { csrf, digest })).status).toBe(400);
    expect((await postForm(ines, "/import/confirm", { csrf, digest, remove: "0/0" })).status).toBe(400);
    expect((await adminJson("GET", "/content/entities/HO-RMV-2/faqs")).faqs).toEqual([]);
    expect((await postForm(ines, "/import/confirm", { csrf, digest, remove: "0/1" })).status).toBe(200);
    expect((await admin("GET", "/content/entities/HO-RMV-2/faqs")).status).toBe(404);
  });

  it("refuses to remove a hotel another organization publishes or gives a role on, from either side", async () => {
    await adminJson("POST", "/organizations/org-boreal/scope", { entityId: "HO-RMV-3" });
    const ines = await signedIn(INES);
    const file = [brand, hotel(1)].map((r) => JSON.stringify(r)).join("\n");
    const res = await upload(ines, "brand.ndjson", file);
    const text = unescaped(await res.text());
    expect(res.status).toBe(403);
    expect(text).toContain("The file leaves out HO-RMV-3, which another organization also publishes or looks after");
    expect(text).not.toContain("org-boreal");
    expect(text).not.toContain("Boreal");
    // Boreal's own administrator may not remove it either: it is Aurora's brand.
    expect((await upload(await signedIn(BOREAL), "brand.ndjson", file)).status).toBe(403);
    expect((await adminJson("GET", "/organizations")).organizations.find((o: { id: string }) => o.id === "org-boreal").scope).toContain(
      "HO-RMV-3",
    );
  });

  it("refuses to remove a hotel whose brand another organization publishes", async () => {
    const shared = { id: "HO-SHR", kind: "brand", name: "Shared", faqs: [] };
    const hotelOf = (n: number) => ({
      id: `HO-SHR-${n}`,
      kind: "property",
      name: `Shared ${n}`,
      brandId: "HO-SHR",
      propertyId: null,
      faqs: [],
    });
    await importRecords([shared, hotelOf(1), hotelOf(2)]);
    await adminJson("POST", "/organizations/org-aurora/scope", { entityId: "HO-SHR" });
    await adminJson("POST", "/organizations/org-boreal/scope", { entityId: "HO-SHR" });
    const res = await upload(await signedIn(INES), "brand.ndjson", [shared, hotelOf(1)].map((r) => JSON.stringify(r)).join("\n"));
    expect(res.status).toBe(403);
    expect(unescaped(await res.text())).toContain("The file leaves out HO-SHR-2, which another organization also publishes or looks after");
    expect((await admin("GET", "/content/entities/HO-SHR-2/faqs")).status).toBe(200);
  });
});

describe("files from any spreadsheet", () => {
  const EXCEL = [
    "entity;position;category;question;answer;language;source",
    "HO-AUR-0009;1;Parking;Is there parking?;€18 per night – garage at 5 °C;;",
    "HO-AUR-0009;2;Breakfast;Is breakfast included?;Yes: café, croissants and açúcar;;",
    "HO-AUR-0009;1;;Há estacionamento?;18 € por noite – garagem a 5 °C;pt;Is there parking?",
  ].join("\r\n");

  async function uploadBytes(browser: Browser, name: string, bytes: Uint8Array): Promise<Response> {
    const form = new FormData();
    form.set("csrf", fieldOf(await pageOf(browser, "/import"), "csrf"));
    form.set("file", new File([bytes], name, { type: "text/csv" }));
    return browser.request(`${CONSOLE}/import`, { method: "POST", body: form });
  }

  it("reads Excel's Windows-1252 ';' CRLF file, says so, and saves € ° – é ç unchanged, naming what was saved", async () => {
    const ines = await signedIn(INES);
    const res = await uploadBytes(ines, "aurora.csv", windows1252(EXCEL));
    const html = unescaped(await res.text());
    expect(res.status, html.slice(0, 2000)).toBe(200);
    expect(html).toContain("Read as Windows-1252 (Excel's 'CSV (Comma delimited)').");
    expect(html).toContain("€18 per night – garage at 5 °C");
    expect(html).not.toContain("\uFFFD");
    const done = await postForm(ines, "/import/confirm", {
      csrf: fieldOf(html, "csrf"),
      digest: fieldOf(html, "digest"),
      remove: fieldOf(html, "remove"),
    });
    const result = unescaped(await done.text());
    expect(done.status, result.slice(0, 2000)).toBe(200);
    expect(result).toMatch(/<li>[^<]+ \(HO-AUR-0009\): [^<]*FAQs? (added|changed)/);
    const faqs = await faqsOf("HO-AUR-0009");
    expect(faqs.map((f) => f.answer)).toEqual(["€18 per night – garage at 5 °C", "Yes: café, croissants and açúcar"]);
  });

  it("reads UTF-16 'Unicode Text' (tab-separated) and says so", async () => {
    const ines = await signedIn(INES);
    const res = await uploadBytes(ines, "aurora.txt", utf16(EXCEL.replaceAll(";", "\t")));
    const html = unescaped(await res.text());
    expect(res.status, html.slice(0, 2000)).toBe(200);
    expect(html).toContain("Read as UTF-16 little-endian (Excel's 'Unicode Text').");
  });

  it("refuses a file that is not text, with the line, and imports nothing", async () => {
    const ines = await signedIn(INES);
    const before = await faqsOf("HO-AUR-0009");
    const res = await uploadBytes(ines, "photo.csv", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    const html = unescaped(await res.text());
    expect(res.status).toBe(400);
    expect(html).toContain("<td>2</td><td>The file</td><td>The file holds the control character U+001A, which is not text.");
    expect(await faqsOf("HO-AUR-0009")).toEqual(before);
  });

  it("answers another organization's hotel in an Excel file exactly as a missing one", async () => {
    const bea = await signedIn(BOREAL);
    const theirs = await uploadBytes(bea, "a.csv", windows1252(EXCEL));
    const missing = await uploadBytes(bea, "a.csv", windows1252(EXCEL.replaceAll("HO-AUR-0009", "HO-NONE-0009")));
    expect(theirs.status).toBe(400);
    expect(missing.status).toBe(400);
    const words = async (res: Response) => (await res.text()).replace(/<input type="hidden" name="csrf"[^>]*>/g, "");
    expect((await words(theirs)).replaceAll("HO-AUR-0009", "HO-NONE-0009")).toBe(await words(missing));
  });

  it("exports CSV with a UTF-8 byte order mark, by default, and the export imports back unchanged", async () => {
    const bruno = await signedIn(BRUNO);
    const res = await bruno.request(`${CONSOLE}/export?scope=HO-AUR-0010`);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const again = await uploadBytes(bruno, "HO-AUR-0010.csv", bytes);
    const html = unescaped(await again.text());
    expect(html).toContain("Read as UTF-8 with a byte order mark (Excel's 'CSV UTF-8').");
    expect(html).toContain("FAQs added: 0, changed: 0, removed: 0.");
  });

  it("offers a template and names every column; export chooses by name, everything first, CSV first", async () => {
    const helena = await signedIn(HELENA);
    const page = await pageOf(helena, "/import");
    for (const column of ["entity", "position", "category", "question", "answer", "language", "source"]) {
      expect(page).toContain(`<dt><code>${column}</code></dt>`);
    }
    const options = [...page.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect(options.slice(0, 2)).toEqual(["all", "HO-AUR-0001"]);
    expect(options).not.toContain("HO-AUR-0002");
    expect(options.slice(-3)).toEqual(["csv", "ndjson", "json"]);
    const template = await helena.request(`${CONSOLE}/import/template.csv`);
    expect(template.headers.get("Content-Disposition")).toBe('attachment; filename="faq-template.csv"');
    const bytes = new Uint8Array(await template.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.split("\n")[0]).toBe("entity,position,category,question,answer,language,source");
    expect(text).toContain(",pt,Is there parking?");
    // Imported as it is, it names no stored hotel, so nothing happens.
    expect((await uploadBytes(helena, "faq-template.csv", bytes)).status).toBe(400);
  });
});
