import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devServer, realmTokenResponse } from "../support/dev-server";
import { runNode } from "../support/processes";

/**
 * The official MCP conformance suite against `npm run dev`'s /v1/sse, for the scenarios that apply to
 * what the server offers (tools, resources, prompts, completions, the stateless 2026-07-28 revision).
 * The suite sends no credentials, so it talks to a local proxy that adds the fixture's bearer token.
 */

const CONFORMANCE = createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/dist/index.js");

/**
 * Checks that need the suite's own fixture server (diagnostic tools such as `test_missing_capability`,
 * resources such as `test://static-text`); a data service has none of them, so they cannot pass here.
 */
const NEEDS_SUITE_FIXTURE = new Set([
  "sep-2575-server-rejects-undeclared-capability",
  "sep-2575-missing-capability-http-400",
  "sep-2575-http-server-no-independent-requests-on-stream",
  "sep-2575-server-no-log-without-loglevel",
]);

const SCENARIOS: [scenario: string, version: string][] = [
  ["server-initialize", "2025-11-25"],
  ["ping", "2025-11-25"],
  ["tools-list", "2025-11-25"],
  ["resources-list", "2025-11-25"],
  ["prompts-list", "2025-11-25"],
  ["dns-rebinding-protection", "2025-11-25"],
  ["tools-list", "2026-07-28"],
  ["resources-list", "2026-07-28"],
  ["sep-2164-resource-not-found", "2026-07-28"],
  ["caching", "2026-07-28"],
  ["http-header-validation", "2026-07-28"],
  ["server-stateless", "2026-07-28"],
];

const server = devServer();
let proxy: Server;
let proxyUrl: string;
let outputDir: string;

beforeAll(async () => {
  outputDir = mkdtempSync(join(tmpdir(), "conformance-"));
  const token = ((await (await realmTokenResponse(server.origin)).json()) as { access_token: string }).access_token;
  const target = new URL(server.origin);
  proxy = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://localhost:${(proxy.address() as AddressInfo).port}/v1/sse`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  rmSync(outputDir, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";
  errorMessage?: string;
}

describe("MCP conformance suite", () => {
  it.each(SCENARIOS)("%s at %s: every applicable check passes", async (scenario, version) => {
    const dir = join(outputDir, `${scenario}-${version}`);
    const run = await runNode(CONFORMANCE, ["server", "--url", proxyUrl, "--scenario", scenario, "--spec-version", version, "-o", dir], {
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [resultDir] = readdirSync(dir);
    const checks = JSON.parse(readFileSync(join(dir, resultDir!, "checks.json"), "utf8")) as Check[];
    expect(checks.length, run.stderr).toBeGreaterThan(0);
    const failed = checks.filter((check) => check.status === "FAILURE");
    expect(failed.filter((check) => !NEEDS_SUITE_FIXTURE.has(check.id)).map((check) => `${check.id}: ${check.errorMessage}`)).toEqual([]);
    if (failed.length === 0) expect(run.code, run.stdout.slice(-2000)).toBe(0);
  });
});
