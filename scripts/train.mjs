// `npm run train`: learns src/search/associations.json from the tune properties of the training corpus
// (bench/corpus/, held-out properties never read): which words of an FAQ a guest's word stands for, across
// languages (scripts/lib/associations.mjs: IBM Model 1, in the manner of Berger et al. 2000 and Xue et al. 2008).
// Deterministic: the same corpus and analysis give the same file, byte for byte (a test checks the shipped one).
// `--check` writes nothing and exits 1 when the shipped file is not what the corpus gives.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { trainAssociations } from "./lib/associations.mjs";
import { loadCorpus } from "./lib/corpus.mjs";
import { ROOT } from "./lib/servers.mjs";

const FILE = join(ROOT, "src", "search", "associations.json");
const { hotels, questions } = loadCorpus({ split: "tune" });
const started = performance.now();
const model = await trainAssociations(hotels, questions);
const text = `${JSON.stringify(model, null, 1)}\n`;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (process.argv.includes("--check")) {
  const same = readFileSync(FILE, "utf8") === text;
  console.log(
    same
      ? `src/search/associations.json is what the corpus gives (${seconds} s).`
      : "src/search/associations.json differs: run npm run train.",
  );
  process.exit(same ? 0 : 1);
}
writeFileSync(FILE, text);
console.log(
  `Wrote src/search/associations.json: ${Object.keys(model.associations).length} guest words from ${model.pairs} pairs of ${hotels.size} tune properties (${seconds} s).`,
);
