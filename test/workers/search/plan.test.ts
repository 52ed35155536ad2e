import { describe, expect, it } from "vitest";
import { allLanguages, languageOf } from "../../../src/search/languages";
import { BUILT_IN_TERMS, Lexicon } from "../../../src/search/lexicon";
import {
  detectLanguage,
  MAX_ALTERNATIVES,
  MAX_EXPANSION_TERMS,
  MAX_TERMS_PER_CONCEPT,
  MAX_TOPIC_TERMS,
  MAX_WORD_GROUPS,
  PLAN_WEIGHTS,
  planQuery,
  rankingInput,
  type Associations,
} from "../../../src/search/plan";

const lexicon = new Lexicon(BUILT_IN_TERMS);
const en = languageOf("en");
/** The plan by the written rules alone (the lexicon and the weights); the learned associations are tested apart. */
const plan = (question: string, language?: string, associations: Associations = {}) =>
  planQuery(question, lexicon, { content: en, language: language ? languageOf(language) : undefined, associations });
/** The group of the question's word at `position`: its alternatives by phrase, with their weights. */
const wordGroup = (question: string, position: number, language?: string) => {
  const group = plan(question, language).groups.find((g) => g.key.startsWith("w:") && g.key.slice(2).split(",").includes(String(position)));
  return group && Object.fromEntries(group.alternatives.map((a) => [a.phrase, a.weight]));
};
const detected = (text: string) => detectLanguage(text, lexicon.mentionsIn(text, allLanguages()))?.code ?? null;

describe("what a question searches for", () => {
  it("searches each word of the question by its own stems first, and its equivalents weighing less", () => {
    const warm = wordGroup("is the pool warm", 3)!;
    expect(warm.warm).toBe(1);
    expect(warm.heat).toBe(PLAN_WEIGHTS.equivalent);
    expect(PLAN_WEIGHTS.equivalent).toBeLessThan(1);
  });

  it("meets a word of another language with the English words it means, and reads no small word of it as English", () => {
    const pool = wordGroup("a piscina é aquecida?", 1, "pt")!;
    expect(pool.piscin).toBe(1);
    expect(pool.pool).toBe(PLAN_WEIGHTS.translation);
    // Spanish "son" (are) is a stop word there, never the English "son".
    expect(plan("¿Son gratis las toallas?", "es").groups.some((g) => g.alternatives.some((a) => a.phrase === "son"))).toBe(false);
  });

  it("takes the words of a phrase the lexicon knows as one group: together in full, each alone as a part", () => {
    const club = plan("kids club hours").groups.find((g) => g.key === "w:0,1")!;
    expect(club.alternatives.find((a) => a.phrase === "kid club")).toMatchObject({ weight: 1 });
    expect(club.alternatives.find((a) => a.phrase === "club")).toMatchObject({ weight: PLAN_WEIGHTS.part, partial: true });
    const breakfast = wordGroup("o pequeno almoço está incluído?", 1, "pt")!;
    expect(Object.keys(breakfast)).toEqual(expect.arrayContaining(["breakfast includ", "almoc"]));
  });

  it("reads a phrase by its own words in order, others between allowed, and a longer phrase before the words inside it", () => {
    // "keep the room longer" (a late check-out) in other words around it.
    expect(plan("could we keep our room a bit longer").concepts).toContainEqual({ concept: "late check-out", kind: "word" });
    // "cash machine" is not about paying in cash.
    const cashMachine = plan("is there a cash machine nearby");
    expect(cashMachine.topics.map((t) => t.concept)).not.toContain("payment");
  });

  it("weighs a way of asking less and widens it with nothing, but names the kind of answer wanted", () => {
    const question = plan("how much does parking cost");
    const cost = question.groups.find((g) => g.alternatives.some((a) => a.phrase === "cost"))!;
    expect(cost.form).toBe(true);
    expect(cost.alternatives.map((a) => a.phrase)).toEqual(["cost"]);
    expect(question.kinds).toEqual(["price"]);
    expect(plan("what time is breakfast").kinds).toEqual(["time"]);
  });

  it("searches each topic named as one group of its terms, and lifts FAQs about it more when named twice", () => {
    const once = plan("can I bring my dog");
    const topic = once.groups.find((g) => g.key === "t:pets")!;
    expect(topic.alternatives.map((a) => a.phrase)).toContain("pet");
    expect(plan("dogs and cats?").topics.find((t) => t.concept === "pets")!.boost).toBeGreaterThan(once.topics[0]!.boost);
  });

  it("reads a clock time as the part of the day it is", () => {
    expect(wordGroup("we land at 6am", 3)).toMatchObject({ "6am": 1, earli: PLAN_WEIGHTS.clock });
    expect(wordGroup("our flight is at 9.30pm", 4)).toMatchObject({ late: PLAN_WEIGHTS.clock });
    expect(wordGroup("we land at 6", 3)).toBeUndefined();
  });

  it("caps what a long question costs: its words, their alternatives, and what a whole scope's search matches", () => {
    const long = plan(
      "parking breakfast pets wifi airport shuttle pool spa gym late early family children cot wheelchair taxi metro refund eco towels laundry smoking luggage",
    );
    const words = long.groups.filter((g) => g.key.startsWith("w:"));
    expect(words.length).toBe(MAX_WORD_GROUPS);
    for (const g of long.groups)
      expect(g.alternatives.length).toBeLessThanOrEqual(g.key.startsWith("t:") ? MAX_TOPIC_TERMS : MAX_ALTERNATIVES);
    const input = rankingInput(long, []);
    const topicTerms = input.groups.filter((g) => g.key.startsWith("t:")).map((g) => g.patterns.length);
    for (const n of topicTerms) expect(n).toBeLessThanOrEqual(MAX_TERMS_PER_CONCEPT);
    expect(topicTerms.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_EXPANSION_TERMS);
  });

  it("searches nothing for a question of stop words only", () => {
    expect(plan("is it the?").groups).toEqual([]);
  });
});

