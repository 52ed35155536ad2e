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
    ["a link without a scheme", "is example.com/reset?token=abc123 your karaoke page", "is [link] your karaoke page"],
    ["a link to a host and port", "karaoke at bookings.example.co.uk:8443/#me", "karaoke at [link]"],
    ["an e-mail address spelled with (at) and (dot)", "mail ana.silva (at) example (dot) com re karaoke", "mail [email] re karaoke"],
    ["an e-mail address spelled with [at] and [dot]", "ana[at]example[dot]co[dot]uk karaoke", "[email] karaoke"],
    ["an e-mail address with spaces around @", "karaoke? write to ana @ example.com", "karaoke? write to [email]"],
    [
      "a JWT",
      "karaoke token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
      "karaoke token [token]",
    ],
    ["an access token", "my karaoke code is 8f14e45fceea167a5a36dedd4bea2543", "my karaoke code is [token]"],
    ["a code of letters and digits", "karaoke voucher AB12CD34EF56GH78", "karaoke voucher [token]"],
  ])("takes out %s", (_, question, key) => {
    expect(unansweredKey(question)).toBe(key);
  });

  it("keeps words, names, domains alone and times as they are", () => {
    expect(unansweredKey("Do you take booking.com reservations for the Donaudampfschifffahrt at 7.30?")).toBe(
      "do you take booking.com reservations for the donaudampfschifffahrt at 7.30",
    );
    expect(unansweredKey("karaoke (at) night, wi-fi 5GHz?")).toBe("karaoke (at) night, wi-fi 5ghz");
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
