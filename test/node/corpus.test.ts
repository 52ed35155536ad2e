import { describe, expect, it } from "vitest";
import { corpusProblems, corpusProperties, loadCorpus } from "../../scripts/lib/corpus.mjs";

/** The training corpus is what the training, the tuning and the figures assume (bench/corpus/properties.json). */
describe("the training corpus", () => {
  it("has its properties, kinds, countries, languages and labels, every label an FAQ of its hotel", () => {
    expect(corpusProblems()).toEqual([]);
  });

  it("holds whole properties out, of varied kinds, and never a question of one in the tune split", () => {
    const properties = corpusProperties() as { slug: string; kind: string; split: string }[];
    const heldOut = properties.filter((p) => p.split === "holdout");
    expect(new Set(heldOut.map((p) => p.kind)).size).toBe(heldOut.length);
    const tune = loadCorpus({ split: "tune" });
    expect(tune.questions.every((q) => q.split === "tune")).toBe(true);
    expect(tune.hotels.size).toBe(properties.length - heldOut.length);
  });
});
