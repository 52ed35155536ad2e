import { describe, expect, it } from "vitest";
import { languageOf } from "../../../src/search/languages";
import { faqSnippet, SNIPPET_WORDS } from "../../../src/search/snippet";

const en = languageOf("en");

describe("snippets", () => {
  it("marks the words whose analysis was searched for, as written", () => {
    expect(faqSnippet({ question: "Are pets allowed at Aurora Lisbon?", answer: "Dogs up to 10 kg." }, new Set(["pet"]), en)).toBe(
      "Are **pets** allowed at Aurora Lisbon?",
    );
    expect(faqSnippet({ question: "Is Wi-Fi free?", answer: "Yes." }, new Set(["wifi"]), en)).toBe("Is **Wi-Fi** free?");
  });

  it("takes the answer when it shows more of the words, and the question on a tie", () => {
    const faq = { question: "Is there parking?", answer: "A public car park is nearby; parking costs EUR 20." };
    expect(faqSnippet(faq, new Set(["park", "car"]), en)).toBe("A public **car** **park** is nearby; **parking** costs EUR 20.");
    expect(faqSnippet(faq, new Set(["nothing"]), en)).toBe("Is there parking?");
  });

  it(`shows at most ${SNIPPET_WORDS} words around the best passage, cut ends marked`, () => {
    const answer = `${"one ".repeat(30)}breakfast is served daily ${"two ".repeat(30)}`.trim();
    const snippet = faqSnippet({ question: "Hours?", answer }, new Set(["breakfast"]), en);
    expect(snippet.startsWith("…one one one one **breakfast** is served daily two")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(
      snippet
        .replace(/…|\*\*/g, "")
        .trim()
        .split(/\s+/),
    ).toHaveLength(SNIPPET_WORDS);
  });
});
