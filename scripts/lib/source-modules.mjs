// The Worker's own TypeScript modules, for scripts that must do exactly what the Worker does (the benchmark's
// generated catalogue is analysed by src/search/analyze.ts itself): bundled together with esbuild and imported.
import { build } from "esbuild";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./servers.mjs";

/** Everything the modules at `paths` (relative to the project root) export, bundled for Node. */
export async function importSource(...paths) {
  const directory = mkdtempSync(join(tmpdir(), "source-modules-"));
  const entry = join(directory, "entry.ts");
  writeFileSync(entry, paths.map((path) => `export * from ${JSON.stringify(join(ROOT, path))};`).join("\n"));
  const outfile = join(directory, "modules.mjs");
  await build({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", outfile, logLevel: "error" });
  return import(pathToFileURL(outfile).href);
}
