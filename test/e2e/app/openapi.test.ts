import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib/servers.mjs";
import { devServer } from "../support/dev-server";
import { runNode } from "../support/processes";

/**
 * The two OpenAPI documents as `npm run dev` serves them, checked by Redocly's linter with the
 * recommended rules (redocly.yaml says which rule is off and why): no error, no warning.
 */

const REDOCLY = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
const server = devServer();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "openapi-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("OpenAPI documents", () => {
  it.each([
    ["content API", "/api/v3/openapi.json", {}],
    ["operator API", "/admin/v1/openapi.json", { Authorization: "Bearer dev-admin-token-not-for-production-use" }],
  ])("the %s's is clean under redocly lint", async (name, path, headers) => {
    const res = await fetch(`${server.origin}${path}`, { headers });
    expect(res.status).toBe(200);
    const file = join(dir, `${name.replace(/\W/g, "-")}.json`);
    writeFileSync(file, await res.text());
    const run = await runNode(REDOCLY, ["lint", file, "--config", join(ROOT, "redocly.yaml"), "--format", "json"], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      maxBuffer: 16 * 1024 * 1024,
    });
    const problems = (JSON.parse(run.stdout) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] })
      .problems;
    expect(problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(run.code).toBe(0);
  });
});
