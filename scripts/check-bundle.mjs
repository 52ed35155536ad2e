#!/usr/bin/env node
// `npm run check:bundle`: builds the Worker the way `wrangler deploy` would (--dry-run --outdir) and fails
// when its gzipped code passes 1 MiB, well before Cloudflare's own upload limits bite.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "./lib/servers.mjs";

const LIMIT_BYTES = 1024 * 1024;
const outdir = mkdtempSync(join(tmpdir(), "bundle-"));
try {
  const build = spawnSync(join(ROOT, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: ROOT,
    env: { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false" },
    encoding: "utf8",
  });
  if (build.status !== 0) {
    console.error(build.stdout, build.stderr);
    process.exit(build.status ?? 1);
  }
  const code = readdirSync(outdir).filter((name) => /\.m?js$/.test(name));
  const gzipped = code.reduce((total, name) => total + gzipSync(readFileSync(join(outdir, name)), { level: 9 }).byteLength, 0);
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  if (gzipped > LIMIT_BYTES) {
    console.error(`Worker bundle is ${kib(gzipped)} gzipped; the limit is ${kib(LIMIT_BYTES)}.`);
    process.exit(1);
  }
  console.log(`Worker bundle: ${kib(gzipped)} gzipped (limit ${kib(LIMIT_BYTES)}).`);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
