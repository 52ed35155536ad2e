import { describe, expect, it } from "vitest";
import { words } from "../../../src/search/normalize";
import { wordWeights } from "../../../src/search/segment";

/** Which words of a message ask, and which only tell. */
const context = (text: string) => {
  const weights = wordWeights(text, 0.5);
  return words(text)
    .filter((_, i) => weights[i] === 0.5)
    .map((w) => w.text);
};

describe("the question inside a message", () => {
  it("weighs the sentences that tell less than the one that asks", () => {
    expect(context("Hi! We're coming in May with two kids. Is the pool heated then? Thanks!")).toEqual([
      "Hi",
      "We're",
      "coming",
      "in",
      "May",
      "with",
      "two",
      "kids",
      "Thanks",
    ]);
  });

  it("finds a question by its first word or an asking phrase when it has no question mark", () => {
    expect(context("we land at 6am. is there breakfast that early")).toEqual(["we", "land", "at", "6am"]);
    expect(context("Our flight is late. I was wondering if we can keep the room")).toEqual(["Our", "flight", "is", "late"]);
    expect(context("Llegamos a las 9. ¿Podemos dejar las maletas?")).toEqual(["Llegamos", "a", "las", "9"]);
  });

  it("weighs the clause that asks above the one that tells within a sentence", () => {
    expect(context("we land at 6am, is there breakfast?")).toEqual(["we", "land", "at", "6am"]);
  });

  it("weighs a message evenly when it asks everywhere or nowhere", () => {
    expect(context("Is the pool heated? And when does it open?")).toEqual([]);
    expect(context("parking price")).toEqual([]);
    expect(context("We arrive late on Friday.")).toEqual([]);
  });
});
