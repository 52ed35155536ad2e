import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumBrowser } from "../support/browser";
import { accessibilityProblems, NARROW, signedInConsole } from "../support/console-pages";
import { devServer } from "../support/dev-server";

/**
 * Two people at work on one hotel's FAQs in Chromium, against `npm run dev`: edits of different FAQs both saved, the
 * same FAQ's second edit shown beside the first and made again in one step, an FAQ moved to any position in one
 * step, a translation added that the content API serves, and the brand's untranslated view on a phone-sized
 * screen. With UPDATE_SCREENSHOTS=1 the pages are kept as docs/console/<name>.png.
 */

const server = devServer();
const chromium = chromiumBrowser();

const HOTEL = "/console/entities/HO-AUR-0005";

const signedIn = (email: string, password: string, viewport?: { width: number; height: number }) =>
  signedInConsole(chromium.browser, server.origin, email, password, viewport);

/** Whether the page scrolls sideways. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

async function saveAnswer(page: Page, answer: string): Promise<void> {
  await page.fill("#answer", answer);
  await page.getByRole("button", { name: "Save", exact: true }).click();
}

describe("editing one FAQ at a time, end to end", () => {
  it("saves two people's edits of different FAQs; on the same FAQ the second sees both and re-applies theirs in one step", async () => {
    const bruno = await signedIn("bruno@aurora.example", "aurora-console-brand");
    const ines = await signedIn("ines@aurora.example", "aurora-console-admin");
    try {
      await bruno.page.goto(`${server.origin}${HOTEL}/faqs/1`);
      await ines.page.goto(`${server.origin}${HOTEL}/faqs/2`);
      await saveAnswer(bruno.page, "Bruno's answer to the first FAQ.");
      await bruno.page.waitForURL((url) => url.searchParams.get("done") === "replace");
      await saveAnswer(ines.page, "Inês's answer to the second FAQ.");
      await ines.page.waitForURL((url) => url.searchParams.get("done") === "replace");
      expect(await ines.page.locator("#faq-1").textContent()).toContain("Bruno's answer to the first FAQ.");
      expect(await ines.page.locator("#faq-2").textContent()).toContain("Inês's answer to the second FAQ.");

      await bruno.page.goto(`${server.origin}${HOTEL}/faqs/3`);
      await ines.page.goto(`${server.origin}${HOTEL}/faqs/3`);
      await saveAnswer(bruno.page, "Bruno was first on the third FAQ.");
      await bruno.page.waitForURL((url) => url.searchParams.get("done") === "replace");
      await saveAnswer(ines.page, "Inês was second on the third FAQ.");
      await ines.page.waitForSelector("text=Someone else changed this FAQ");
      const compared = await ines.page.locator(".compare").textContent();
      expect(compared).toContain("Bruno was first on the third FAQ.");
      expect(compared).toContain("Inês was second on the third FAQ.");
      expect(await accessibilityProblems(ines.page, "conflict")).toEqual([]);
      await ines.page.getByRole("button", { name: "Save yours over it" }).click();
      await ines.page.waitForURL((url) => url.searchParams.get("done") === "replace");
      expect(await ines.page.locator("#faq-3").textContent()).toContain("Inês was second on the third FAQ.");
    } finally {
      await bruno.context.close();
      await ines.context.close();
    }
  });

  it("moves the last FAQ to second place in one step and adds a Portuguese translation the content API serves", async () => {
    const { context, page } = await signedIn("bruno@aurora.example", "aurora-console-brand");
    try {
      await page.goto(`${server.origin}${HOTEL}`);
      const count = await page.locator("ol.faqs > li").count();
      const last = (await page.locator(`#faq-${count} h2`).textContent())!.replace(/^\d+\.\s*/, "");
      await page.selectOption(`#move-${count}`, "2");
      await page.locator(`#faq-${count}`).getByRole("button", { name: "Move" }).click();
      await page.waitForURL((url) => url.searchParams.get("done") === "move");
      expect(await page.locator("#faq-2 h2").textContent()).toBe(`2. ${last}`);
      expect(await accessibilityProblems(page, "entity-actions")).toEqual([]);

      await page.selectOption("#translate-1", "pt");
      await page.locator("#faq-1").getByRole("button", { name: "Translate" }).click();
      await page.waitForURL((url) => url.pathname === `${HOTEL}/faqs/1/translations/pt`);
      expect(await accessibilityProblems(page, "translation")).toEqual([]);
      await page.fill("#question", "Há estacionamento? São 18 € por noite.");
      await page.fill("#answer", "Sim: a garagem fica ao lado, por 18 € por noite; reserve na receção.");
      await page.getByRole("button", { name: "Save the Portuguese translation" }).click();
      await page.waitForURL((url) => url.searchParams.get("done") === "translate");
      expect(await page.locator('#faq-1 [lang="pt"]').textContent()).toContain("Há estacionamento? São 18 € por noite.");
      let served = "";
      for (let i = 0; i < 20 && !served.includes("reserve na receção"); i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 250));
        const res = await fetch(`${server.origin}/api/v3/content/HO-AUR-0005/faq.json?lang=pt`, { headers: { "X-API-Key": "demo-key" } });
        served = JSON.stringify(await res.json());
      }
      expect(served).toContain("Sim: a garagem fica ao lado, por 18 € por noite; reserve na receção.");
    } finally {
      await context.close();
    }
  });

  it("shows what the brand has not translated yet on a phone-sized screen, without sideways scrolling", async () => {
    const { context, page } = await signedIn("bruno@aurora.example", "aurora-console-brand", NARROW);
    try {
      await page.goto(`${server.origin}/console/translations?brand=HO-AUR`);
      expect(await page.locator("h2").first().textContent()).toMatch(/^\w+: (\d+ of \d+ FAQs not translated|everything translated)$/);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await accessibilityProblems(page, "untranslated-390")).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
