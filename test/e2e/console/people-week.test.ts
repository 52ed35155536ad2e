import { describe, expect, it } from "vitest";
import { chromiumBrowser } from "../support/browser";
import { pageProblems, signedInConsole, signIn, WIDE } from "../support/console-pages";
import { devServer } from "../support/dev-server";

/**
 * The people pages against `npm run dev`, in Chromium: an administrator invites a person and reloads the result,
 * gives her a hotel chosen by name; the person signs in and must choose her own password first; once disabled,
 * she is told so. Every page is checked at 1280 and 390 px wide, without sideways scrolling and by axe-core in light
 * and dark colours. With UPDATE_SCREENSHOTS=1 the pages are kept as docs/console/<name>.png and <name>-390.png.
 */

const server = devServer();
const chromium = chromiumBrowser();

describe("people, end to end", () => {
  // Axe-core reads each page four times (two widths, light and dark); on a loaded machine that is most of the time.
  it(
    "Inês invites Rita and reloads the result, grants her a hotel by name; Rita chooses her password; disabled, she is told so",
    { timeout: 300_000 },
    async () => {
      const signedIn = await signedInConsole(chromium.browser, server.origin, "ines@aurora.example", "aurora-console-admin", WIDE);
      const [ines, admin] = [signedIn.context, signedIn.page];
      const rita = await chromium.browser.newContext({ viewport: WIDE });
      try {
        await admin.goto(`${server.origin}/console/people`);
        expect(await pageProblems(admin, "people")).toEqual([]);

        await admin.fill("#email", "rita@aurora.example");
        await admin.fill("#displayName", "Rita Front Office");
        await admin.getByRole("button", { name: "Invite" }).click();
        await admin.waitForURL((url) => url.pathname.startsWith("/console/people/person_") && url.searchParams.get("done") === "invite");
        const password = (await admin.locator("#made-password strong").textContent()) ?? "";
        expect(password.length).toBeGreaterThanOrEqual(20);
        expect(admin.url()).not.toContain(password);
        // A reload shows the same password, once, and invites nobody again.
        await admin.reload();
        expect(await admin.locator("#made-password strong").textContent()).toBe(password);
        expect((await admin.content()).split(password).length - 1).toBe(1);
        const personPage = admin.url();
        await admin.goto(`${server.origin}/console/people`);
        expect(await admin.locator("tr", { hasText: "rita@aurora.example" }).count()).toBe(1);

        // A hotel chosen by its name, in the list grouped by brand.
        await admin.goto(personPage);
        await admin.selectOption("#role", "editor");
        await admin.selectOption("#entityId", { label: "Aurora Porto Riverside (HO-AUR-0002)" });
        await admin.getByRole("button", { name: "Give this role" }).click();
        await admin.waitForSelector("text=The role was given.");
        expect(await admin.locator("ul.roles").textContent()).toContain("Can edit Aurora Porto Riverside (HO-AUR-0002)");
        expect(await admin.locator("#changes ~ ol.history").textContent()).toContain(
          "Given: Can edit Aurora Porto Riverside (HO-AUR-0002)",
        );
        expect(await pageProblems(admin, "person")).toEqual([]);

        // Rita signs in with the password she was given, and must choose her own before anything else.
        const own = await rita.newPage();
        await signIn(own, server.origin, "rita@aurora.example", password);
        await own.waitForURL((url) => url.pathname === "/console/password");
        await own.goto(`${server.origin}/console/entities/HO-AUR-0002`);
        expect(new URL(own.url()).pathname).toBe("/console/password");
        expect(await own.locator("h1").textContent()).toBe("Choose your password");
        expect(await pageProblems(own, "password")).toEqual([]);
        await own.fill("#current", password);
        await own.fill("#next", "rita-own-password");
        await own.fill("#repeated", "rita-own-password");
        await own.getByRole("button", { name: "Change my password" }).click();
        await own.waitForSelector("text=Your password was changed.");
        await own.goto(`${server.origin}/console`);
        const links = await own.locator('a[href^="/console/entities/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")));
        expect(links).toEqual(["/console/entities/HO-AUR-0002"]);
        const other = await own.goto(`${server.origin}/console/entities/HO-AUR-0001`);
        expect(other?.status()).toBe(404);
        expect(await pageProblems(own, "not-found")).toEqual([]);

        // Disabled, she is signed out, and told why when she signs in again with the right password.
        await admin.goto(personPage.replace(/\?.*$/, ""));
        await admin.getByRole("button", { name: "Disable Rita Front Office" }).click();
        await admin.waitForSelector("text=The person was disabled");
        await signIn(own, server.origin, "rita@aurora.example", "rita-own-password");
        await own.waitForSelector("text=Your account is disabled, so you cannot sign in.");
        expect(await own.locator('[role="alert"]').textContent()).toContain("Inês Almeida");
        expect(await pageProblems(own, "sign-in-disabled")).toEqual([]);
      } finally {
        await ines.close();
        await rita.close();
      }
    },
  );
});
