import { describe, expect, it } from "vitest";
import { faqTerms } from "../../../src/search/analyze";
import { judge } from "../../../src/search/confidence";
import { languageOf } from "../../../src/search/languages";
import { BUILT_IN_TERMS, Lexicon } from "../../../src/search/lexicon";
import { planQuery } from "../../../src/search/plan";
import { rankRows } from "../../../src/search/rank";
import resort from "../../../src/fixture/hotels/praia-dourada.json";

/** The rules that tell near-duplicate FAQs apart, each on the FAQs that show it, and how sure the ranking is. */

const en = languageOf("en");
const lexicon = new Lexicon(BUILT_IN_TERMS);

type Page = (readonly [category: string, question: string, answer: string])[];
const rowsOf = (page: Page) =>
  page.map(([category, question, answer]) => ({ faq: question, ...faqTerms({ category, question, answer }, en), answer }));
const ranked = (page: Page, text: string, language?: string) => {
  const plan = planQuery(text, lexicon, { content: en, language: language ? languageOf(language) : undefined });
  const ranking = rankRows(plan, rowsOf(page));
  return { first: ranking.ranked[0]?.row.faq, confidence: judge(plan, ranking), ranking };
};
const first = (page: Page, text: string, language?: string) => ranked(page, text, language).first;

const POOLS: Page = [
  ["Pools", "Is the main pool heated?", "Yes, the main pool is heated to 26°C from April to October."],
  ["Pools", "Is the adults-only pool heated too?", "The adults-only Sky Pool is heated all year round, for guests aged 16 and over."],
  ["Pools", "When are the pools open?", "The outdoor pools are open from 9am to 7pm; the indoor pool from 7am to 9pm."],
  ["Pools", "Do I need to bring pool towels?", "No, pool towels are handed out at the pool bar in exchange for your towel card."],
];

/** FAQs of other topics, as every hotel's page has: what makes a word's rarity mean something. */
const OTHERS: Page = [
  ["Parking", "Is there parking?", "Yes, an underground car park for 40 cars at 25 GBP a night."],
  ["Rooms", "Do rooms have a kettle?", "Every room has a kettle."],
  ["Leaving", "What time is check-out?", "Check-out is by 11am; ask about a later check-out."],
];

describe("telling near-duplicate FAQs apart", () => {
  it("weighs the word only one of them has (its qualifier) above the topic they share", () => {
    expect(first(POOLS, "is the adults only pool heated?")).toBe("Is the adults-only pool heated too?");
    expect(first(POOLS, "do we need to bring towels to the pool")).toBe("Do I need to bring pool towels?");
  });

  it("prefers the FAQ that asks no more than the question does", () => {
    expect(first(POOLS, "is the pool heated?")).toBe("Is the main pool heated?");
  });

  it("prefers the answer of the kind asked for: a price for how much, a time for when", () => {
    const alike: Page = [
      ["Breakfast", "Breakfast?", "Breakfast costs €22 per adult in the Orchard restaurant."],
      ["Breakfast", "Breakfast?", "Breakfast is served in the Orchard restaurant from 7am."],
    ];
    expect(ranked(alike, "how much is breakfast?").ranking.ranked[0]!.row.answer).toMatch(/€22/);
    expect(ranked(alike, "what time is breakfast?").ranking.ranked[0]!.row.answer).toMatch(/7am/);
  });

  it("finds a guest's own word through its equivalents, and a misspelt word as the page's word", () => {
    const heated: Page = [...POOLS.slice(2), POOLS[0]!];
    expect(first(heated, "anything warm?")).toBe("Is the main pool heated?");
    expect(first(heated, "heeted?")).toBe("Is the main pool heated?");
    expect(first(POOLS, "wat time do the pools opn")).toBe("When are the pools open?");
  });

  it("weighs each alternative by its own rarity: the page's rare word over its common one", () => {
    const rooms: Page = [
      ["Rooms", "Do rooms have a balcony?", "Most rooms have a balcony."],
      ["Rooms", "Do rooms have a kettle?", "Every room has a kettle."],
      ["Leaving", "What time is check-out?", "Check-out is by 11am; ask about a later check-out."],
    ];
    expect(first(rooms, "¿A qué hora hay que dejar la habitación?", "es")).toBe("What time is check-out?");
  });

  it("takes the words of a phrase together before each alone", () => {
    const clubs: Page = [
      ["Little ones", "What ages is the Kids Club for?", "The Kids Club welcomes children aged 4 to 12."],
      ["Little ones", "Is there a baby club?", "Our Baby Club looks after babies from 6 months to 3 years."],
    ];
    expect(first(clubs, "baby club?")).toBe("Is there a baby club?");
    expect(first(clubs, "kids club ages")).toBe("What ages is the Kids Club for?");
  });

  it("reads a clock time as the part of the day it is", () => {
    const arrival: Page = [
      ["Arrival", "What time is check-in?", "Check-in is from 3pm."],
      ["Arrival", "Can I check in early?", "If your room is ready we will gladly check you in early."],
      ...OTHERS,
    ];
    expect(first(arrival, "we land at 6am, can we check in then?")).toBe("Can I check in early?");
  });

  it("weighs the question inside a long message above the story around it", () => {
    const page: Page = [
      ["Pools", "Is there a pool?", "Yes, a heated outdoor pool."],
      ["Fitness", "Is there a gym?", "Our gym is open around the clock."],
      ...OTHERS,
    ];
    expect(first(page, "We swim every morning before work. Is there a gym too?")).toBe("Is there a gym?");
  });

  it("meets a question in another language with the English FAQ's words", () => {
    expect(first(POOLS, "a piscina principal é aquecida?", "pt")).toBe("Is the main pool heated?");
    expect(first(POOLS, "¿Hay que llevar toallas a la piscina?", "es")).toBe("Do I need to bring pool towels?");
    expect(first(POOLS, "Wann öffnen die Pools?", "de")).toBe("When are the pools open?");
  });
});

describe("how sure the ranking is", () => {
  it("is high when the first FAQ answers the question: a real page's own questions, asked as written", () => {
    const page: Page = resort.faqs.map((faq) => [faq.category, faq.question, faq.answer]);
    const asked = page.map(([, question]) => ranked(page, question));
    const right = asked.filter((a, i) => a.first === page[i]![1]);
    expect(right.length / page.length).toBeGreaterThanOrEqual(0.95);
    expect(right.filter((a) => a.confidence === "high").length / right.length).toBeGreaterThanOrEqual(0.6);
    // What high promises: the first FAQ answers, at least 95% of the time.
    const high = asked.filter((a) => a.confidence === "high");
    expect(high.filter((a) => !right.includes(a)).length / high.length).toBeLessThanOrEqual(0.05);
  });

  it("is none when the question is about something the content never mentions", () => {
    for (const question of ["Can I bring my dog?", "Is there a casino?", "Do you have a sauna?", "¿Se puede fumar en la habitación?"]) {
      expect(ranked(POOLS, question).confidence, question).toBe("none");
    }
  });

  it("tells which topics of the question no FAQ is about, and how much of it the content never mentions", () => {
    const { ranking } = ranked(POOLS, "Can I bring my dog to the pool?");
    expect(ranking.absentTopics).toContain("pets");
    expect(ranking.absentThing).toBe(true);
    expect(ranking.unmentioned).toBeGreaterThan(0);
    const answered = ranked(POOLS, "is the pool heated?").ranking;
    expect([answered.absentTopics, answered.absentThing, answered.unmentioned]).toEqual([[], false, 0]);
  });
});
