// `npm run train`: learns, from the tune properties of the training corpus (bench/corpus/, held-out properties never
// read), the two data files of the search that are learned rather than written:
// - src/search/associations.json: which words of an FAQ a guest's word stands for, across languages
//   (scripts/lib/associations.mjs: IBM Model 1, in the manner of Berger et al. 2000 and Xue et al. 2008);
// - src/search/confidence.json: how sure a ranking is (scripts/lib/confidence-fit.mjs: two logistic regressions),
//   fitted on rankings that already use the associations.
// Deterministic: the same corpus, analysis and weights give the same files, byte for byte (a test checks the shipped
// ones). `--check` writes nothing and exits 1 when a shipped file is not what the corpus gives.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { trainAssociations } from "./lib/associations.mjs";
import { fitConfidence } from "./lib/confidence-fit.mjs";
import { loadCorpus } from "./lib/corpus.mjs";
import { ROOT } from "./lib/servers.mjs";

const check = process.argv.includes("--check");
const { hotels, questions } = loadCorpus({ split: "tune" });
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
const json = (value) => `${JSON.stringify(value, null, 1)}\n`;
let differs = false;

/** Writes `text` to src/search/`name`, or with --check compares them. */
function emit(name, text, summary) {
  const file = join(ROOT, "src", "search", name);
  if (check) {
    const same = readFileSync(file, "utf8") === text;
    differs ||= !same;
    console.log(same ? `src/search/${name} is what the corpus gives (${seconds()} s).` : `src/search/${name} differs: run npm run train.`);
  } else {
    writeFileSync(file, text);
    console.log(`Wrote src/search/${name}: ${summary} (${seconds()} s).`);
  }
}

const associations = await trainAssociations(hotels, questions);
emit(
  "associations.json",
  json(associations),
  `${Object.keys(associations.associations).length} guest words from ${associations.pairs} pairs of ${hotels.size} tune properties`,
);
// The confidence is fitted on rankings with the associations as shipped: the same, unless --check found otherwise.
if (!differs) {
  const confidence = await fitConfidence(hotels, questions);
  emit("confidence.json", json(confidence), `none from ${confidence.none.threshold}, high from ${confidence.high.threshold}`);
}
process.exit(differs ? 1 : 0);
