import { describe, expect, it } from "vitest";
import { dayOf, oldestKeptDay, unansweredKey, UNANSWERED_RETENTION_DAYS } from "../../../src/search/unanswered";

describe("what is counted of an unanswered question", () => {
  it.each([
    ["an e-mail address", "Can you mail the invoice to ana.silva+trip@example.com?", "can you mail the invoice to [email]"],
    ["a phone number", "call me on +351 912 345 678 about the karaoke", "call me on [phone] about the karaoke"],
    ["a phone number with brackets", "Is (020) 7946-0958 the karaoke line?", "is [phone] the karaoke line"],
    ["a card number", "charge 4111 1111 1111 1111 for the karaoke", "charge [phone] for the karaoke"],
    ["a booking number", "booking 83921 karaoke?", "booking [number] karaoke"],
    ["a link", "is https://example.com/karaoke?id=7 yours", "is [link] yours"],
    ["a phone number split by invisible characters", "call +351\u200b912\u200b345\u200b678 re karaoke", "call [phone] re karaoke"],
    ["a card number split by control characters", "card 4111\u00001111\u00001111\u00001111 karaoke", "card [phone] karaoke"],
  ])("takes out %s", (_, question, key) => {
    expect(unansweredKey(question)).toBe(key);
  });

  it("makes case, spacing and end punctuation uniform, so one question is counted as one", () => {
    expect(unansweredKey("  Is there   KARAOKE?!  ")).toBe(unansweredKey("is there karaoke"));
    expect(unansweredKey("Hay karaoke ?")).toBe("hay karaoke");
  });

  it("keeps at most 200 characters, and nothing without a letter", () => {
    expect(unansweredKey("karaoke ".repeat(100))!.length).toBe(200);
    const emoji = unansweredKey("karaoke " + "🎤".repeat(250))!;
    expect([...emoji]).toHaveLength(200);
    expect(emoji.isWellFormed()).toBe(true);
    expect(unansweredKey("+351 912 345 678")).toBeNull();
    expect(unansweredKey("???")).toBeNull();
  });

  it(`keeps ${UNANSWERED_RETENTION_DAYS} days of counts, today's included`, () => {
    const now = new Date("2026-11-23T10:00:00Z");
    expect(dayOf(now)).toBe("2026-11-23");
    expect(oldestKeptDay(now)).toBe("2026-10-25");
  });
});
