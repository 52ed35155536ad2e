import { describe, expect, it } from "vitest";
import { chromiumBrowser } from "../support/browser";
import { pageProblems, signedInConsole, WIDE } from "../support/console-pages";
import { devServer } from "../support/dev-server";

/**
 * History and undo against `npm run dev`, in Chromium: a brand's editor removes an FAQ with its translations (after
 * the confirmation page), undoes it, edits the FAQ and restores its earlier version from its history, then reads the
 * changes page. Each page is checked at 1280 and 390 px wide (no sideways scrolling) and by axe-core in light and dark
 * colours. With UPDATE_SCREENSHOTS=1 the pages are also kept as docs/console/<name>.png and <name>-390.png.
 */

const server = devServer();
const chromium = chromiumBrowser();

describe("history and undo, end to end", () => {
  it("removes an FAQ with its translations after confirming, undoes it, restores an earlier version and reads the changes", async () => {
    const { context, page } = await signedInConsole(chromium.browser, server.origin, "bruno@aurora.example", "aurora-console-brand", WIDE);
    try {
      const entity = `${server.origin}/console/entities/HO-AUR-0041`;
      await page.goto(entity);
      const question = (await page.locator("#faq-1 h2").textContent())!.replace(/^1\. /, "");
      const answer = (await page.locator("#faq-1 .texts > div").first().locator("p").first().textContent())!;
      await page.getByRole("link", { name: "Remove FAQ 1" }).click();
      await page.waitForSelector(`h1:text("Remove “${question}”?")`);
      expect(await page.textContent("main")).toContain("with its 4 translations");
      expect(await page.locator('.texts [lang="pt"]').count()).toBe(1);
      expect(await pageProblems(page, "remove")).toEqual([]);

      await page.getByRole("button", { name: "Remove it" }).click();
      const notice = page.locator('[role="status"]');
      await expect.poll(() => notice.textContent()).toContain(`Removed “${question}” with its de, es, fr and pt translations.`);
      expect(await page.locator("#faq-1 h2").textContent()).not.toContain(question);
      expect(await pageProblems(page, "removed")).toEqual([]);

      await notice.getByRole("button", { name: "Undo" }).click();
      await page.waitForSelector("text=The FAQ was restored.");
      expect(await page.locator("#faq-1 h2").textContent()).toBe(`1. ${question}`);
      expect(await page.locator('#faq-1 [lang="pt"]').count()).toBe(1);

      await page.getByRole("link", { name: "Edit FAQ 1" }).click();
      await page.fill("#answer", "A shorter answer, to be undone.");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForSelector("text=The FAQ was saved.");
      expect(await page.textContent("#faq-1")).toMatch(/Last changed by .+, \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      await page.getByRole("link", { name: "History of FAQ 1" }).click();
      await page.waitForSelector(`h1:text("History of “${question}”")`);
      // Before its first recorded change, removed, restored, changed.
      expect(await page.locator("ol.faqs > li").count()).toBe(4);
      expect(await pageProblems(page, "history")).toEqual([]);
      await page.locator("ol.faqs > li", { hasText: answer }).first().getByRole("button", { name: "Restore this version" }).click();
      await page.waitForSelector("text=The FAQ was restored.");
      expect(await page.textContent("#faq-1")).toContain(answer);

      await page.getByRole("link", { name: "Changes" }).click();
      await page.waitForSelector("h1:text('Changes')");
      const rows = await page.locator("table tbody tr").allTextContents();
      expect(rows[0]).toContain("Restored an FAQ");
      expect(rows[0]).toContain(question);
      expect(rows.some((row) => row.includes("Removed an FAQ"))).toBe(true);
      expect(await pageProblems(page, "audit")).toEqual([]);
    } finally {
      await context.close();
    }
    // Twelve axe-core runs at two widths: room for a busy machine.
  }, 240_000);
});
