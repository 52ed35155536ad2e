#!/usr/bin/env node
// `npm run bench`: throughput of the content API against a bare one-route Worker, both under
// `wrangler dev` on this machine, loaded by the same client with the same connections in one run.
// Then round-trip latency of MCP calls, one at a time, each next to a content API request of similar size.
// `npm run bench -- --scale`: search latency through /v1/sse with catalogues of 10,000 to 1,000,000 FAQs.
// `npm run bench -- --retrieval [--split holdout|tune|all]`: answer quality on the labelled guest questions: the
// training corpus's held-out properties beside its tune ones (scripts/lib/corpus-bench.mjs), the realistic Kestrel
// hotels (scripts/lib/guest-bench.mjs), then the demo set (scripts/lib/retrieval-bench.mjs).
// `npm run bench -- --console`: the content console's FAQ page and a save beside a content GET (also in the default run).
// `npm run bench -- --imports`: content files at the console's upload limit beside content GETs (scripts/lib/import-bench.mjs).
// `npm run bench -- --sync`: keeping HO-BOR in sync: the brand stream beside SPEC's per-entity fallback (scripts/lib/sync-bench.mjs).
// Options: --duration S (5 per scenario), --connections N (8), --samples N (200 per latency scenario),
// --sizes 10000,100000,1000000 (with --scale).
import autocannon from "autocannon";
import { consoleClient } from "./lib/console-client.mjs";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SCALE_CLIENT, SCOPED_PROPERTY, scaleCatalogueSql } from "./lib/scale-catalogue.mjs";
import { mcpClient } from "./lib/mcp-client.mjs";
import { importSource } from "./lib/source-modules.mjs";
import { corpusBench } from "./lib/corpus-bench.mjs";
import { guestBench } from "./lib/guest-bench.mjs";
import { importBench } from "./lib/import-bench.mjs";
import { retrievalBench } from "./lib/retrieval-bench.mjs";
import { syncBench } from "./lib/sync-bench.mjs";
import { freshState, startBareWorker, startDevServer, wrangler } from "./lib/servers.mjs";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "8" },
    samples: { type: "string", default: "200" },
    scale: { type: "boolean", default: false },
    retrieval: { type: "boolean", default: false },
    sync: { type: "boolean", default: false },
    console: { type: "boolean", default: false },
    imports: { type: "boolean", default: false },
    split: { type: "string", default: "holdout" },
    sizes: { type: "string", default: "10000,100000,1000000" },
  },
});
const samples = Number(values.samples);
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
  const ok = { 200: result["2xx"], 304: result["3xx"], 401: result["4xx"], 404: result["4xx"] }[expectStatus];
  if (ok < result.requests.total * 0.99) throw new Error(`${name}: only ${ok} of ${result.requests.total} answered ${expectStatus}`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

if (values.scale) await scaleBench();
else if (values.retrieval) await retrieval();
else if (values.sync) await partnerSync();
else if (values.console) await consoleOnly();
else if (values.imports) await imports();
else await throughputAndLatency();

async function consoleOnly() {
  const dev = await startDevServer();
  try {
    await consoleCost(dev.origin);
  } finally {
    await dev.stop();
  }
}

async function imports() {
  const dev = await startDevServer();
  try {
    await importBench(dev.origin, await consoleClient(dev.origin, "bruno@aurora.example", "aurora-console-brand"), { samples });
  } finally {
    await dev.stop();
  }
}

async function partnerSync() {
  const dev = await startDevServer();
  try {
    await syncBench(dev, { samples: Math.max(3, Math.round(samples / 20)) });
  } finally {
    await dev.stop();
  }
}

async function retrieval() {
  await corpusBench();
  console.log("\n## The Kestrel hotels (in the demo fixture), through /v1/sse");
  const dev = await startDevServer({ vars: { MCP_RATE_LIMIT: "100000000" } });
  try {
    const faqsByEntity = new Map();
    const translated = new Map();
    for (let after = ""; ;) {
      const res = await fetch(`${dev.origin}/admin/v1/content/export?limit=1000&after=${encodeURIComponent(after)}`, {
        headers: { Authorization: "Bearer dev-admin-token-not-for-production-use" },
      });
      const page = await res.json();
      for (const record of page.records) {
        faqsByEntity.set(record.id, record.faqs);
        if (record.translations) translated.set(record.id, record.translations);
      }
      if (!page.next) break;
      after = page.next;
    }
    await guestBench(await mcpClient(dev.origin, "kestrel-assistant", "kestrel-secret"), { split: values.split });
    console.log("\n## The demo set (templated Aurora hotels)");
    const client = await mcpClient(dev.origin, "aurora-assistant", "aurora-secret");
    await retrievalBench(client, faqsByEntity, { split: values.split, translated });
  } finally {
    await dev.stop();
  }
}

async function throughputAndLatency() {
  const rows = [];
  const bare = await startBareWorker();
  const dev = await startDevServer();
  try {
    const bareBefore = await measure("bare worker (before)", { url: `${bare.origin}/` });

    // Each request names an entity/flag combination not requested before, so every one is built from D1.
    const flags = ["", "?includeCategory=true", "?includePropertyId=true", "?includePropertyId=1&includeCategory=1"];
    const uncachedPaths = [];
    for (const q of flags)
      for (let n = 1; n <= 1200; n++) uncachedPaths.push(`/api/v3/content/HO-BOR-${String(n).padStart(4, "0")}/faq.json${q}`);
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

    // Where the time goes: the same worker answering before any storage is involved.
    rows.push(await measure("401 without a key (routing only: no D1, no Durable Object)", { url: faq }, 401));
    rows.push(await measure("404 unknown path (the same worker's bare route)", { url: `${dev.origin}/nothing-here` }, 404));

    const bareAfter = await measure("bare worker (after)", { url: `${bare.origin}/` });
    const baseline = (bareBefore.rps + bareAfter.rps) / 2;
    console.log(
      `\nContent API throughput, ${connections} connections, ${duration} s per scenario (bare worker: ${bareBefore.rps.toFixed(0)} and ${bareAfter.rps.toFixed(0)} req/s before and after)\n`,
    );
    console.log("| Scenario | req/s | vs bare worker | p50 ms | p99 ms |");
    console.log("|---|---:|---:|---:|---:|");
    for (const row of [{ ...bareBefore, name: "bare worker (mean of before/after)", rps: baseline }, ...rows]) {
      console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${(row.rps / baseline).toFixed(2)} | ${row.p50} | ${row.p99} |`);
    }

    console.log(
      `\nRound-trip latency, one request at a time, the scenarios taking turns, ${samples} samples each after ${samples / 10} warm-up rounds\n`,
    );
    console.log(
      "| MCP request | p50 ms | p99 ms | bytes | content GET of similar size (cache hit) | p50 ms | p99 ms | bytes | p50 ratio |",
    );
    console.log("|---|---:|---:|---:|---|---:|---:|---:|---:|");
    for (const [mcp, content] of await mcpLatencies(dev.origin)) {
      console.log(
        `| ${mcp.name} | ${mcp.p50.toFixed(1)} | ${mcp.p99.toFixed(1)} | ${mcp.bytes} | ${content.name} | ${content.p50.toFixed(1)} | ${content.p99.toFixed(1)} | ${content.bytes} | ${(mcp.p50 / content.p50).toFixed(2)} |`,
      );
    }
    await questionLengthCost(dev.origin);
    await consoleCost(dev.origin);
  } finally {
    await Promise.all([bare.stop(), dev.stop()]);
  }
}

/**
 * Round trips of each scenario, one request at a time, the scenarios taking turns (so that a slow moment
 * of the machine falls on all of them alike); p50, p99 (or p95) and the response size of each.
 */
async function latencies(scenarios) {
  const times = scenarios.map(() => []);
  const bytes = scenarios.map(() => 0);
  for (let round = -samples / 10; round < samples; round++) {
    for (const [i, { name, send }] of scenarios.entries()) {
      const start = performance.now();
      const res = await send(round);
      const body = await res.arrayBuffer();
      const elapsed = performance.now() - start;
      if (res.status >= 400 && res.status !== scenarios[i].refusedWith) {
        throw new Error(`${name}: HTTP ${res.status} ${new TextDecoder().decode(body)}`);
      }
      if (round >= 0) times[i].push(elapsed);
      bytes[i] = body.byteLength;
    }
  }
  return scenarios.map(({ name }, i) => {
    const sorted = times[i].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return { name, p50: at(0.5), p95: at(0.95), p99: at(0.99), bytes: bytes[i] };
  });
}

/** Each MCP request with the content GET closest to it in response size, all cache hits of the content API. */
async function mcpLatencies(origin) {
  const aurora = await mcpClient(origin, "aurora-assistant", "aurora-secret");
  const boreal = await mcpClient(origin, "boreal-assistant", "boreal-secret");
  const content = (path) => () => fetch(`${origin}${path}`, { headers: KEY });
  const pairs = [
    [
      { name: "initialize", send: aurora.initialize },
      { name: "FAQ feed HO-AUR-0002", send: content("/api/v3/content/HO-AUR-0002/faq.json") },
    ],
    [
      { name: "ping (the session and the SDK, no tool)", send: aurora.ping },
      { name: "FAQ feed HO-AUR-0003", send: content("/api/v3/content/HO-AUR-0003/faq.json") },
    ],
    [
      { name: "service_list_entities (50 of org-aurora)", send: aurora.tool("service_list_entities", { limit: 50 }) },
      { name: "roster HO-AUR", send: content("/api/v3/content/HO-AUR/properties") },
    ],
    [
      {
        name: "service_query (HO-AUR-0001, ranked by question)",
        send: aurora.tool("service_query", { entity: "HO-AUR-0001", question: "is there parking" }),
      },
      { name: "FAQ feed HO-AUR-0001", send: content("/api/v3/content/HO-AUR-0001/faq.json") },
    ],
    [
      { name: "service_search_documents (org-aurora)", send: aurora.tool("service_search_documents", { query: "are pets allowed" }) },
      {
        name: "FAQ feed HO-AUR-0001 with categories",
        send: content("/api/v3/content/HO-AUR-0001/faq.json?includeCategory=1&includePropertyId=1"),
      },
    ],
    [
      {
        name: "service_search_documents (HO-BOR's 10,000 FAQs, 50 results)",
        send: boreal.tool("service_search_documents", { query: "parking breakfast pets", limit: 50 }),
      },
      { name: "roster HO-AUR", send: content("/api/v3/content/HO-AUR/properties") },
    ],
  ];
  const measured = await latencies(pairs.flat());
  return pairs.map((_, i) => [measured[2 * i], measured[2 * i + 1]]);
}

/** Search over HO-BOR's 10,000 FAQs with a one-word question and with a guest's long message of 32 words, taking turns. */
async function questionLengthCost(origin) {
  const longQuestion = (
    "Hi, we are a family of four arriving late on Friday with our small dog and a rental car: is there parking, " +
    "is breakfast included, can the kids stay free, is there a pool and a gym, and can we cancel?"
  )
    .split(/\s+/)
    .slice(0, 32)
    .join(" ");
  const boreal = await mcpClient(origin, "boreal-assistant", "boreal-secret");
  const longSearch = { name: "service_search_documents", arguments: { query: longQuestion, limit: 10 } };
  const rows = await latencies([
    { name: "1 word", send: boreal.tool("service_search_documents", { query: "parking", limit: 10 }) },
    { name: "32 words", send: boreal.tool(longSearch.name, longSearch.arguments) },
    { name: "batch of 10 searches of 32 words (answered)", send: boreal.batch(Array(10).fill(longSearch)) },
    { name: "batch of 50 searches of 32 words (refused: 413)", send: boreal.batch(Array(50).fill(longSearch)), refusedWith: 413 },
  ]);
  const [short] = rows;
  console.log(`\nSearch over HO-BOR's 10,000 FAQs by question length, ${samples} samples each\n`);
  console.log("| request | p50 ms | p99 ms | p50 vs 1 word |");
  console.log("|---|---:|---:|---:|");
  for (const row of rows)
    console.log(`| ${row.name} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${(row.p50 / short.p50).toFixed(2)} |`);
  console.log("\nTargets: a 32-word question at most 3 times a one-word question; a batch of 50 at most 20 times.");
}

/** The console's page of a hotel's FAQs and a save of one FAQ, each beside a content GET of the same hotel, taking turns. */
async function consoleCost(origin) {
  const helena = await consoleClient(origin, "helena@aurora.example", "aurora-console-hotel");
  const save = await helena.alternatingSave("HO-AUR-0001", 1);
  const feed = () => fetch(`${origin}/api/v3/content/HO-AUR-0001/faq.json`, { headers: KEY });
  const [pageRow, saveRow, feedRow] = await latencies([
    {
      name: "console: HO-AUR-0001's FAQ page (signed in, translations side by side)",
      send: () => helena.get("/console/entities/HO-AUR-0001"),
    },
    { name: "console: save FAQ 1 of HO-AUR-0001 (a write, audited; 303)", send: save },
    { name: "content GET: FAQ feed HO-AUR-0001", send: feed },
  ]);
  console.log(`\nThe content console beside a content GET of the same hotel, ${samples} samples each\n`);
  console.log("| request | p50 ms | p99 ms | bytes | p50 vs content GET |");
  console.log("|---|---:|---:|---:|---:|");
  for (const row of [pageRow, saveRow, feedRow])
    console.log(`| ${row.name} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.bytes} | ${(row.p50 / feedRow.p50).toFixed(2)} |`);
}

/**
 * Search through /v1/sse as the catalogue grows: for each size a throw-away local D1 is filled by SQL,
 * served by `npm run dev`, and asked by `scale-bot`, whose organization sees one brand of 100 properties.
 */
async function scaleBench() {
  const rows = [];
  const analysis = await importSource("src/search/analyze.ts", "src/search/languages.ts");
  for (const size of values.sizes.split(",").map(Number)) {
    const state = freshState();
    try {
      const started = Date.now();
      await wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
      const sqlFile = join(state, "scale.sql");
      writeFileSync(sqlFile, scaleCatalogueSql(size, analysis));
      await wrangler(["d1", "execute", "DB", "--local", "--persist-to", state, "--file", sqlFile]);
      const built = (Date.now() - started) / 1000;
      const dev = await startDevServer({ state });
      try {
        const client = await mcpClient(dev.origin, SCALE_CLIENT.id, SCALE_CLIENT.secret);
        const [search, query] = await latencies([
          { name: "search", send: client.tool("service_search_documents", { query: "parking breakfast pets", limit: 10 }) },
          {
            name: "query",
            send: client.tool("service_query", { entity: SCOPED_PROPERTY, question: "is there parking for breakfast", limit: 10 }),
          },
        ]);
        rows.push({ size, built, search, query });
      } finally {
        await dev.stop();
      }
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  }
  console.log(`\nSearch through /v1/sse, org-scale scoped to 1 brand of 100 properties (1,000 FAQs), ${samples} samples each\n`);
  console.log("| FAQs in the catalogue | built in s | search p50 ms | search p95 ms | ranked query p50 ms | ranked query p95 ms |");
  console.log("|---:|---:|---:|---:|---:|---:|");
  for (const { size, built, search, query } of rows) {
    console.log(
      `| ${size.toLocaleString("en")} | ${built.toFixed(0)} | ${search.p50.toFixed(1)} | ${search.p95.toFixed(1)} | ${query.p50.toFixed(1)} | ${query.p95.toFixed(1)} |`,
    );
  }
  const [first, last] = [rows[0], rows[rows.length - 1]];
  console.log(
    `\np95 at ${last.size.toLocaleString("en")} against ${first.size.toLocaleString("en")}: search ${(last.search.p95 / first.search.p95).toFixed(2)}, ranked query ${(last.query.p95 / first.query.p95).toFixed(2)} (target: at most 2)`,
  );
}
