import { describe, expect, it } from "vitest";
import { allLanguages, ANALYZED_LANGUAGES, languageOf } from "../../../src/search/languages";
import { BUILT_IN_TERMS, Lexicon } from "../../../src/search/lexicon";
import data from "../../../src/search/lexicon.json";
import dictionary from "../../../src/search/words.json";
import { fold } from "../../../src/search/normalize";

const lexicon = new Lexicon(BUILT_IN_TERMS);
const concepts = (text: string, language?: string) => [
  ...lexicon.conceptsIn(text, language ? [languageOf(language)] : allLanguages()).keys(),
];

describe("the lexicon's data", () => {
  it("has every concept in every language it analyses, and no topic named as a facet", () => {
    for (const kind of ["topic", "facet", "word"] as const) {
      const byConcept = Map.groupBy(
        BUILT_IN_TERMS.filter((e) => e.kind === kind),
        (e) => e.concept,
      );
      for (const [concept, entries] of byConcept) {
        expect(entries.map((e) => e.language).sort(), `${kind} ${concept}`).toEqual([...ANALYZED_LANGUAGES].sort());
      }
    }
    const topics = new Set(Object.keys(data.topics));
    for (const facet of Object.keys(data.facets)) expect(topics.has(facet)).toBe(false);
  });

  it("names a topic's words by words of words.json, each word by its English headword first", () => {
    for (const [topic, entry] of Object.entries(data.topics)) {
      for (const word of (entry as { words?: string[] }).words ?? [])
        expect(Object.keys(dictionary.words), `${topic}: ${word}`).toContain(word);
    }
    for (const [headword, byLanguage] of Object.entries(dictionary.words))
      expect(byLanguage.en[0]?.replace(/^[=~?]/, ""), headword).toBe(headword);
  });

  it("lists no term twice within a concept and language, and finds every term in its own words", () => {
    for (const { concept, kind, language, terms } of BUILT_IN_TERMS) {
      const folded = terms.map((t) => fold(t.replace(/^[=~?]/, "")));
      if (kind !== "topic") expect(new Set(folded).size, `${concept} ${language}`).toBe(folded.length);
      for (const term of terms) {
        const found = lexicon.mentionsIn(term.replace(/^[=~?]/, ""), [languageOf(language)]).filter((m) => m.kind === kind);
        expect(
          found.map((m) => m.concept),
          `${kind} ${concept} ${language} ${term}`,
        ).toContain(concept);
      }
    }
  });

  it("covers what a hotel guest asks about", () => {
    const topics = Object.keys(data.topics);
    for (const topic of [
      "parking",
      "pets",
      "fitness",
      "pool",
      "spa",
      "wifi",
      "arrival",
      "departure",
      "cancellation",
      "children",
      "accessibility",
      "breakfast",
      "transport",
      "sustainability",
    ]) {
      expect(topics).toContain(topic);
    }
  });
});

