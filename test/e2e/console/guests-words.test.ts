import AxeBuilder from "@axe-core/playwright";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumBrowser } from "../support/browser";
import { devServer, realmTokenResponse } from "../support/dev-server";

/**
 * Guests' words teach the search, end to end: a question an assistant asks through MCP gets `none`, shows in the
 * console's unanswered list, a hotel's editor attaches it in Chromium to the FAQ that answers it, and the same
 * question asked again gets that FAQ with `high`. The pages are checked by axe-core in light and dark colours and at
 * 1280 and 390 px wide; with UPDATE_SCREENSHOTS=1 they are kept as docs/console/<name>-<width>.png.
 */

const server = devServer();
const chromium = chromiumBrowser();

const QUESTION = "Do you lend telescopes for stargazing?";
/** As the unanswered list keeps it: lower case, without its question mark. */
const KEPT = "do you lend telescopes for stargazing";

async function serviceQuery(question: string): Promise<{ confidence: string; faqs: { question: string }[] }> {
  const token = ((await (await realmTokenResponse(server.origin)).json()) as { access_token: string }).access_token;
  const client = new Client({ name: "guests-words-e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.origin}/v1/sse`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const result = await client.callTool({ name: "service_query", arguments: { entity: "HO-AUR-0001", question } });
    return result.structuredContent as { confidence: string; faqs: { question: string }[] };
  } finally {
    await client.close();
  }
}

/**
 * What axe-core finds on the page in light and dark colours, at 1280 and 390 px wide, and whether it scrolls sideways
 * at either width, as lines; the page is left at 1280 px in light colours.
 */
async function pageProblems(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)) problems.push(`${width}px: scrolls sideways`);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      if (process.env.UPDATE_SCREENSHOTS === "1" && colorScheme === "light") {
        mkdirSync("docs/console", { recursive: true });
        await page.screenshot({ path: `docs/console/${name}-${width}.png`, fullPage: true });
      }
      const { violations } = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"])
        .analyze();
      problems.push(...violations.flatMap((v) => v.nodes.map((node) => `${width}px ${colorScheme} ${v.id}: ${node.target.join(" ")}`)));
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
  return problems;
}

describe("guests' words, end to end", () => {
  it("a question no FAQ answered is attached to one in the console, and asking it again gets that FAQ with high", async () => {
    expect((await serviceQuery(QUESTION)).confidence).toBe("none");

    const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${server.origin}/console/sign-in`);
      await page.fill("#email", "helena@aurora.example");
      await page.fill("#password", "aurora-console-hotel");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/console");

      await page.goto(`${server.origin}/console/unanswered`);
      const row = page.locator("tr", { hasText: KEPT });
      expect(await row.count()).toBe(1);
      expect(await pageProblems(page, "unanswered")).toEqual([]);
      await row.getByRole("link", { name: /attach/i }).click();
      await page.waitForURL((url) => url.pathname === "/console/entities/HO-AUR-0001/unanswered/attach");
      expect(await page.locator("#questions").textContent()).toContain(KEPT);
      expect(await pageProblems(page, "attach")).toEqual([]);

      const first = page.locator(".choices label").first();
      const chosen = ((await first.locator("span").first().textContent()) ?? "").replace(" · close match", "");
      await first.locator("input").check();
      await page.getByRole("button", { name: "Attach" }).click();
      await page.waitForURL((url) => url.pathname === "/console/unanswered" && url.searchParams.get("done") === "attached");
      expect(await page.locator("[role=status]").textContent()).toContain("Attached");
      await page.goto(`${server.origin}/console/unanswered?state=handled`);
      expect(await page.locator("tr", { hasText: KEPT }).textContent()).toContain(`Attached to “${chosen}”`);

      const again = await serviceQuery(QUESTION);
      expect(again.confidence).toBe("high");
      expect(again.faqs[0]!.question).toBe(chosen);
    } finally {
      await context.close();
    }
  });
});
