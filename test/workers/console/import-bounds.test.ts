import { describe, expect, it } from "vitest";
import { adminJson } from "../support/admin";
import { BRUNO, HELENA, signedIn, unescaped, upload } from "../support/console";

/**
 * Files at the console's upload limit built to cost the most (a finding of the fourth review): each must be refused
 * with one clear problem, never a 500, and leave the content as it was. How long each takes beside a content request
 * is measured by `npm run bench -- --imports`, not asserted here.
 */

/** The most a file may be, less the multipart form around it. */
const FILE_BYTES = 4 * 1024 * 1024 - 1024;

/** `unit` repeated to fill a file of `bytes`, after `head` and before `tail`. */
function filled(head: string, unit: string, tail: string, bytes = FILE_BYTES): string {
  const times = Math.floor((bytes - head.length - tail.length) / unit.length);
  return head + unit.repeat(times) + tail;
}

const faqsOf = async (id: string) => (await adminJson("GET", `/content/entities/${id}/faqs`)).faqs as unknown[];

async function refused(name: string, text: string, expected: string[]): Promise<string> {
  expect(new TextEncoder().encode(text).byteLength).toBeLessThanOrEqual(FILE_BYTES);
  const bruno = await signedIn(BRUNO);
  const res = await upload(bruno, name, text);
  const html = unescaped(await res.text());
  expect(res.status, html.slice(0, 3000)).toBe(400);
  for (const text of expected) expect(html).toContain(text);
  // One page, not one row a line.
  expect(html.length).toBeLessThan(200_000);
  return html;
}

describe("a content file at the upload limit", () => {
  it("one NDJSON record repeating one FAQ is refused by its length, before its questions are compared", async () => {
    const before = await faqsOf("HO-AUR-0001");
    const faq = JSON.stringify({ category: "Stay", question: "Is breakfast included?", answer: "Yes." });
    const text = filled(`{"id":"HO-AUR-0001","kind":"property","brandId":"HO-AUR","name":"Aurora","faqs":[`, `${faq},`, `${faq}]}\n`);
    await refused("bomb.ndjson", text, ["1 problem", "faqs has more than 500 FAQs: an entity holds at most 500"]);
    expect(await faqsOf("HO-AUR-0001")).toEqual(before);
  });

  it("one NDJSON record with more translations than an entity may hold is refused by their number", async () => {
    const head = `{"id":"HO-AUR-0001","kind":"property","brandId":"HO-AUR","name":"Aurora","translations":[`;
    const items: string[] = [];
    let bytes = head.length + 4;
    for (let n = 0; ; n += 1) {
      const item = `${n === 0 ? "" : ","}${JSON.stringify({ language: `x-${n.toString(36)}`, name: "n" })}`;
      if (bytes + item.length > FILE_BYTES) break;
      items.push(item);
      bytes += item.length;
    }
    await refused("languages.ndjson", `${head}${items.join("")}]}\n`, ["translations has more than 100 languages"]);
  });

  it("a CSV of 160,000 translation rows in distinct languages is refused by its rows, whoever's entity it names", async () => {
    const header = "entity,position,category,question,answer,language,source\n";
    let n = 0;
    const rows: string[] = [];
    let bytes = header.length;
    for (;;) {
      const row = `HO-BOR-0001,,,q,a,l${(n += 1)},s\n`;
      if (bytes + row.length > FILE_BYTES) break;
      rows.push(row);
      bytes += row.length;
    }
    expect(rows.length).toBeGreaterThan(120_000);
    await refused("languages.csv", header + rows.join(""), ["has more than 60,000 rows"]);
  });

  it("a CSV within the rows bound but past an entity's languages says so once", async () => {
    const header = "entity,position,category,question,answer,language,source\n";
    const rows = Array.from({ length: 50_000 }, (_, n) => `HO-AUR-0001,,,q,a,l${n},s\n`).join("");
    const html = await refused("languages.csv", header + rows, ["HO-AUR-0001 has more than 100 languages: an entity holds at most 100"]);
    expect(html.match(/more than 100 languages/g)).toHaveLength(1);
  });

  for (const name of ["ones.ndjson", "ones.json", "ones.csv", "ones.txt"]) {
    it(`two million lines of "1" (${name}) are one problem`, async () => {
      const text = filled("", "1\n", "", FILE_BYTES - 2);
      const html = await refused(name, name.endsWith(".json") ? `[${text.trimEnd().replace(/\n/g, ",")}]` : text, ["problem"]);
      expect(html).toMatch(/more than 5,000 records|is missing: the first line names the columns|more than 60,000 rows/);
    });
  }

  it("a CSV whose first line names millions of columns is one problem, read from that line alone", async () => {
    const html = await refused("columns.csv", filled("entity,category,question,answer", ",x", "\n"), ["names more than 32 columns"]);
    expect(html).toContain("1 problem");
  });

  it("stops checking records once 200 problems are listed, and says how many were not checked", async () => {
    const record = (n: number) =>
      JSON.stringify({ id: `HO-AUR-9${n}`, kind: "property", brandId: "HO-AUR", name: "x", faqs: Array(500).fill({}) });
    const lines: string[] = [];
    let bytes = 0;
    for (let n = 0; bytes < FILE_BYTES - 4_000; n += 1) {
      lines.push(record(n));
      bytes += lines.at(-1)!.length + 1;
    }
    const html = await refused("empty-faqs.ndjson", lines.join("\n"), ["more records were not checked"]);
    expect(html).toContain(`${(lines.length - 1).toLocaleString("en")} more records were not checked`);
  });

  it("lists the first 200 problems of a file and counts the rest", async () => {
    const lines = Array.from({ length: 1_000 }, () => "not json").join("\n");
    const html = await refused("bad.ndjson", lines, ["1,000 problems", "…and 800 more problems"]);
    expect(html.match(/is not a JSON record/g)).toHaveLength(200);
  });
});

describe("a CSV naming an entity the person may not change", () => {
  it("answers a foreign entity exactly as a missing one, without reading it", async () => {
    const helena = await signedIn(HELENA);
    const file = (id: string) => `entity,category,question,answer,language,source\n${id},Stay,Q?,A.,,\n${id},,Q pt?,A pt.,pt,Q?\n`;
    const answers = await Promise.all(
      ["HO-BOR-0001", "HO-NOWHERE-0001", "HO-AUR-0002"].map(async (id) => {
        const res = await upload(helena, "faqs.csv", file(id));
        return { status: res.status, html: unescaped(await res.text()).replaceAll(id, "ID") };
      }),
    );
    expect(answers[0]!.status).toBe(400);
    expect(answers[0]!.html).toContain("no brand, hotel or page ID that you may change is stored");
    expect(answers[1]).toEqual(answers[0]);
    // Another hotel of her own organization she is not given is answered the same.
    expect(answers[2]).toEqual(answers[0]);
  });
});

describe("the operator's CSV upload", () => {
  it("lists the first 200 problems and says how many more", async () => {
    const { id } = await adminJson("POST", "/imports", undefined, 201);
    const rows = Array.from({ length: 500 }, (_, n) => `HO-AUR-0001,x${n},C,Q${n}?,A.,,`).join("\n");
    const body = await adminJson("POST", `/imports/${id}/csv`, {
      csv: `entity,position,category,question,answer,language,source\n${rows}\n`,
    });
    expect(body.invalid).toHaveLength(201);
    expect(body.invalid.at(-1)).toMatchObject({ field: "(file)", message: "…and 300 more problems: fix these to see them" });
  });
});
