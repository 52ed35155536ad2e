import { describe, expect, it } from "vitest";
import { actionWords, changeLines } from "../../../src/console/change-words";

const parking = { category: "Parking", question: "Is there parking?", answer: "Yes, 12 EUR a night." };
const pool = { category: "Wellness", question: "Is there a pool?", answer: "Yes, indoors." };

describe("audit rows in the content team's words", () => {
  it("names known actions and leaves an unknown one as it is", () => {
    expect(actionWords("faq.replace")).toBe("Changed an FAQ");
    expect(actionWords("api_key.update")).toBe("Changed an API key's terms");
    expect(actionWords("signing_key.rotate")).toBe("signing_key.rotate");
  });

  it("says what one FAQ's edit changed, field by field, naming the FAQ by its question", () => {
    expect(changeLines({ before: null, after: { ...parking, position: 3 } })).toEqual([
      'FAQ "Is there parking?" (number 3)',
      'Answer: "Yes, 12 EUR a night."',
    ]);
    expect(changeLines({ before: { ...parking, position: 3 }, after: null })).toEqual(['FAQ "Is there parking?" (number 3)']);
    expect(changeLines({ before: { ...parking, position: 3 }, after: { ...parking, answer: "No.", position: 3 } })).toEqual([
      'FAQ "Is there parking?" (number 3)',
      'Answer: "Yes, 12 EUR a night." → "No."',
    ]);
    expect(changeLines({ before: { ...parking, position: 3 }, after: { ...parking, position: 1 } })).toEqual([
      'FAQ "Is there parking?" (number 3)',
      "Position: 3 → 1",
    ]);
    expect(actionWords("faq.restore")).toBe("Restored an FAQ");
  });

  it("says what an import added, changed and removed, by question", () => {
    expect(
      changeLines({
        status: "changed",
        before: [parking, pool],
        after: [
          { ...parking, answer: "No." },
          { ...pool, question: "Pool?" },
        ],
      }),
    ).toEqual([
      'Changed: "Is there parking?"',
      '  Answer: "Yes, 12 EUR a night." → "No."',
      'Added: "Pool?"',
      'Removed: "Is there a pool?"',
    ]);
    expect(changeLines({ before: [parking, pool], after: [pool, parking] })).toEqual(["The FAQs' order changed."]);
    expect(changeLines({ before: [parking, pool], after: null })).toEqual(["All 2 FAQs removed with it."]);
  });

  it("shows other details as field and value, from → to where it changed, and cuts long text", () => {
    expect(changeLines({ hourlyLimit: { from: 10, to: 20 }, expiresAt: { from: null, to: "2099-12-31" } })).toEqual([
      "hourlyLimit: 10 → 20",
      "expiresAt: none → 2099-12-31",
    ]);
    expect(changeLines({ partner: "Porto Walks", brands: ["HO-AUR"] })).toEqual(["partner: Porto Walks", 'brands: ["HO-AUR"]']);
    expect(changeLines(null)).toEqual([]);
    const long = changeLines({ before: null, after: { ...parking, answer: "x".repeat(500), position: 1 } })[1]!;
    expect(long.length).toBeLessThan(160);
    expect(long.endsWith('…"')).toBe(true);
    const whole = changeLines(
      { before: null, after: { ...parking, answer: "x".repeat(500), position: 1 } },
      undefined,
      Number.POSITIVE_INFINITY,
    )[1]!;
    expect(whole).toBe(`Answer: "${"x".repeat(500)}"`);
  });

  it("says an import's changes to fields and translations, and escapes quotes and line breaks in values", () => {
    expect(
      changeLines({
        status: "changed",
        changes: {
          fields: [{ field: "url", before: "https://a.example/one", after: "https://a.example/two" }],
          faqs: [
            { language: "pt", change: "changed", question: "Há piscina?", fields: [{ field: "answer", before: "Sim.", after: "Não." }] },
            { language: "pt", change: "removed", question: "Aceitam cães?", fields: [] },
          ],
        },
      }),
    ).toEqual([
      'Web page: "https://a.example/one" → "https://a.example/two"',
      'Changed (pt): "Há piscina?"',
      '  Answer: "Sim." → "Não."',
      'Removed (pt): "Aceitam cães?"',
    ]);
    const forged = changeLines({
      before: { ...parking, position: 1 },
      after: { ...parking, position: 1, answer: 'x" → "y\nRemoved: "Is there a pool?' },
    });
    expect(forged).toEqual([
      'FAQ "Is there parking?" (number 1)',
      'Answer: "Yes, 12 EUR a night." → "x\\" → \\"y\\nRemoved: \\"Is there a pool?"',
    ]);
    expect(forged.join("\n").split("\n")).toHaveLength(2);
  });

  it("says a person's changes in words: roles given and removed by name, sign-in and password", () => {
    const names = new Map([["HO-AUR-0003", "Aurora Madrid Riverside"]]);
    const editor = { role: "editor", entity_id: "HO-AUR-0003" };
    expect(changeLines({ email: "rita@aurora.example", before: [], after: [editor] }, names)).toEqual([
      "Given: Can edit Aurora Madrid Riverside (HO-AUR-0003)",
      "Roles now: Can edit Aurora Madrid Riverside (HO-AUR-0003)",
    ]);
    expect(changeLines({ before: [editor, { role: "administrator", entity_id: null }], after: [editor] })).toEqual([
      "Removed: Administrator of the organization",
      "Roles now: Can edit HO-AUR-0003",
    ]);
    expect(
      changeLines({ email: "rita@aurora.example", before: { disabledAt: null }, after: { disabledAt: "2026-11-27T09:00:00.000Z" } }),
    ).toEqual(["E-mail: rita@aurora.example", "Can sign in: yes → no (disabled 2026-11-27)"]);
    expect(
      changeLines({ email: "rita@aurora.example", displayName: "Rita", organizationId: "org-aurora", mustChoosePassword: true }),
    ).toEqual(["E-mail: rita@aurora.example", "Name: Rita", "Organization: org-aurora", "Must choose their own password: yes"]);
    expect(changeLines({ by: "themselves", sessionsEnded: "all others", mustChoosePassword: { from: true, to: false } })).toEqual([
      "Set by: the person themselves",
      "Signed out: everywhere else",
      "Must choose their own password: yes → no",
    ]);
    // An import that empties an entity is still an FAQ list.
    expect(changeLines({ before: [parking], after: [] })).toEqual(['Removed: "Is there parking?"']);
  });
});
