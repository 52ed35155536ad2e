import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import { afterAll, describe, expect, it } from "vitest";
import { devServer, realmTokenResponse } from "../support/dev-server";
import { chromiumBrowser } from "../support/browser";
import { accessibilityProblems, signedInConsole, tabTo } from "../support/console-pages";

/**
 * The content console against `npm run dev`, in Chromium, one workflow each: a hotel's editor edits an FAQ with the
 * keyboard alone and asks as a guest; she answers a question an assistant could not (people-week.test.ts has the
 * people pages); an administrator imports a spreadsheet, confirms its removals and sees who changed
 * what; an administrator issues a partner's API key. Every page is checked by axe-core in light and dark colours.
 * With UPDATE_SCREENSHOTS=1 the pages are also kept as docs/console/<name>.png.
 */

const server = devServer();

const chromium = chromiumBrowser();

const uploads = mkdtempSync(join(tmpdir(), "console-uploads-"));

afterAll(() => {
  rmSync(uploads, { recursive: true, force: true });
});

/** A new browser context signed in to the console as `email`. */
const signedInPage = (email: string, password: string) => signedInConsole(chromium.browser, server.origin, email, password);

const NEW_ANSWER = "Yes: the indoor pool is open from 7:00 to 22:00, and the spa has a sauna; book treatments at the front desk.";

