import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/servers.mjs";

/** The learned data files are what `npm run train` makes of the committed corpus: nobody edits them by hand. */
describe("npm run train", () => {
  it("makes exactly the shipped associations.json and confidence.json from the corpus's tune properties", () => {
    const output = execFileSync(process.execPath, ["scripts/train.mjs", "--check"], { cwd: ROOT, encoding: "utf8", timeout: 900_000 });
    expect(output).toContain("src/search/associations.json is what the corpus gives");
    expect(output).toContain("src/search/confidence.json is what the corpus gives");
    // About a minute and a half alone; beside the other test files on two CPUs, several times that.
  }, 900_000);
});
