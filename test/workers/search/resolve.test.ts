import { describe, expect, it } from "vitest";
import {
  candidateFilter,
  entityNamedIn,
  looksLikeId,
  MAX_REFERENCE_WORDS,
  rankTypedName,
  resolveEntity,
  type Candidate,
} from "../../../src/search/resolve";

const AURORA = "Aurora Hotels & Resorts";
const hotel = (id: string, name: string): Candidate => ({ id, name, kind: "property", brandName: AURORA });
const CANDIDATES: Candidate[] = [
  { id: "HO-AUR", name: AURORA, kind: "brand", brandName: null },
  hotel("HO-AUR-0001", "Aurora Lisbon Riverside"),
  hotel("HO-AUR-0051", "Aurora Lisbon Old Town"),
  hotel("HO-AUR-0008", "Aurora Lyon Riverside"),
  hotel("HO-AUR-0058", "Aurora Lyon Old Town"),
  hotel("HO-AUR-0108", "Aurora Lyon Central"),
  hotel("HO-AUR-0016", "Aurora Vienna Riverside"),
  hotel("HO-AUR-0006", "Aurora Barcelona Riverside"),
  { id: "DMO-LIS", name: "Visit Lisboa", kind: "destination", brandName: null },
];
const resolved = (reference: string) => resolveEntity(reference, CANDIDATES).entity?.id ?? null;
const candidates = (reference: string) => resolveEntity(reference, CANDIDATES).candidates.map((c) => c.id);

describe("resolving a name as people write it", () => {
  it.each([
    ["extra words", "Aurora Lisbon Riverside Hotel", "HO-AUR-0001"],
    ["the brand left out", "Lisbon Riverside", "HO-AUR-0001"],
    ["a letter wrong", "Aurora Lisbon Riversibe", "HO-AUR-0001"],
    ["two letters swapped", "Aurora Barcelona Riversdie", "HO-AUR-0006"],
    ["a letter missing in the brand", "Auora Lyon Central", "HO-AUR-0108"],
    ["case and diacritics", "AURORA LISBÖN RIVERSIDE", "HO-AUR-0001"],
    ["the city's own name", "Aurora Wien Riverside", "HO-AUR-0016"],
    ["the words run together", "VisitLisboa", "DMO-LIS"],
    ["a kind of entity and the city in English", "the Lisbon tourism board", "DMO-LIS"],
    ["the brand as a group", "the Aurora group", "HO-AUR"],
  ])("resolves %s: %s", (_, reference, id) => {
    expect(resolved(reference)).toBe(id);
  });

  it("lists the candidates of an ambiguous name, those in the named city first, and picks none", () => {
    const lyon = resolveEntity("the Aurora in Lyon", CANDIDATES);
    expect(lyon.entity).toBeNull();
    expect(
      lyon.candidates
        .slice(0, 3)
        .map((c) => c.id)
        .sort(),
    ).toEqual(["HO-AUR-0008", "HO-AUR-0058", "HO-AUR-0108"]);
    expect(lyon.candidates.map((c) => c.score)).toEqual([...lyon.candidates.map((c) => c.score)].sort((a, b) => b - a));
  });

  it("never picks an entity a word of the reference does not fit: another brand's hotel is only a candidate", () => {
    expect(resolved("Boreal Inn Lisbon Riverside")).toBeNull();
    expect(candidates("Boreal Inn Lisbon Riverside")[0]).toBe("HO-AUR-0001");
  });

  it("answers nothing for another organization's entity, whose name is not among the candidates", () => {
    expect(resolveEntity("Boreal Inn Oslo Harbour", CANDIDATES)).toEqual({ entity: null, candidates: [] });
  });

  it("considers only the kind of entity a reference names", () => {
    expect(resolveEntity("Lisbon airport", CANDIDATES)).toEqual({ entity: null, candidates: [] });
  });

  it("takes a reference written like an ID as an ID only, never as a name", () => {
    for (const id of ["HO-BOR-0007", "HO-AUR", "dmo-lis", " AIR-LIS "]) expect(looksLikeId(id), id).toBe(true);
    for (const name of ["Lisbon Riverside", "Riverside", "HO-", "ho aur", "Aurora-Lisbon"]) expect(looksLikeId(name), name).toBe(false);
    expect(resolveEntity("HO-AUR-0009", CANDIDATES)).toEqual({ entity: null, candidates: [] });
  });

  it("looks the candidates up by the first letters of each word, and of the place's other names", () => {
    expect(candidateFilter("Aurora Wien Riverside")).toEqual({ prefixes: expect.arrayContaining(["aur", "vie", "wie", "riv"]), kinds: [] });
    expect(candidateFilter("Lisbon airport").kinds).toEqual(["airport"]);
  });
});

describe("a name being typed (completion)", () => {
  const typed = (text: string) => rankTypedName(text, CANDIDATES).map((c) => c.id);

  it("takes the last word as the start of a word, the others as words", () => {
    expect(typed("Aurora Lisbon Riv")[0]).toBe("HO-AUR-0001");
    expect(typed("lyon ol")).toEqual(["HO-AUR-0058"]);
    expect(typed("lyon")).toEqual(expect.arrayContaining(["HO-AUR-0008", "HO-AUR-0058", "HO-AUR-0108"]));
  });

  it("offers nothing for words that fit no name, and nothing for nothing typed", () => {
    expect(typed("Oslo")).toEqual([]);
    expect(typed("the hotel")).toEqual([]);
  });

  it(`compares the first ${MAX_REFERENCE_WORDS} words typed with each candidate, and looks candidates up by them alone`, () => {
    const fitting = Array.from({ length: MAX_REFERENCE_WORDS }, (_, i) => ["aurora", "lisbon", "riverside"][i % 3]).join(" ");
    expect(typed(`${fitting} zzzz`)[0]).toBe("HO-AUR-0001");
    const long = Array.from({ length: 3_000 }, (_, i) => `w${i.toString(36)}x`).join(" ");
    expect(candidateFilter(long).prefixes.length).toBeLessThanOrEqual(MAX_REFERENCE_WORDS + 1);
  });
});

describe("the entity a question names", () => {
  const named = (text: string) => {
    const found = entityNamedIn(text, CANDIDATES);
    return found && [found.entity.id, found.question];
  };

  it("finds a hotel named in a question, and the question without its name", () => {
    expect(named("are pets allowed at Aurora Lisbon Riverside?")).toEqual(["HO-AUR-0001", "are pets allowed at"]);
    expect(named("parking at lisbon old town")).toEqual(["HO-AUR-0051", "parking at"]);
    expect(named("breakfast times Aurora Lisbon Riversde")).toEqual(["HO-AUR-0001", "breakfast times"]);
  });

  it("takes the brand when only the brand is named, and nothing when two fit as well or the text names a city only", () => {
    expect(named("does the Aurora group have a loyalty programme")).toEqual(["HO-AUR", "does the group have a loyalty programme"]);
    expect(named("parking in Lyon Riverside or Lyon Central")).toBeNull();
    expect(named("parking in Lisbon")).toBeNull();
  });

  it("needs the brand for a hotel whose name has one word besides it", () => {
    const oneWord = [...CANDIDATES, { id: "HO-AUR-0200", name: "Aurora Oslo", kind: "property" as const, brandName: AURORA }];
    expect(entityNamedIn("parking in Oslo", oneWord)).toBeNull();
    expect(entityNamedIn("parking at Aurora Oslo", oneWord)?.entity.id).toBe("HO-AUR-0200");
  });
});
