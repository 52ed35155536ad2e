import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/servers.mjs";

/** The answer card the Worker serves is what `npm run build:card` makes of its sources: nobody edits it by hand. */
describe("npm run build:card", () => {
  it("makes exactly the shipped answer-card-document.ts from answer-card.app.ts and answer-card.css", () => {
    const output = execFileSync(process.execPath, ["scripts/build-card.mjs", "--check"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(output).toContain("src/mcp/card/answer-card-document.ts is what its sources give");
  });
});
