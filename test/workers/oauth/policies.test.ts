import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { policyBlocks } from "../../../src/oauth/policies";
import { fetchWith } from "../support/app";
import { BASE } from "../support/mcp";

/** /privacy and /terms: what app directories ask a connector to link, plain pages like the sign-in page. */

describe("the privacy policy and the terms of use", () => {
  it("say by default what is kept, why and for how long, on pages with the sign-in pages' headers", async () => {
    const privacy = await SELF.fetch(`${BASE}/privacy`);
    expect(privacy.status).toBe(200);
    expect(privacy.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(privacy.headers.get("Content-Security-Policy")).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(privacy.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const html = await privacy.text();
    expect(html).toContain("<h1>Privacy policy</h1>");
    expect(html).toContain("<title>Privacy policy · Hospitality Content</title>");
    // The unanswered questions' log, how it is redacted and kept; accounts, tokens, sessions and the audit.
    for (const fact of [
      "placeholders such as [email] and [phone]",
      "deleted after 30 days",
      "PBKDF2",
      "An access token lasts one hour",
      "12 hours",
      "before and after",
    ])
      expect(html).toContain(fact);
    expect(html).toMatch(/<h2>People who sign in<\/h2>\s*<ul><li>/);
    expect(html).toContain(
      '<nav class="policies" aria-label="Policies"><a href="/privacy">Privacy policy</a><a href="/terms">Terms of use</a></nav>',
    );

    const terms = await (await SELF.fetch(`${BASE}/terms`)).text();
    expect(terms).toContain("<h1>Terms of use</h1>");
    expect(terms).toContain("none when the content does not say");
  });

  it("show the operator's text instead, every character as written", async () => {
    const vars = {
      SERVICE_NAME: "Aurora Guest Answers",
      PRIVACY_POLICY: "{service} keeps little.\nVery little.\n\n## What <b>we</b> keep\n- one\n- two & three\n\n<script>alert(1)</script>",
      TERMS_OF_USE: "Be kind.",
    };
    const html = await (await fetchWith(new Request(`${BASE}/privacy`), vars)).text();
    expect(html).toContain("<p>Aurora Guest Answers keeps little. Very little.</p>");
    expect(html).toContain("<h2>What &#60;b&#62;we&#60;/b&#62; keep</h2>");
    expect(html).toContain("<ul><li>one</li><li>two &#38; three</li></ul>");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("PBKDF2");
    expect(await (await fetchWith(new Request(`${BASE}/terms`), vars)).text()).toContain("<p>Be kind.</p>");
  });

  it("read plain text into paragraphs, headings and lists", () => {
    expect(policyBlocks("a\nb\n\n## H\n- x\n- y\nz\n\n\n- w", "S")).toEqual([
      { paragraph: "a b" },
      { heading: "H" },
      { items: ["x", "y"] },
      { paragraph: "z" },
      { items: ["w"] },
    ]);
  });
});