describe("concepts found in a question", () => {
  it.each([
    ["Can I bring my dog?", "pets"],
    ["Do you have wifi?", "wifi"],
    ["Can I have a late checkout?", "departure"],
    ["How much is the pet fee?", "pets"],
    ["Is there a gym?", "fitness"],
    ["Can I work out at the hotel?", "fitness"],
    ["Can I get a refund if I cancel?", "cancellation"],
    ["where do I leave the car", "parking"],
    ["is there a crib for the baby", "children"],
    ["wheelchair access?", "accessibility"],
    ["eco friendly?", "sustainability"],
    ["Posso levar o meu cão?", "pets"],
    ["¿Tienen aparcamiento?", "parking"],
    ["Y a-t-il une piscine ?", "pool"],
    ["Gibt es WLAN im Zimmer?", "wifi"],
    ["C'è la colazione?", "breakfast"],
  ])("%s names %s", (question, concept) => {
    expect(concepts(question)).toContain(concept);
  });

  it("finds phrases word by word, across the ways a compound is written", () => {
    for (const written of ["late check-out", "late checkout", "late check out"]) expect(concepts(written, "en")).toContain("departure");
  });

  it("takes words with one stem as one word, but a short stem only when the letters after it agree", () => {
    expect(concepts("viajo com a minha gata", "pt")).toContain("pets"); // gata and gato
    expect(concepts("como chego ao hotel", "pt")).not.toContain("dining"); // como is not comer, though both stem to com
  });

  it("matches a term marked = letter for letter only", () => {
    expect(concepts("quanto é a taxa", "pt")).not.toContain("transport"); // taxa is not =táxi, though both stem to tax
    expect(concepts("apanho um táxi", "pt")).toContain("transport");
  });

  it("reads a long word one letter off a term as that term", () => {
    expect(concepts("brekfast hours?", "en")).toContain("breakfast");
    expect(concepts("quanto custa", "pt")).not.toContain("time"); // quanto is not quando: too short to be read as a typo
  });

  it("finds a term inside a compound in a language that writes them as one word", () => {
    expect(concepts("gibt es Einwegplastik?", "de")).toContain("sustainability");
    expect(concepts("wie sind die Stornobedingungen?", "de")).toContain("cancellation");
  });

  it("counts a word read in two spellings of a compound once", () => {
    const found = lexicon.conceptsIn("late check-out and parking", [languageOf("en")]);
    expect(found.get("parking")).toBe(1);
    expect(found.get("departure")).toBe(1);
  });

  it("names a concept half as strongly through a weak term alone", () => {
    expect(lexicon.conceptsIn("when can we arrive", [languageOf("en")]).get("arrival")).toBe(0.5);
    expect(lexicon.conceptsIn("early check-in", [languageOf("en")]).get("arrival")).toBeGreaterThanOrEqual(1);
  });

  it("always looks in English too: travellers use its hotel words in every language", () => {
    expect(concepts("tem parking e wifi?", "pt")).toEqual(expect.arrayContaining(["parking", "wifi"]));
  });

  it("gives a concept's terms in a language as analysed phrases, each once", () => {
    const phrases = lexicon.expansions("parking", languageOf("en")).map((p) => p.join(" "));
    expect(phrases).toContain("park");
    expect(phrases).toContain("car park");
    expect(new Set(phrases).size).toBe(phrases.length);
  });

  it("merges an operator's terms into the built-in concepts, or makes new ones", () => {
    const extended = new Lexicon([
      ...BUILT_IN_TERMS,
      { concept: "loyalty", kind: "topic", language: "en", terms: ["Aurora Rewards"] },
      { concept: "karaoke", kind: "facet", language: "en", terms: ["karaoke"] },
      { concept: "club lounge", kind: "word", language: "en", terms: ["Quay Lounge"] },
    ]);
    expect([...extended.conceptsIn("how do aurora rewards work", [languageOf("en")]).keys()]).toContain("loyalty");
    expect(extended.kindOf("karaoke")).toBe("facet");
    expect(extended.kindOf("loyalty")).toBe("topic");
    expect(extended.mentionsIn("when is the quay lounge open", [languageOf("en")]).map((m) => [m.concept, m.kind])).toContainEqual([
      "club lounge",
      "word",
    ]);
  });

  it("keeps words apart from topics of the same name", () => {
    const aufzug = lexicon.mentionsIn("Gibt es einen Aufzug?", [languageOf("de")]);
    expect(aufzug.map((m) => `${m.kind} ${m.concept}`)).toEqual(expect.arrayContaining(["topic lift", "word lift"]));
    expect(lexicon.expansions("lift", languageOf("en"), "word").map((p) => p.join(" "))).toEqual(["lift", "elev"]);
  });

  it("reads a facet's way of asking apart from its words of content", () => {
    const asking = (text: string) =>
      lexicon
        .mentionsIn(text, [languageOf("en")])
        .filter((m) => m.kind === "facet")
        .map((m) => m.asking);
    expect(asking("how much is it")).toEqual([true]);
    expect(asking("is it free")).toEqual([false]);
  });

  it("gives no expansion that lost a word to the stop words", () => {
    const fitness = lexicon.expansions("fitness", languageOf("en"), "topic").map((p) => p.join(" "));
    expect(fitness).not.toContain("work"); // "work out"
  });
});
