import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib/servers.mjs";
import { devServer } from "../support/dev-server";

/**
 * Every `console` example in README.md and docs/*.md, run against `npm run dev`: each `$ command` (with its
 * continuation lines) runs in one bash per file, in order, so a variable set in one example is there for
 * the next; the lines shown after it must appear in its output, in that order. `http://localhost:8787` in
 * an example is the test's own dev server. A line shown as `...` stands for lines left out.
 */

interface Example {
  command: string;
  expected: string[];
}

const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The console examples of a Markdown file, in order. */
function consoleExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const [, block] of markdown.matchAll(/```console\n([\s\S]*?)```/g)) {
    const lines = block!.split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith("$ ")) continue;
      let command = lines[i]!.slice(2);
      while (command.endsWith("\\") && i + 1 < lines.length) command = `${command.slice(0, -1)}${lines[++i]!.trim()}`;
      const expected: string[] = [];
      while (i + 1 < lines.length && !lines[i + 1]!.startsWith("$ ")) {
        const line = lines[++i]!;
        if (line.trim() !== "" && line.trim() !== "...") expected.push(line);
      }
      examples.push({ command: command.replace(/\s+#\s[^'"]*$/, ""), expected });
    }
  }
  return examples;
}

const server = devServer();

/** Runs `script` in bash from the repository root; resolves with stdout and stderr together. */
const bash = (script: string) =>
  new Promise<string>((resolve) =>
    execFile("bash", ["-c", script], { cwd: ROOT, timeout: 60_000, maxBuffer: 8 * 1024 * 1024 }, (_, stdout, stderr) =>
      resolve(`${stdout}${stderr}`),
    ),
  );

const withExamples = DOCS.map((file) => [file, consoleExamples(readFileSync(join(ROOT, file), "utf8"))] as const).filter(
  ([, examples]) => examples.length > 0,
);

describe("documentation examples", () => {
  it("are found in README and docs", () => {
    expect(withExamples.map(([file]) => file)).toContain("README.md");
  });

  it.each(withExamples)("%s: every console example prints what it shows", async (_, examples) => {
    const here = (text: string) => text.replaceAll("http://localhost:8787", server.origin);
    const marker = (i: number) => `=====example ${i}=====`;
    const script = examples.map((example, i) => `echo '${marker(i)}'\n${here(example.command)}\necho`).join("\n");
    const output = (await bash(`set -o pipefail\n${script}`)).replace(/\r/g, "");
    for (const [i, example] of examples.entries()) {
      const start = output.indexOf(marker(i));
      const end = i + 1 < examples.length ? output.indexOf(marker(i + 1)) : output.length;
      const printed = output.slice(start + marker(i).length, end);
      let from = 0;
      for (const line of example.expected.map(here)) {
        const at = printed.indexOf(line, from);
        expect(at, `"${example.command}" should print:\n${line}\nIt printed:\n${printed}`).toBeGreaterThanOrEqual(0);
        from = at + line.length;
      }
    }
  });
});
