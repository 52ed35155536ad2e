import AxeBuilder from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumBrowser } from "../support/browser";
import { devServer } from "../support/dev-server";

/**
 * Every console page, as an administrator, at 1280 and 390 px wide: nothing scrolls sideways, and axe-core finds
 * nothing in light or dark colours. With UPDATE_SCREENSHOTS=1 each page is kept at 390 px as docs/console/<name>-390.png
 * (and the find and replace pages at 1280 px too). Then Inês finds an FAQ by a word and replaces a text across a hotel.
 */

const server = devServer();
const chromium = chromiumBrowser();

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === "1";
const WIDTHS = [1280, 390] as const;
const SCHEMES = ["light", "dark"] as const;

/** Every page of the console: its name (the screenshot's), its path, and whether it is seen signed out. */
const PAGES: { name: string; path: string; signedOut?: boolean; keepAt1280?: boolean }[] = [
  { name: "sign-in", path: "/console/sign-in", signedOut: true },
  { name: "home", path: "/console" },
  { name: "find", path: "/console?q=parking", keepAt1280: true },
  { name: "entity", path: "/console/entities/HO-AUR-0041" },
  { name: "edit", path: "/console/entities/HO-AUR-0001/faqs/1" },
  { name: "add", path: "/console/entities/HO-AUR-0001/faqs/new" },
  { name: "ask", path: "/console/entities/HO-AUR-0001/ask?question=Is+there+parking%3F" },
  { name: "unanswered", path: "/console/unanswered" },
  { name: "import", path: "/console/import" },
  { name: "people", path: "/console/people" },
  { name: "person", path: "/console/people/person-bruno" },
  { name: "access", path: "/console/access" },
  { name: "api-key", path: "/console/access/keys/key-aurora-partner" },
  { name: "password", path: "/console/password" },
  { name: "replace", path: "/console/replace", keepAt1280: true },
  { name: "replace-preview", path: "/console/replace?scope=HO-AUR-0041&find=Wi-Fi&replacement=WLAN", keepAt1280: true },
  { name: "not-found", path: "/console/entities/HO-BOR-0001" },
  { name: "translation", path: "/console/entities/HO-AUR-0041/faqs/1/translations/pt" },
  { name: "translation-remove", path: "/console/entities/HO-AUR-0041/faqs/1/translations/pt/remove" },
  { name: "not-translated", path: "/console/translations?brand=HO-AUR" },
  { name: "faq-history", path: "/console/entities/HO-AUR-0041/faqs/1/history" },
  { name: "faq-remove", path: "/console/entities/HO-AUR-0041/faqs/2/remove" },
  { name: "changes", path: "/console/audit" },
  { name: "attach-form", path: "/console/entities/HO-AUR-0001/unanswered/attach?q=can+i+bring+my+dog" },
  { name: "answer-form", path: "/console/entities/HO-AUR-0001/unanswered/answer?q=posso+levar+o+meu+c%C3%A3o&language=pt" },
];

/** What axe-core finds on the page in light and dark colours (WCAG 2.2 A and AA, best practices), as "scheme rule: target". */
async function accessibilityProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"])
      .analyze();
    problems.push(...violations.flatMap((v) => v.nodes.map((node) => `${colorScheme} ${v.id}: ${node.target.join(" ")}`)));
  }
  await page.emulateMedia({ colorScheme: "light" });
  return problems;
}

/** How far the page scrolls sideways: 0 when it fits its window. */
const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function signedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.origin}/console/sign-in`);
  await page.fill("#email", "ines@aurora.example");
  await page.fill("#password", "aurora-console-admin");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/console");
  return page;
}

describe("every console page at 1280 and 390 px", () => {
  let contexts: BrowserContext[] = [];
  let signedInPage: Page;
  let signedOutPage: Page;
  beforeAll(async () => {
    contexts = [await chromium.browser.newContext(), await chromium.browser.newContext()];
    signedOutPage = await contexts[0]!.newPage();
    signedInPage = await signedIn(contexts[1]!);
    if (SCREENSHOTS) mkdirSync("docs/console", { recursive: true });
  });
  afterAll(() => Promise.all(contexts.map((context) => context.close())));

  it.each(PAGES)(
    "$name fits the window without sideways scrolling and passes axe-core in light and dark",
    async ({ name, path, signedOut, keepAt1280 }) => {
      const page = signedOut ? signedOutPage : signedInPage;
      const problems: string[] = [];
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto(`${server.origin}${path}`);
        const overflow = await sidewaysScroll(page);
        if (overflow > 0) problems.push(`at ${width} px it scrolls ${overflow} px sideways`);
        problems.push(...(await accessibilityProblems(page)).map((problem) => `at ${width} px: ${problem}`));
        if (SCREENSHOTS && (width === 390 || keepAt1280))
          await page.screenshot({ path: `docs/console/${name}${width === 390 ? "-390" : ""}.png`, fullPage: true });
      }
      expect(problems).toEqual([]);
    },
  );

  it("finds an FAQ by a word, then replaces a text across a hotel, leaving out one change", async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await signedIn(context);
    await page.getByRole("searchbox").fill("estacionamento");
    await page.getByRole("button", { name: "Search" }).click();
    const first = page.locator("ol.found a").first();
    const target = await first.getAttribute("href");
    await first.click();
    await page.waitForURL((url) => `${url.pathname}${url.hash}` === target);
    expect(await page.locator(target!.slice(target!.indexOf("#"))).textContent()).toContain("estacionamento");

    await page.goto(`${server.origin}/console`);
    await page.getByRole("link", { name: "Find and replace" }).click();
    await page.selectOption("#scope", "HO-AUR-0041");
    await page.fill("#find", "Wi-Fi");
    await page.fill("#replacement", "Wireless");
    await page.getByRole("button", { name: "Preview the changes" }).click();
    const boxes = page.locator('input[name="change"]');
    const listed = await boxes.count();
    expect(listed).toBeGreaterThan(1);
    // The checkbox sits beside its label, on one line.
    const [box, label] = [await boxes.first().boundingBox(), await page.locator(`label[for="change-0"]`).boundingBox()];
    expect(Math.abs(box!.y + box!.height / 2 - (label!.y + label!.height / 2))).toBeLessThan(box!.height);
    await boxes.first().uncheck();
    await page.getByRole("button", { name: `Replace ${listed}` }).click();
    await page.waitForURL((url) => url.searchParams.get("replaced") === String(listed - 1));
    expect(await page.getByRole("status").textContent()).toBe(`${listed - 1} changes were saved.`);
    await page.goto(`${server.origin}/console/entities/HO-AUR-0041`);
    const text = await page.locator("ol.faqs").textContent();
    // The first change, left out, is the English question's.
    expect(text).toContain("Is Wi-Fi free");
    expect(text).toContain("high-speed Wireless");
    await context.close();
  });
});
