import AxeBuilder from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";

/** What the console's end-to-end files share: signing in, checking a page with axe-core, moving with the keyboard. */

const SCHEMES = ["light", "dark"] as const;
const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === "1";
/** A desktop window and a phone's. */
export const WIDE = { width: 1280, height: 900 };
export const NARROW = { width: 390, height: 844 };

/** Keeps the page as docs/console/<name>.png, when UPDATE_SCREENSHOTS=1. */
async function screenshot(page: Page, name: string): Promise<void> {
  if (!UPDATE_SCREENSHOTS) return;
  mkdirSync("docs/console", { recursive: true });
  await page.screenshot({ path: `docs/console/${name}.png`, fullPage: true });
}

/** axe-core's findings (WCAG 2.2 A and AA, best practices) in one colour scheme, as "scheme rule: target" lines. */
async function axeFindings(page: Page, colorScheme: (typeof SCHEMES)[number]): Promise<string[]> {
  await page.emulateMedia({ colorScheme });
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  return violations.flatMap((v) => v.nodes.map((node) => `${colorScheme} ${v.id}: ${node.target.join(" ")}`));
}

/**
 * What axe-core finds on the page as it is, in light and in dark colours; kept as docs/console/<name>.png (and
 * <name>-dark.png with `darkScreenshot`) when UPDATE_SCREENSHOTS=1. The page is left in light colours.
 */
export async function accessibilityProblems(page: Page, name: string, darkScreenshot = false): Promise<string[]> {
  const problems: string[] = [];
  for (const colorScheme of SCHEMES) {
    problems.push(...(await axeFindings(page, colorScheme)));
    if (colorScheme === "light" || darkScreenshot) await screenshot(page, `${name}${colorScheme === "dark" ? "-dark" : ""}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  return problems;
}

/**
 * What is wrong with the page at 1280 and at 390 px wide: sideways scrolling, and axe-core's findings in light and
 * dark colours, as lines that start with the width. With UPDATE_SCREENSHOTS=1 it is kept in light colours at each of
 * `screenshotWidths` as docs/console/<name>.png, or <name>-390.png at 390 px. The page is left at 1280 px, light.
 */
export async function pageProblems(
  page: Page,
  name: string,
  { screenshotWidths = [WIDE.width, NARROW.width] }: { screenshotWidths?: number[] } = {},
): Promise<string[]> {
  const problems: string[] = [];
  for (const size of [WIDE, NARROW]) {
    await page.setViewportSize(size);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (sideways > 0) problems.push(`${size.width} px: scrolls ${sideways} px sideways`);
    for (const colorScheme of SCHEMES) {
      problems.push(...(await axeFindings(page, colorScheme)).map((finding) => `${size.width} px: ${finding}`));
      if (colorScheme === "light" && screenshotWidths.includes(size.width))
        await screenshot(page, `${name}${size === NARROW ? "-390" : ""}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(WIDE);
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

/** Fills in and sends the console's sign-in form at `origin`; where it leads is the caller's to wait for. */
export async function signIn(page: Page, origin: string, email: string, password: string): Promise<void> {
  await page.goto(`${origin}/console/sign-in`);
  await page.fill("#email", email);
  await page.fill("#password", password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A new browser context of `browser` signed in to the console at `origin` as `email`, on its home page. */
export async function signedInConsole(
  browser: Browser,
  origin: string,
  email: string,
  password: string,
  viewport = { width: 1100, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, origin, email, password);
  await page.waitForURL((url) => url.pathname === "/console");
  return { context, page };
}