describe("the language of a question", () => {
  it("is the one its small words, lexicon words and letters show", () => {
    expect(detected("Posso levar o meu cão?")).toBe("pt");
    expect(detected("¿Dónde puedo aparcar el coche?")).toBe("es");
    expect(detected("Est-ce que le parking est gratuit ?")).toBe("fr");
    expect(detected("Gibt es einen Parkplatz für das Auto?")).toBe("de");
    expect(detected("C'è la colazione?")).toBe("it");
  });

  it("holds for short questions, by the hotel words only one language has", () => {
    expect(detected("piscina aquecida?")).toBe("pt");
    expect(detected("playa privada?")).toBe("es");
    expect(detected("Hallenbad?")).toBe("de");
    expect(detected("towels for the pool?")).toBe("en");
    expect(detected("wifi?")).toBeNull();
    expect(detected("12345")).toBeNull();
  });

  it("adds the FAQ words a guest's word stands for, as learned, weighing their probability, never for a way of asking", () => {
    const learned: Associations = { "en:wreck": [["earli", 0.4]], "en:cost": [["price", 0.9]], "pt:piscin": [["swim", 0.3]] };
    const tired = plan("the kids will be wrecked", undefined, learned).groups.find((g) => g.own.includes("wreck"))!;
    expect(tired.alternatives.find((a) => a.phrase === "earli")).toMatchObject({ weight: PLAN_WEIGHTS.association * 0.4 });
    expect(plan("how much does it cost?", undefined, learned).groups.flatMap((g) => g.alternatives.map((a) => a.phrase))).not.toContain(
      "price",
    );
    const pool = plan("a piscina é aquecida?", "pt", learned).groups.find((g) => g.own.includes("piscin"))!;
    expect(pool.alternatives.map((a) => a.phrase)).toContain("swim");
    // English FAQ words are no use for content in another language.
    expect(
      planQuery("the kids will be wrecked", lexicon, { content: languageOf("pt"), associations: learned }).groups.flatMap((g) =>
        g.alternatives.map((a) => a.phrase),
      ),
    ).not.toContain("earli");
  });
});
