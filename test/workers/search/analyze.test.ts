import { describe, expect, it } from "vitest";
import { analyze, stemSequences, termString } from "../../../src/search/analyze";
import { languageOf } from "../../../src/search/languages";
import { fold, nameKey, slug, words } from "../../../src/search/normalize";

const en = languageOf("en");

describe("normalisation", () => {
  it.each([
    ["Málaga", "malaga"],
    ["ZÜRICH", "zurich"],
    ["Straße", "strasse"],
    ["Œuvre", "oeuvre"],
    ["København", "kobenhavn"],
    ["Łódź", "lodz"],
    ["ﬁtness", "fitness"],
  ])("folds %s to %s", (text, folded) => {
    expect(fold(text)).toBe(folded);
  });

  it("keeps where each word starts, and the pieces of compounds, joined or not", () => {
    expect(words("Free Wi-Fi, l'hôtel's check-out")).toEqual([
      { text: "Free", start: 0, pieces: [{ text: "free", joined: false }] },
      {
        text: "Wi-Fi",
        start: 5,
        pieces: [
          { text: "wi", joined: false },
          { text: "fi", joined: true },
        ],
      },
      {
        text: "l'hôtel's",
        start: 12,
        pieces: [
          { text: "l", joined: false },
          { text: "hotel", joined: false },
          { text: "s", joined: false },
        ],
      },
      {
        text: "check-out",
        start: 22,
        pieces: [
          { text: "check", joined: false },
          { text: "out", joined: true },
        ],
      },
    ]);
  });

  it("folds a registered name and its spacing into the key it is looked up by", () => {
    expect(nameKey("  Aurora  MÜNCHEN\tHauptbahnhof ")).toBe("aurora munchen hauptbahnhof");
  });
});

describe("analysis, the same for an FAQ and a question", () => {
  it("leaves out stop words and hotel words, and stems the rest", () => {
    expect(analyze("Are pets allowed at the hotel?", en)).toEqual(["pet", "allow"]);
    expect(analyze("How much is the pet fee?", en)).toEqual(["pet", "fee"]);
  });

  it.each([
    ["wi-fi", "wifi"],
    ["Wi-Fi", "WIFI"],
    ["check-out", "checkout"],
    ["check-in", "checkin"],
  ])("indexes %s so that %s finds it, and the other way round", (written, asked) => {
    const index = new Set(analyze(written, en));
    for (const token of analyze(asked, en)) expect(index.has(token)).toBe(true);
    const question = new Set(analyze(written, en));
    for (const token of analyze(asked, en)) expect(question.has(token)).toBe(true);
  });

  it("keeps apart the words a stemmer would merge with unrelated ones", () => {
    expect(analyze("wellness", en)).toEqual(["wellness"]);
    expect(analyze("well", en)).not.toEqual(["wellness"]);
    expect(analyze("one room", en)).toEqual(["one", "room"]);
    expect(analyze("training", en)).not.toEqual(analyze("train", en));
    expect(analyze("playa", languageOf("es"))).not.toEqual(analyze("play", en));
  });

  it("keeps the small words hotel questions turn on, and drops the words of chat", () => {
    expect(analyze("adults only, under 12s, before check-in", en)).toEqual(expect.arrayContaining(["onli", "under", "befor"]));
    expect(analyze("we're really wondering, isn't it", en)).toEqual([]);
  });

  it("stems each language with its own stemmer and stop words", () => {
    expect(analyze("Os animais são bem-vindos?", languageOf("pt"))).toEqual(["anim", "vind", "bemvind"]);
    expect(analyze("¿Se admiten mascotas?", languageOf("es"))).toEqual(["admit", "mascot"]);
    expect(analyze("Les animaux sont-ils acceptés ?", languageOf("fr"))).toEqual(["animal", "accept"]);
    expect(analyze("Sind Haustiere erlaubt?", languageOf("de"))).toEqual(["hausti", "erlaubt"]);
    expect(analyze("Gli animali sono ammessi?", languageOf("it"))).toEqual(["animal", "ammess"]);
  });

  it("takes a BCP 47 tag's language, and English for a language it does not analyse", () => {
    expect(languageOf("pt-BR").code).toBe("pt");
    expect(languageOf("nl-BE").code).toBe("nl");
    expect(languageOf("sv").code).toBe("en");
    expect(languageOf(undefined).code).toBe("en");
  });

  it("writes each token between spaces, so a token or a phrase is counted whole", () => {
    expect(termString(["car", "park", "park"])).toBe(" car  park  park ");
    expect(termString([])).toBe("");
  });

  it("reads stop words too where the lexicon's phrases are looked for, with compounds also as one word", () => {
    expect(stemSequences("late check-out", en).map((sequence) => sequence.map((w) => w.stem))).toEqual([
      ["late", "check", "out"],
      ["late", "checkout"],
    ]);
  });
});

describe("slugs", () => {
  it.each([
    ["Is there parking?", "is-there-parking"],
    ["Wi-Fi: free?", "wi-fi-free"],
    ["Où est l'hôtel ?", "ou-est-l-hotel"],
    ["¿?", "faq"],
    ["東京の駐車場", "東京の駐車場"],
  ])("names %j as %j", (text, expected) => {
    expect(slug(text)).toBe(expected);
  });

  it("keeps at most 80 characters, cut at a word", () => {
    const long = slug("word ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith("word")).toBe(true);
    expect(slug("x".repeat(100))).toHaveLength(80);
  });
});
