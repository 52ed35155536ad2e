#!/usr/bin/env node
// `npm run bench`: throughput of the content API against a bare one-route Worker, both under
// `wrangler dev` on this machine, loaded by the same client with the same connections in one run.
// Options: --duration S (5 per scenario), --connections N (8).
import autocannon from "autocannon";
import { parseArgs } from "node:util";
import { startBareWorker, startDevServer } from "./lib/servers.mjs";

const { values } = parseArgs({ options: { duration: { type: "string", default: "5" }, connections: { type: "string", default: "8" } } });
const duration = Number(values.duration);
const connections = Number(values.connections);
const KEY = { "X-API-Key": "bench-key" };

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function measure(name, options, expectStatus = 200) {
  await load({ ...options, duration: 1 }); // warm-up: isolates started, caches filled
  const result = await load(options);
  const ok = expectStatus === 304 ? result["3xx"] : result["2xx"];
  if (ok < result.requests.total * 0.99) throw new Error(`${name}: only ${ok} of ${result.requests.total} answered ${expectStatus}`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const rows = [];
const bare = await startBareWorker();
const dev = await startDevServer();
try {
  const bareBefore = await measure("bare worker (before)", { url: `${bare.origin}/` });

  // Each request names an entity/flag combination not requested before, so every one is built from D1.
  const flags = ["", "?includeCategory=true", "?includePropertyId=true", "?includePropertyId=1&includeCategory=1"];
  const uncachedPaths = [];
  for (const q of flags) for (let n = 1; n <= 1200; n++) uncachedPaths.push(`/api/v3/content/HO-BOR-${String(n).padStart(4, "0")}/faq.json${q}`);
  let next = 0;
  const uncachedStart = Date.now();
  const uncached = await new Promise((resolve, reject) =>
    autocannon(
      {
        url: dev.origin,
        connections,
        amount: uncachedPaths.length,
        headers: KEY,
        requests: [{ setupRequest: (req) => ({ ...req, path: uncachedPaths[next++ % uncachedPaths.length] }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  rows.push({
    name: "FAQ feed 200 (uncached, built from D1)",
    rps: (uncached["2xx"] / (Date.now() - uncachedStart)) * 1000,
    p50: uncached.latency.p50,
    p99: uncached.latency.p99,
  });

  const faq = `${dev.origin}/api/v3/content/HO-AUR-0001/faq.json`;
  const etag = (await fetch(faq, { headers: KEY })).headers.get("ETag");
  rows.push(await measure("FAQ feed 200 (cache hit)", { url: faq, headers: KEY }));
  rows.push(await measure("FAQ feed 304 (If-None-Match)", { url: faq, headers: { ...KEY, "If-None-Match": etag } }, 304));
  rows.push(await measure("Roster HO-AUR (120 properties)", { url: `${dev.origin}/api/v3/content/HO-AUR/properties`, headers: KEY }));
  rows.push(await measure("Bulk @graph HO-AUR (121 FAQPages)", { url: `${dev.origin}/api/v3/content/HO-AUR/faq.json`, headers: KEY }));

  const bareAfter = await measure("bare worker (after)", { url: `${bare.origin}/` });
  const baseline = (bareBefore.rps + bareAfter.rps) / 2;
  console.log(`\nContent API throughput, ${connections} connections, ${duration} s per scenario (bare worker: ${bareBefore.rps.toFixed(0)} and ${bareAfter.rps.toFixed(0)} req/s before and after)\n`);
  console.log("| Scenario | req/s | vs bare worker | p50 ms | p99 ms |");
  console.log("|---|---:|---:|---:|---:|");
  for (const row of [{ ...bareBefore, name: "bare worker (mean of before/after)", rps: baseline }, ...rows]) {
    console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${(row.rps / baseline).toFixed(2)} | ${row.p50} | ${row.p99} |`);
  }
} finally {
  await Promise.all([bare.stop(), dev.stop()]);
}