describe("content console, end to end", () => {
  it("a hotel's editor signs in, edits an FAQ with the keyboard, sees it everywhere and asks as a guest", async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${server.origin}/console`);
      await page.waitForURL((url) => url.pathname === "/console/sign-in");
      expect(await accessibilityProblems(page, "sign-in")).toEqual([]);
      await tabTo(page, "#email");
      await page.keyboard.type("helena@aurora.example");
      await page.keyboard.press("Tab");
      await page.keyboard.type("aurora-console-hotel");
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/console");

      await tabTo(page, "#q");
      await page.keyboard.type("HO-AUR-0001");
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.searchParams.get("q") === "HO-AUR-0001");
      expect(await page.locator("caption").textContent()).toBe("1 found.");
      expect(await accessibilityProblems(page, "entities")).toEqual([]);
      await tabTo(page, 'a[href="/console/entities/HO-AUR-0001"]');
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/console/entities/HO-AUR-0001");
      expect(await accessibilityProblems(page, "entity", true)).toEqual([]);

      // FAQ 1 with the keyboard alone: its Edit link, the answer replaced, Save.
      await tabTo(page, 'a[href="/console/entities/HO-AUR-0001/faqs/1"]');
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/console/entities/HO-AUR-0001/faqs/1");
      expect(await accessibilityProblems(page, "edit")).toEqual([]);
      const question = await page.inputValue("#question");
      await tabTo(page, "#answer");
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type(NEW_ANSWER);
      await tabTo(page, 'button[type="submit"].primary');
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/console/entities/HO-AUR-0001" && url.searchParams.get("done") === "replace");
      expect(await page.locator('[role="status"]').textContent()).toBe("The FAQ was saved.");
      expect(await page.locator("#faq-1").textContent()).toContain(NEW_ANSWER);

      // The content API serves it (within the content version's second).
      let served = "";
      for (let i = 0; i < 20 && !served.includes(NEW_ANSWER); i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 250));
        const res = await fetch(`${server.origin}/api/v3/content/HO-AUR-0001/faq.json`, { headers: { "X-API-Key": "demo-key" } });
        expect(res.status).toBe(200);
        served = JSON.stringify(await res.json());
      }
      expect(served).toContain(NEW_ANSWER);
      expect(served).toContain(JSON.stringify(question));

      // Ask as a guest, from the entity page, with the keyboard.
      await tabTo(page, 'a[href="/console/entities/HO-AUR-0001/ask"]');
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/console/entities/HO-AUR-0001/ask");
      await tabTo(page, "#question");
      await page.keyboard.type("Is there parking?");
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.searchParams.get("question") === "Is there parking?");
      expect(await page.locator(".confidence").textContent()).toMatch(/^(Answers it|Related, may not answer)$/);
      expect(await page.locator("ol.faqs > li").count()).toBeGreaterThan(0);
      expect(await accessibilityProblems(page, "ask")).toEqual([]);
    } finally {
      await context.close();
    }
  });
  it("a hotel's editor answers a question an assistant could not, and asking it again finds the new FAQ", async () => {
    const question = "Is there a piano in the lobby that guests may play?";
    const token = ((await (await realmTokenResponse(server.origin)).json()) as { access_token: string }).access_token;
    const client = new Client({ name: "console-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.origin}/v1/sse`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const asked = await client.callTool({ name: "service_query", arguments: { entity: "HO-AUR-0001", question } });
      expect((asked.structuredContent as { confidence: string }).confidence).toBe("none");
    } finally {
      await client.close();
    }

    const { context, page } = await signedInPage("helena@aurora.example", "aurora-console-hotel");
    try {
      await page.goto(`${server.origin}/console/unanswered`);
      expect(await accessibilityProblems(page, "unanswered")).toEqual([]);
      // Kept as guests asked it, in lower case and without its question mark.
      const row = page.locator("tr", { hasText: "is there a piano in the lobby that guests may play" });
      expect(await row.count()).toBe(1);
      await row.getByRole("link", { name: /with a new FAQ/ }).click();
      await page.waitForURL((url) => url.pathname === "/console/entities/HO-AUR-0001/unanswered/answer");
      expect(await page.inputValue("#question")).toMatch(/^Is there a piano in the lobby that guests may play\??$/);
      expect(await accessibilityProblems(page, "add")).toEqual([]);
      await page.fill("#answer", "Yes: the grand piano in the lobby is yours to play from 10:00 to 20:00.");
      await page.fill("#category", "Facilities");
      await page.getByRole("button", { name: "Add the FAQ" }).click();
      await page.waitForURL((url) => url.pathname === "/console/unanswered" && url.searchParams.get("done") === "answered");

      await page.goto(`${server.origin}/console/entities/HO-AUR-0001/ask?${new URLSearchParams({ question })}`);
      expect(await page.locator("ol.faqs > li").first().textContent()).toContain("grand piano");
      expect(await page.locator(".confidence").textContent()).toBe("Answers it");
    } finally {
      await context.close();
    }
  });

  it("a second save of the same FAQ is refused with what changed, and a file with problems lists them all", async () => {
    const { context, page } = await signedInPage("bruno@aurora.example", "aurora-console-brand");
    try {
      const edit = `${server.origin}/console/entities/HO-AUR-0004/faqs/2`;
      const other = await context.newPage();
      await Promise.all([page.goto(edit), other.goto(edit)]);
      await page.fill("#answer", "Changed in the first tab.");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((url) => url.searchParams.get("done") === "replace");
      await other.fill("#answer", "Changed in the second tab.");
      await other.getByRole("button", { name: "Save" }).click();
      await other.waitForSelector("text=Changed in the first tab.");
      expect(await accessibilityProblems(other, "conflict")).toEqual([]);

      await page.goto(`${server.origin}/console/import`);
      const file = join(uploads, "problems.csv");
      writeFileSync(file, "entity,category,question,answer\nHO-AUR-0004,,Is there a pool?,\nHO-AUR-0004,Wellness,,Yes.\n");
      await page.setInputFiles("#file", file);
      await page.getByRole("button", { name: "Check the file" }).click();
      await page.waitForSelector("tr.problem");
      expect(await page.locator("tr.problem").count()).toBeGreaterThanOrEqual(3);
      expect(await accessibilityProblems(page, "import-problems")).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("an administrator imports a spreadsheet, confirms its removals, and sees who changed what", async () => {
    const { context, page } = await signedInPage("ines@aurora.example", "aurora-console-admin");
    try {
      await page.goto(`${server.origin}/console/import`);
      expect(await accessibilityProblems(page, "import")).toEqual([]);
      const exported = await page.request.get(`${server.origin}/console/export?scope=HO-AUR-0003&format=csv`);
      expect(exported.status()).toBe(200);
      const sheet = Papa.parse<Record<string, string>>(await exported.text(), { header: true, skipEmptyLines: true });
      const own = sheet.data.filter((row) => row.language === "");
      const last = own.at(-1)!.question;
      // The last FAQ (and its translations) left out, the first one's answer changed, one FAQ added.
      const rows = sheet.data.filter((row) => row.question !== last && row.source !== last);
      const first = rows[0]!;
      rows[0] = { ...first, answer: `${first.answer} Ask at the front desk for a map.` };
      rows.push({
        ...rows[0],
        position: "",
        question: "Can I store my surfboard at the hotel?",
        answer: "Yes, in the locked room by the garage.",
        language: "",
        source: "",
      });
      const file = join(uploads, "aurora-0003.csv");
      writeFileSync(file, Papa.unparse(rows, { columns: sheet.meta.fields }));

      await page.setInputFiles("#file", file);
      await page.getByRole("button", { name: "Check the file" }).click();
      await page.waitForURL((url) => url.pathname === "/console/import");
      expect(await page.locator("#summary p").nth(1).textContent()).toBe("FAQs added: 1, changed: 1, removed: 1.");
      expect(await page.locator("table.changes caption", { hasText: "Removed (en)" }).textContent()).toBe(`Removed (en): ${last}`);
      expect(await accessibilityProblems(page, "import-preview")).toEqual([]);
      // Without ticking the removals nothing happens; ticked, the file is imported.
      await page.getByRole("button", { name: "Import" }).click();
      await page.waitForSelector('[role="alert"]');
      await page.check("#confirm-removals");
      await page.getByRole("button", { name: "Import" }).click();
      await page.waitForSelector("h1:text('Imported')");

      await page.goto(
        `${server.origin}/console/audit?${new URLSearchParams({ person: "ines@aurora.example", entity: "HO-AUR-0003" })}#audit`,
      );
      const changes = await page.locator("#audit ~ table tbody tr").allTextContents();
      expect(changes.length).toBeGreaterThan(0);
      expect(changes.every((row) => row.includes("ines@aurora.example") && row.includes("HO-AUR-0003"))).toBe(true);
      expect(changes[0]).toContain("Imported FAQs");
      expect(changes[0]).toContain('Added (en): "Can I store my surfboard at the hotel?"');
      expect(changes[0]).toContain(`Removed (en): ${JSON.stringify(last)}`);
      expect(await accessibilityProblems(page, "audit")).toEqual([]);
      await page.goto(`${server.origin}/console/access`);
      expect(await accessibilityProblems(page, "access")).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("an administrator issues a partner's API key and sees it counted", async () => {
    const { context, page } = await signedInPage("ines@aurora.example", "aurora-console-admin");
    try {
      await page.goto(`${server.origin}/console/access`);
      await page.fill("#partner", "Porto Walks");
      await page.fill("#hourlyLimit", "60");
      await page.getByRole("button", { name: "Issue the key" }).click();
      const key = (await page.locator('[role="status"] code').textContent()) ?? "";
      expect(key).toMatch(/^hck_/);
      expect(await accessibilityProblems(page, "api-key")).toEqual([]);
      const res = await fetch(`${server.origin}/api/v3/content/HO-AUR/properties`, { headers: { "X-API-Key": key } });
      expect(res.status).toBe(200);
      await page.goto(`${server.origin}/console/access#keys`);
      expect(await page.locator("tr", { hasText: "Porto Walks" }).locator("td").nth(1).textContent()).toBe("1");
    } finally {
      await context.close();
    }
  });
});
