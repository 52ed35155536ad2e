import { describe, expect, it } from "vitest";
import { parseRecord, MAX_PHRASINGS, MAX_PHRASING_LENGTH } from "../../../src/catalogue/records";
import { languageOf } from "../../../src/search/languages";
import { BUILT_IN_TERMS, Lexicon } from "../../../src/search/lexicon";
import { phrasingKey } from "../../../src/search/normalize";
import { phrasedBy, phrasedFaqTerms } from "../../../src/search/phrasings";
import { askedAbout, groupQuestions } from "../../../src/search/question-groups";

const lexicon = new Lexicon(BUILT_IN_TERMS);
const en = languageOf("en");

describe("a way guests ask an FAQ, as the search compares it", () => {
  it("is the same whatever the case, accents, punctuation and spacing", () => {
    expect(phrasingKey("Can I bring my dog?")).toBe("can i bring my dog");
    expect(phrasingKey("  CAN i bring   my DOG!! ")).toBe("can i bring my dog");
    expect(phrasingKey("Posso levar o meu cão?")).toBe(phrasingKey("posso levar o meu cao"));
    expect(phrasingKey("¿?!")).toBe("");
  });

  it("names the FAQ a question is one of the phrasings of, and none for a question near it", () => {
    const rows = [
      { faq: "1", phrasings: "[]" },
      { faq: "2", phrasings: JSON.stringify(["can i bring my dog", "posso levar o meu cão"]) },
    ];
    expect(phrasedBy("Posso levar o meu cão?", rows)?.faq).toBe("2");
    expect(phrasedBy("CAN I BRING MY DOG", rows)?.faq).toBe("2");
    expect(phrasedBy("can i bring my two dogs", rows)).toBeUndefined();
    expect(phrasedBy("???", rows)).toBeUndefined();
  });

  it("is indexed with the FAQ's question, in the language its own words show", () => {
    const faq = { category: "Pets", question: "Are pets allowed?", answer: "Yes, small dogs." };
    const plain = phrasedFaqTerms(faq, en);
    const phrased = phrasedFaqTerms({ ...faq, phrasings: JSON.stringify(["posso levar o meu cão"]) }, en);
    expect(phrased.terms_a).toBe(plain.terms_a);
    expect(phrased.terms_q.startsWith(plain.terms_q)).toBe(true);
    // Portuguese stems, not English ones: "levar" is "lev".
    expect(phrased.terms_q).toContain(" lev ");
    expect(phrased.terms_q).toContain(" cao ");
  });
});

describe("the phrasings of a content record", () => {
  const record = (phrasings: unknown, more: object[] = []) => ({
    kind: "destination",
    id: "DMO-PHRASED",
    name: "Phrased",
    faqs: [{ category: "Pets", question: "Are pets allowed?", answer: "Yes.", phrasings }, ...more],
  });

  it(`takes at most ${MAX_PHRASINGS}, each of at most ${MAX_PHRASING_LENGTH} characters`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `may i bring dog number ${"x".repeat(i + 1)}`);
    expect(parseRecord(1, record(many(MAX_PHRASINGS)))).toHaveProperty("record");
    expect(parseRecord(1, record(many(MAX_PHRASINGS + 1)))).toEqual({
      errors: [{ line: 1, field: "faqs.0.phrasings", message: `has more than ${MAX_PHRASINGS} entries` }],
    });
    expect(parseRecord(1, record(["a".repeat(MAX_PHRASING_LENGTH)]))).toHaveProperty("record");
    expect(parseRecord(1, record(["a".repeat(MAX_PHRASING_LENGTH + 1)]))).toEqual({
      errors: [{ line: 1, field: "faqs.0.phrasings.0", message: `is longer than ${MAX_PHRASING_LENGTH} characters` }],
    });
  });

  it("refuses a way of asking given twice, in one FAQ or two, and one without words", () => {
    expect(parseRecord(1, record(["can i bring my dog", "Can I bring my dog?"]))).toEqual({
      errors: [
        {
          line: 1,
          field: "faqs.0.phrasings.1",
          message: "is the same way of asking as faqs.0.phrasings.0 (case, accents and punctuation aside)",
        },
      ],
    });
    const other = { category: "Pets", question: "Is there a pet fee?", answer: "No.", phrasings: ["CAN I BRING MY DOG"] };
    expect(parseRecord(1, record(["can i bring my dog"], [other]))).toEqual({
      errors: [
        {
          line: 1,
          field: "faqs.1.phrasings.0",
          message: "is the same way of asking as faqs.0.phrasings.0 (case, accents and punctuation aside)",
        },
      ],
    });
    expect(parseRecord(1, record(["?!"]))).toEqual({ errors: [{ line: 1, field: "faqs.0.phrasings.0", message: "has no words" }] });
  });
});

describe("grouping guests' questions that ask the same thing", () => {
  const asked = (question: string, language: string | null, entityId: string | null = "HO-AUR-0001") => ({ question, language, entityId });

  it("groups near-duplicates across languages, and keeps apart what asks for another kind of answer or of another entity", () => {
    const questions = [
      asked("can i bring my dog", "en"),
      asked("do you have a sauna", "en"),
      asked("are dogs allowed?", "en"),
      asked("is there a pet fee", "en"),
      asked("posso levar o meu cão", "pt"),
      asked("can i bring my dog", "en", "HO-AUR-0002"),
      asked("tem sauna?", null),
    ];
    expect(groupQuestions(questions, lexicon).map((group) => group.map((q) => `${q.entityId} ${q.question}`))).toEqual([
      ["HO-AUR-0001 can i bring my dog", "HO-AUR-0001 are dogs allowed?", "HO-AUR-0001 posso levar o meu cão"],
      ["HO-AUR-0001 do you have a sauna", "HO-AUR-0001 tem sauna?"],
      ["HO-AUR-0001 is there a pet fee"],
      ["HO-AUR-0002 can i bring my dog"],
    ]);
  });

  it("groups a question the lexicon reads no topic in only with the same words", () => {
    expect(askedAbout("Is the karaoke open?", "en", lexicon)).toBe(askedAbout("is the KARAOKE open", null, lexicon));
    expect(askedAbout("Is the karaoke open?", "en", lexicon)).not.toBe(askedAbout("is the karaoke loud", "en", lexicon));
  });
});
