import { chromium, type Browser, type BrowserServer } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { killProcess } from "./processes";

/**
 * Debian's Chromium for the file's tests, headless: launched before them, its process stopped by ID after them
 * (no browser is ever downloaded).
 */
export function chromiumBrowser(): { readonly browser: Browser } {
  let server: BrowserServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await chromium.launchServer({
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    browser = await chromium.connect(server.wsEndpoint());
  });
  afterAll(async () => {
    await browser?.close();
    const pid = server?.process().pid;
    await server?.close();
    if (pid) killProcess(pid);
  });
  return {
    get browser() {
      if (!browser) throw new Error("Chromium has not started");
      return browser;
    },
  };
}
