import { describe, expect, it } from "vitest";
import { canonicalLanguageTag, LanguagePreference, LanguageTag, lookupOrder } from "../../../src/http/language-tags";

/** Language tags (BCP 47, by Intl) and RFC 4647 lookup: the pure rules every language path goes through. */

describe("canonicalLanguageTag", () => {
  it.each([
    ["pt", "pt"],
    ["PT-br", "pt-BR"],
    ["zh-hant-cn", "zh-Hant-CN"],
    ["de-CH", "de-CH"],
    ["en-US-u-ca-gregory", "en-US-u-ca-gregory"],
  ])("puts %s in canonical form: %s", (tag, canonical) => {
    expect(canonicalLanguageTag(tag)).toBe(canonical);
  });

  it.each(["", "*", "en_US", "pt BR", "i-klingon", "english", "xx", "qaa", "12"])(
    "refuses %j: not a tag, or no language CLDR knows",
    (tag) => {
      expect(canonicalLanguageTag(tag)).toBeNull();
    },
  );

  it("is what LanguageTag parses to, with a message that shows what a tag looks like", () => {
    expect(LanguageTag.parse("pt-br")).toBe("pt-BR");
    const refused = LanguageTag.safeParse("Portuguese");
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.message).toMatch(/"Portuguese" is not a BCP 47 tag .*pt-BR/);
    expect(LanguageTag.safeParse(`en-${"a1b2c3d4-".repeat(8)}x`).success).toBe(false);
  });
});

describe("lookupOrder (RFC 4647 §3.4: truncate from the right)", () => {
  it("tries each range, then the range one subtag shorter, down to its language", () => {
    expect(lookupOrder(["pt-BR"])).toEqual(["pt-BR", "pt"]);
    expect(lookupOrder(["zh-Hant-CN"])).toEqual(["zh-Hant-CN", "zh-Hant", "zh"]);
  });

  it("removes a single-character subtag together with the subtag after it", () => {
    expect(lookupOrder(["zh-Hant-CN-x-private1-private2"])).toEqual([
      "zh-Hant-CN-x-private1-private2",
      "zh-Hant-CN-x-private1",
      "zh-Hant-CN",
      "zh-Hant",
      "zh",
    ]);
    expect(lookupOrder(["de-DE-u-co-phonebk"])).toEqual(["de-DE-u-co-phonebk", "de-DE-u-co", "de-DE", "de"]);
  });

  it("keeps the ranges' order, each tag once (case aside), and tries nothing for *", () => {
    expect(lookupOrder(["pt-BR", "PT", "es", "*", "pt-PT"])).toEqual(["pt-BR", "pt", "es", "pt-PT"]);
    expect(lookupOrder(["*"])).toEqual([]);
  });
});

describe("LanguagePreference: RFC 4647 lookup among the languages a text exists in", () => {
  const available = ["en", "pt", "es-ES", "fr"];
  const lookupLanguage = (ranges: string[], among: string[], fallback: string) => new LanguagePreference(ranges).pick(among, fallback);

  it("picks the first range that a tag is available for, in priority order", () => {
    expect(lookupLanguage(["fr", "pt"], available, "en")).toBe("fr");
    expect(lookupLanguage(["de", "pt", "fr"], available, "en")).toBe("pt");
  });

  it("falls back along the range: pt-BR finds pt, and a range never finds a longer tag", () => {
    expect(lookupLanguage(["pt-BR"], available, "en")).toBe("pt");
    expect(lookupLanguage(["es"], available, "en")).toBe("en");
    expect(lookupLanguage(["es-ES-valencia"], available, "en")).toBe("es-ES");
  });

  it("answers the default for an unknown language, for *, and for nothing asked", () => {
    expect(lookupLanguage(["ja"], available, "en")).toBe("en");
    expect(lookupLanguage(["*"], available, "en")).toBe("en");
    expect(lookupLanguage(["ja", "*"], available, "en")).toBe("en");
    expect(lookupLanguage([], available, "en")).toBe("en");
  });

  it("compares tags case aside and answers the available tag as written", () => {
    expect(lookupLanguage(["ES-es"], available, "en")).toBe("es-ES");
  });

  it("returns the default given even when it is not among the available (an entity in German with no English)", () => {
    expect(lookupLanguage(["en"], ["fr"], "de")).toBe("de");
  });
});
