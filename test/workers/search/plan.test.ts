import { describe, expect, it } from "vitest";
import { languageOf } from "../../../src/search/languages";
import { BUILT_IN_TERMS, Lexicon } from "../../../src/search/lexicon";
import {
  detectLanguage,
  MAX_EXPANSION_TERMS,
  MAX_LITERAL_TERMS,
  MAX_TERMS_PER_CONCEPT,
  planQuery,
  rankingInput,
  WEIGHTS,
} from "../../../src/search/plan";

const lexicon = new Lexicon(BUILT_IN_TERMS);
const en = languageOf("en");
const plan = (question: string, language?: string) =>
  planQuery(question, lexicon, { content: en, language: language ? languageOf(language) : undefined });

describe("what a question searches for", () => {
  it("weighs the question's own words 1 and the terms its concepts bring in less", () => {
    const { literal, terms, concepts } = plan("Can I bring my dog?");
    expect(literal).toEqual(["bring", "dog"]);
    expect(concepts).toEqual(["pets"]);
    expect(terms.filter((t) => t.weight === 1).map((t) => t.phrase)).toEqual(["bring", "dog"]);
    const expansions = terms.filter((t) => t.weight === WEIGHTS.expansion);
    expect(expansions.map((t) => t.phrase)).toContain("pet");
    expect(expansions.every((t) => t.group === "concept:pets")).toBe(true);
    expect(WEIGHTS.expansion).toBeLessThan(1);
  });

  it("makes FAQs about a topic of the question rank higher, more for a topic named twice, less for one named weakly", () => {
    const boostOf = (question: string, pattern: string) => plan(question).topics.find(([p]) => p === pattern)?.[1];
    expect(boostOf("pets?", " pet ")).toBe(WEIGHTS.topic);
    expect(boostOf("dogs and cats", " pet ")).toBe(WEIGHTS.topic * 1.5);
    expect(boostOf("when can we arrive", " checkin ")).toBe(WEIGHTS.topic * 0.75);
  });

  it("widens with a facet but makes nothing about it", () => {
    const { concepts, topics } = plan("how much does it cost");
    expect(concepts).toContain("price");
    expect(topics).toEqual([]);
  });

  it("counts each word of the question, and each concept, as one group of terms", () => {
    const input = rankingInput(plan("dog friendly rooms with parking"), []);
    const pets = input.groups.find((g) => g.match.includes('"pet"'))!;
    expect(pets.match.split(" OR ").length).toBeGreaterThan(1);
    expect(pets.patterns.length).toBe(pets.match.split(" OR ").length);
    expect(input.questionField).toBe(WEIGHTS.questionField);
  });

  it("caps what a long question costs: its own words, each concept's terms and all expansions", () => {
    const long = plan(
      "parking breakfast pets wifi airport shuttle pool spa gym check in out late early family children cot wheelchair taxi metro refund cancel eco renewable plastic towels laundry smoking luggage",
    );
    expect(long.literal.length).toBe(MAX_LITERAL_TERMS);
    const expansions = long.terms.filter((t) => t.weight < 1);
    expect(expansions.length).toBeLessThanOrEqual(MAX_EXPANSION_TERMS);
    for (const group of new Set(expansions.map((t) => t.group)))
      expect(expansions.filter((t) => t.group === group).length).toBeLessThanOrEqual(MAX_TERMS_PER_CONCEPT);
  });

  it("finds English FAQs for a question in another language through the concepts it names", () => {
    const question = plan("Posso levar o meu cão?");
    expect(question.language.code).toBe("pt");
    expect(question.concepts).toContain("pets");
    expect(question.terms.some((t) => t.phrase === "pet" && t.weight === WEIGHTS.expansion)).toBe(true);
  });

  it("detects a question's language by its small words, and none when they say nothing", () => {
    expect(detectLanguage("Posso levar o meu cão?")?.code).toBe("pt");
    expect(detectLanguage("¿Dónde puedo aparcar el coche?")?.code).toBe("es");
    expect(detectLanguage("Est-ce que le parking est gratuit ?")?.code).toBe("fr");
    expect(detectLanguage("Gibt es einen Parkplatz für das Auto?")?.code).toBe("de");
    expect(detectLanguage("wifi?")).toBeNull();
  });

  it("searches nothing for a question of stop words only", () => {
    expect(plan("is it the?").terms).toEqual([]);
  });
});
