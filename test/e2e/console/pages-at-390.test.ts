import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumBrowser } from "../support/browser";
import { NARROW, pageProblems, signedInConsole } from "../support/console-pages";
import { devServer } from "../support/dev-server";

/**
 * Every console page, as an administrator, at 1280 and 390 px wide: nothing scrolls sideways, and axe-core finds
 * nothing in light or dark colours. With UPDATE_SCREENSHOTS=1 each page is kept at 390 px as docs/console/<name>-390.png
 * (and the find and replace pages at 1280 px too). Then Inês finds an FAQ by a word and replaces a text across a hotel.
 */

const server = devServer();
const chromium = chromiumBrowser();

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

describe("every console page at 1280 and 390 px", () => {
  let contexts: BrowserContext[] = [];
  let signedInPage: Page;
  let signedOutPage: Page;
  beforeAll(async () => {
    const signedOut = await chromium.browser.newContext();
    const signedIn = await signedInConsole(chromium.browser, server.origin, "ines@aurora.example", "aurora-console-admin");
    contexts = [signedOut, signedIn.context];
    signedOutPage = await signedOut.newPage();
    signedInPage = signedIn.page;
  });
  afterAll(() => Promise.all(contexts.map((context) => context.close())));

  it.each(PAGES)(
    "$name fits the window without sideways scrolling and passes axe-core in light and dark",
    async ({ name, path, signedOut, keepAt1280 }) => {
      const page = signedOut ? signedOutPage : signedInPage;
      await page.goto(`${server.origin}${path}`);
      expect(await pageProblems(page, name, { screenshotWidths: keepAt1280 ? undefined : [NARROW.width] })).toEqual([]);
    },
  );

  it("finds an FAQ by a word, then replaces a text across a hotel, leaving out one change", async () => {
    const { context, page } = await signedInConsole(chromium.browser, server.origin, "ines@aurora.example", "aurora-console-admin", NARROW);
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
