import AxeBuilder from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";

/** What the console's end-to-end files share: signing in, checking a page with axe-core, moving with the keyboard. */

const SCHEMES = ["light", "dark"] as const;

/**
 * What axe-core finds on the page in light and in dark colours (WCAG 2.2 A and AA and best practices), as
 * "scheme rule: target" lines; the page is left in light colours.
 */
export async function accessibilityProblems(page: Page, name: string, darkScreenshot = false): Promise<string[]> {
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

/** Presses Tab until the focused element matches `selector` (at most 200 times: an entity page has many controls). */
export async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) {
      expect(await page.evaluate(() => document.activeElement?.matches(":focus-visible"))).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** A new browser context of `browser` signed in to the console at `origin` as `email`. */
export async function signedInConsole(
  browser: Browser,
  origin: string,
  email: string,
  password: string,
  viewport = { width: 1100, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${origin}/console/sign-in`);
  await page.fill("#email", email);
  await page.fill("#password", password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/console");
  return { context, page };
}
