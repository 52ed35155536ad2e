import { describe, expect, it } from "vitest";
import { acceptedLanguages, MAX_LANGUAGE_RANGES } from "../../../src/http/accept-language";

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
