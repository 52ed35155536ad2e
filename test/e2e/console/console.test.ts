import AxeBuilder from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type BrowserServer, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devServer } from "../support/dev-server";
import { killProcess } from "../support/processes";

/**
 * The content console against `npm run dev`, in Chromium: a hotel's editor signs in, finds her hotel, edits an FAQ
 * with the keyboard alone and asks as a guest; every page is checked by axe-core in light and dark colours. With
 * UPDATE_SCREENSHOTS=1 the pages are also kept as docs/console/<name>.png.
 */

const server = devServer();

let browserServer: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  browserServer = await chromium.launchServer({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  browser = await chromium.connect(browserServer.wsEndpoint());
});

afterAll(async () => {
  await browser?.close();
  const pid = browserServer?.process().pid;
  await browserServer?.close();
  if (pid) killProcess(pid);
});

const SCHEMES = ["light", "dark"] as const;

/**
 * What axe-core finds on the page in light and in dark colours (WCAG 2.2 A and AA and best practices), as
 * "scheme rule: target" lines; the page is left in light colours.
 */
async function accessibilityProblems(page: Page, name: string, darkScreenshot = false): Promise<string[]> {
  const problems: string[] = [];
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    if (process.env.UPDATE_SCREENSHOTS === "1" && (colorScheme === "light" || darkScreenshot)) {
      mkdirSync("docs/console", { recursive: true });
      await page.screenshot({ path: `docs/console/${name}${colorScheme === "dark" ? "-dark" : ""}.png`, fullPage: true });
    }
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"])
      .analyze();
    problems.push(...violations.flatMap((v) => v.nodes.map((node) => `${colorScheme} ${v.id}: ${node.target.join(" ")}`)));
  }
  await page.emulateMedia({ colorScheme: "light" });
  return problems;
}

/** Presses Tab until the focused element matches `selector` (at most 40 times). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) {
      expect(await page.evaluate(() => document.activeElement?.matches(":focus-visible"))).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${selector}`);
}

const NEW_ANSWER = "Yes: the indoor pool is open from 7:00 to 22:00, and the spa has a sauna; book treatments at the front desk.";

describe("content console, end to end", () => {
  it("a hotel's editor signs in, edits an FAQ with the keyboard, sees it everywhere and asks as a guest", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
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
});
