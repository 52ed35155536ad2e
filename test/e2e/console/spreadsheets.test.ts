import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { utf16, windows1252 } from "../../workers/support/encodings";
import { chromiumBrowser } from "../support/browser";
import { pageProblems, signedInConsole, WIDE } from "../support/console-pages";
import { ROOT } from "../../../scripts/lib/servers.mjs";
import { devServer } from "../support/dev-server";
import { runNode } from "../support/processes";

/**
 * Files from any spreadsheet, in Chromium against `npm run dev`: an administrator uploads what Excel saves as
 * "CSV (Comma delimited)" (Windows-1252, ';' and CRLF) and as "Unicode Text" (UTF-16, tabs), sees how each was read,
 * imports it, and the content API serves € ° – é ç and the Portuguese text unchanged. Each page is checked at 1280
 * and 390 px (no sideways scrolling) and by axe-core in light and dark; with UPDATE_SCREENSHOTS=1 it is kept as
 * docs/console/spreadsheets-<page>[-390].png.
 */

const server = devServer();
const chromium = chromiumBrowser();
const files = mkdtempSync(join(tmpdir(), "spreadsheets-"));

afterAll(() => {
  rmSync(files, { recursive: true, force: true });
});

const PARKING = "€18 per night – the garage stays at 5 °C; café and crème brûlée at the bar, façade lit until 23:00.";
const PARKING_PT = "18 € por noite – a garagem fica a 5 °C; pão, café e açúcar no bar, fachada iluminada até às 23:00.";

/** Excel's "CSV (Comma delimited)" in a European locale: ';' between cells, CRLF, the answer with a ';' quoted. */
const EXCEL_CSV = [
  "entity;position;category;question;answer;language;source",
  `HO-AUR-0011;1;Parking;Is there parking?;"${PARKING}";;`,
  "HO-AUR-0011;2;Breakfast;Is breakfast included?;Yes, from 7:00 – with café au lait.;;",
  `HO-AUR-0011;1;;Há estacionamento?;"${PARKING_PT}";pt;Is there parking?`,
  "",
].join("\r\n");

/** Excel's "Unicode Text": tabs between cells. */
const UNICODE_TEXT = EXCEL_CSV.replaceAll("HO-AUR-0011", "HO-AUR-0012")
  .replaceAll(";", "\t")
  .replace(/"([^"]*)"/g, (_, cell: string) => cell.replaceAll("\t", ";"));

const served = async (entityId: string, query = "") => {
  const res = await fetch(`${server.origin}/api/v3/content/${entityId}/faq.json${query}`, { headers: { "X-API-Key": "demo-key" } });
  expect(res.status).toBe(200);
  return res.text();
};

/** Uploads `bytes` as `name` from the import page, and waits for the check. */
async function check(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  const path = join(files, name);
  writeFileSync(path, bytes);
  await page.goto(`${server.origin}/console/import`);
  await page.setInputFiles("#file", path);
  await page.getByRole("button", { name: "Check the file" }).click();
  await page.waitForSelector("h1:text('Check the import')");
}

describe("files from any spreadsheet, end to end", () => {
  it("an administrator imports Excel's Windows-1252 and UTF-16 files, and the content API serves their text unchanged", async () => {
    const { context, page } = await signedInConsole(chromium.browser, server.origin, "ines@aurora.example", "aurora-console-admin", WIDE);
    try {
      await page.goto(`${server.origin}/console/import`);
      expect(await page.locator("dl.columns dt").allTextContents()).toEqual([
        "entity",
        "position",
        "category",
        "question",
        "answer",
        "language",
        "source",
        "phrasings",
      ]);
      expect(await page.locator("#scope option").first().textContent()).toBe("Everything I may see");
      expect(await page.locator("#format").inputValue()).toBe("csv");
      expect(await pageProblems(page, "spreadsheets-import")).toEqual([]);

      await check(page, "aurora-0011.csv", windows1252(EXCEL_CSV));
      const summary = await page.locator("#summary").textContent();
      expect(summary).toContain("Read as Windows-1252 (Excel's 'CSV (Comma delimited)').");
      expect(await page.locator("main").textContent()).toContain(PARKING);
      expect(await page.locator("main").textContent()).toContain(PARKING_PT);
      expect(await pageProblems(page, "spreadsheets-preview")).toEqual([]);
      await page.check("#confirm-removals");
      await page.getByRole("button", { name: "Import" }).first().click();
      await page.waitForSelector("h1:text('Imported')");
      expect(await page.locator("#saved li").allTextContents()).toEqual([
        expect.stringMatching(/\(HO-AUR-0011\): .*FAQs? (added|changed)/),
      ]);
      expect(await pageProblems(page, "spreadsheets-result")).toEqual([]);

      expect(await served("HO-AUR-0011")).toContain(JSON.stringify(PARKING).slice(1, -1));
      expect(await served("HO-AUR-0011", "?lang=pt")).toContain(JSON.stringify(PARKING_PT).slice(1, -1));

      await check(page, "aurora-0012.txt", utf16(UNICODE_TEXT));
      expect(await page.locator("#summary").textContent()).toContain("Read as UTF-16 little-endian (Excel's 'Unicode Text').");
      if ((await page.locator("#confirm-removals").count()) > 0) await page.check("#confirm-removals");
      await page.getByRole("button", { name: "Import" }).first().click();
      await page.waitForSelector("h1:text('Imported')");
      expect(await served("HO-AUR-0012")).toContain(JSON.stringify(PARKING).slice(1, -1));
      expect(await served("HO-AUR-0012", "?lang=pt")).toContain(JSON.stringify(PARKING_PT).slice(1, -1));
    } finally {
      await context.close();
    }
  });

  it("the operator's CLI sends an Excel file's bytes, says how they were read, and writes CSV with a byte order mark", async () => {
    const admin = (...args: string[]) =>
      runNode(join(ROOT, "scripts", "admin.mjs"), args, { env: { ...process.env, ADMIN_URL: server.origin }, input: "" });
    const path = join(files, "aurora-0013.csv");
    writeFileSync(path, windows1252(EXCEL_CSV.replaceAll("HO-AUR-0011", "HO-AUR-0013")));
    const imported = await admin("content", "import", path);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`Read ${path} as Windows-1252 (Excel's 'CSV (Comma delimited)').`);
    expect(await served("HO-AUR-0013", "?lang=pt")).toContain(JSON.stringify(PARKING_PT).slice(1, -1));
    const exported = join(files, "export.csv");
    expect((await admin("content", "export", exported)).code).toBe(0);
    expect([...readFileSync(exported).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(readFileSync(exported, "utf8")).toContain(PARKING_PT);
    const template = join(files, "template.csv");
    expect((await admin("content", "template", template)).code).toBe(0);
    expect(readFileSync(template, "utf8")).toMatch(/^\uFEFFentity,position,category,question,answer,language,source\n/);
  });
});
