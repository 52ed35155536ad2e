import { describe, expect, it } from "vitest";
import { lookupOrder, MAX_TAG_LENGTH } from "../../../src/http/language-tags";
import { acceptedLanguages, MAX_ACCEPT_LANGUAGE_LENGTH, MAX_LANGUAGE_RANGES } from "../../../src/http/accept-language";

/** Accept-Language as negotiator reads it: ranges by q-value, refused ones out, each in canonical form. */

describe("acceptedLanguages", () => {
  it("orders ranges by q-value, then as written", () => {
    expect(acceptedLanguages("fr;q=0.5, de;q=0.9, pt-BR")).toEqual(["pt-BR", "de", "fr"]);
    expect(acceptedLanguages("es, it")).toEqual(["es", "it"]);
  });

  it("leaves out a range with q=0 (refused) and keeps the wildcard in its place", () => {
    expect(acceptedLanguages("pt;q=0, *;q=0.1, de")).toEqual(["de", "*"]);
    expect(acceptedLanguages("*")).toEqual(["*"]);
  });

  it("puts tags in canonical form, once each, and drops what is no tag", () => {
    expect(acceptedLanguages("PT-br, pt-BR;q=0.5, en_US, ???")).toEqual(["pt-BR"]);
    expect(acceptedLanguages("")).toEqual([]);
    expect(acceptedLanguages(";;;,,,")).toEqual([]);
  });

  it(`uses at most ${MAX_LANGUAGE_RANGES} ranges`, () => {
    const many = ["en", "pt", "es", "fr", "de", "it", "nl", "sv", "da", "fi"].map((tag, i) => `${tag};q=0.${9 - i}`).join(", ");
    expect(acceptedLanguages(many)).toEqual(["en", "pt", "es", "fr", "de", "it", "nl", "sv"]);
  });
});

describe("what one Accept-Language header may cost", () => {
  const privateUse = (tag: string, bytes: number) => `${tag}-x-${"a1b2c3d4-".repeat(Math.ceil(bytes / 9))}z`;
  const variants = ["1901", "1994", "1996", "alalc97", "arevela", "baku1926", "biscayan", "boont", "fonipa", "hepburn", "lipaw"];
  /** A well-formed tag with no singleton, longer than any tag accepted. */
  const longVariants = `sl-Latn-IT-${variants.join("-")}`;

  it("drops private-use and extension subtags before reading a range, however long they are", () => {
    expect(acceptedLanguages(privateUse("pt-BR", 5_000))).toEqual(["pt-BR"]);
    expect(acceptedLanguages(`de-DE-u-co-phonebk, ${privateUse("fr", 2_000)};q=0.5`)).toEqual(["de-DE", "fr"]);
  });

  it(`drops a range longer than ${MAX_TAG_LENGTH} characters, as ?lang refuses one`, () => {
    expect(longVariants.length).toBeGreaterThan(MAX_TAG_LENGTH);
    expect(acceptedLanguages(`${longVariants}, es;q=0.5`)).toEqual(["es"]);
    const atLimit = longVariants.slice(0, longVariants.lastIndexOf("-", MAX_TAG_LENGTH));
    expect(acceptedLanguages(atLimit)).toEqual(Intl.getCanonicalLocales(atLimit));
  });

  it(`reads the first ${MAX_ACCEPT_LANGUAGE_LENGTH} characters, up to the last whole range in them`, () => {
    const filler = "fr;q=0.1, ".repeat(Math.ceil(MAX_ACCEPT_LANGUAGE_LENGTH / 10));
    expect(acceptedLanguages(`${filler}de`)).toEqual(["fr"]);
    const atLimit = `${"fr;q=0.1,".padEnd(MAX_ACCEPT_LANGUAGE_LENGTH - 3, " ")},de`;
    expect(atLimit).toHaveLength(MAX_ACCEPT_LANGUAGE_LENGTH);
    expect(acceptedLanguages(atLimit)).toEqual(["de", "fr"]);
    expect(acceptedLanguages(`${atLimit}-CH`)).toEqual(["fr"]);
  });

  it(`gives a hostile header a lookup order of at most ${MAX_LANGUAGE_RANGES} ranges of at most ${MAX_TAG_LENGTH} characters`, () => {
    const atMost = MAX_LANGUAGE_RANGES * Math.ceil((MAX_TAG_LENGTH + 1) / 3);
    const hostile = [
      privateUse("en", 5_000),
      Array.from({ length: 400 }, (_, i) => privateUse(`en-${String(i).padStart(3, "0")}`, 10)).join(", "),
      Array.from({ length: 12 }, (_, i) => `de-Latn-CH-${[1, 2, 3, 4, 5, 6].map((j) => `v${j}r${i}`.padEnd(8, "x")).join("-")}`).join(","),
      `${"en-US,".repeat(4_000)}de`,
    ];
    for (const header of hostile) {
      const order = lookupOrder(acceptedLanguages(header));
      expect(order.length, header.slice(0, 40)).toBeLessThanOrEqual(atMost);
      expect(Math.max(0, ...order.map((tag) => tag.length))).toBeLessThanOrEqual(MAX_TAG_LENGTH);
    }
  });
});
