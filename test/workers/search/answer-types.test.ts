import { describe, expect, it } from "vitest";
import { ANSWER_KINDS, answersWith } from "../../../src/search/answer-types";
import data from "../../../src/search/lexicon.json";

/** Whether an FAQ's answer is of the kind a question asks for. */

describe("kinds of answer", () => {
  it("are the lexicon's facets", () => {
    expect(ANSWER_KINDS.sort()).toEqual(Object.keys(data.facets).sort());
  });

  it.each([
    ["price", "The buffet costs €22 per adult.", true],
    ["price", "Parking is £32 per 24 hours.", true],
    ["price", "It costs 45p per kWh.", true],
    ["price", "Cots are free of charge.", true],
    ["price", "Breakfast is served in the restaurant.", false],
    ["time", "Breakfast is from 7am to 10.30am.", true],
    ["time", "Check-in ab 15:00 Uhr.", true],
    ["time", "Reception is open 24 hours.", true],
    ["time", "The pool is heated.", false],
    ["distance", "The station is five minutes' walk away.", true],
    ["distance", "Faro airport is 40 km from the resort.", true],
    ["distance", "Yes, we have a lift.", false],
    ["age", "The Kids Club is for children aged 4 to 12.", true],
    ["age", "Guests must be 18 years or older.", true],
    ["age", "The pool is heated.", false],
  ])("%s in %j: %s", (kind, answer, expected) => {
    expect(answersWith(kind, answer)).toBe(expected);
  });
});
