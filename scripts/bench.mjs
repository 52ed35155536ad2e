#!/usr/bin/env node
// `npm run bench`: throughput of the content API against a bare one-route Worker, both under
// `wrangler dev` on this machine, loaded by the same client with the same connections in one run.
// Then round-trip latency of MCP calls, one at a time, next to content API requests of similar size.
// Options: --duration S (5 per scenario), --connections N (8), --samples N (200 per MCP scenario).
import autocannon from "autocannon";
import { parseArgs } from "node:util";
import { startBareWorker, startDevServer } from "./lib/servers.mjs";

const { values } = parseArgs({
  options: { duration: { type: "string", default: "5" }, connections: { type: "string", default: "8" }, samples: { type: "string", default: "200" } },
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
  const ok = { 200: result["2xx"], 304: result["3xx"], 401: result["4xx"] }[expectStatus];
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

  // Where the time goes: the same worker with no subrequest at all, and with one D1 query plus one Durable Object call.
  rows.push(await measure("401 without a key (routing only: no D1, no Durable Object)", { url: faq }, 401));
  rows.push(await measure("/health (one D1 query + one Durable Object call)", { url: `${dev.origin}/health` }));

  const bareAfter = await measure("bare worker (after)", { url: `${bare.origin}/` });
  const baseline = (bareBefore.rps + bareAfter.rps) / 2;
  console.log(`\nContent API throughput, ${connections} connections, ${duration} s per scenario (bare worker: ${bareBefore.rps.toFixed(0)} and ${bareAfter.rps.toFixed(0)} req/s before and after)\n`);
  console.log("| Scenario | req/s | vs bare worker | p50 ms | p99 ms |");
  console.log("|---|---:|---:|---:|---:|");
  for (const row of [{ ...bareBefore, name: "bare worker (mean of before/after)", rps: baseline }, ...rows]) {
    console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${(row.rps / baseline).toFixed(2)} | ${row.p50} | ${row.p99} |`);
  }

  console.log(`\nRound-trip latency, one request at a time, ${samples} samples each after ${samples / 10} warm-up\n`);
  console.log("| Request | p50 ms | p99 ms | response bytes |");
  console.log("|---|---:|---:|---:|");
  for (const row of await mcpLatencies(dev.origin)) {
    console.log(`| ${row.name} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.bytes} |`);
  }
} finally {
  await Promise.all([bare.stop(), dev.stop()]);
}

async function latency(name, send) {
  let bytes = 0;
  for (let i = 0; i < samples / 10; i++) await send(i);
  const times = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    const res = await send(i);
    const body = await res.arrayBuffer();
    times.push(performance.now() - start);
    if (res.status >= 400) throw new Error(`${name}: HTTP ${res.status} ${new TextDecoder().decode(body)}`);
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { name, p50: at(0.5), p99: at(0.99), bytes };
}

async function mcpLatencies(origin) {
  const token = async (id, secret) => {
    const res = await fetch(`${origin}/realms/hospitality/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: id, client_secret: secret }),
    });
    return (await res.json()).access_token;
  };
  const headers = (bearer, session) => ({
    Authorization: `Bearer ${bearer}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...(session ? { "mcp-session-id": session } : {}),
  });
  const initialize = (bearer) =>
    fetch(`${origin}/v1/sse`, {
      method: "POST",
      headers: headers(bearer),
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }),
    });
  const aurora = await token("aurora-assistant", "aurora-secret");
  const boreal = await token("boreal-assistant", "boreal-secret");
  const sessionOf = async (bearer) => (await initialize(bearer)).headers.get("mcp-session-id");
  const [auroraSession, borealSession] = [await sessionOf(aurora), await sessionOf(boreal)];
  const tool = (bearer, session, name, args) => () =>
    fetch(`${origin}/v1/sse`, {
      method: "POST",
      headers: headers(bearer, session),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } }),
    });
  const content = (path) => () => fetch(`${origin}${path}`, { headers: KEY });
  const uncachedPaths = Array.from({ length: 1200 }, (_, i) => `/api/v3/content/HO-BOR-${String(i + 1).padStart(4, "0")}/faq.json?includeCategory=1&includePropertyId=1`);
  return [
    await latency("MCP initialize", () => initialize(aurora)),
    await latency("MCP service_list_entities (50 of org-aurora)", tool(aurora, auroraSession, "service_list_entities", { limit: 50 })),
    await latency("MCP service_query (HO-AUR-0001, ranked by question)", tool(aurora, auroraSession, "service_query", { entity: "HO-AUR-0001", question: "is there parking" })),
    await latency("MCP service_search_documents (org-aurora)", tool(aurora, auroraSession, "service_search_documents", { query: "are pets allowed" })),
    await latency("MCP service_search_documents (all HO-BOR FAQs, 50 results)", tool(boreal, borealSession, "service_search_documents", { query: "parking breakfast pets", limit: 50 })),
    await latency("Content API FAQ feed, one entity (cache hit)", content("/api/v3/content/HO-AUR-0001/faq.json?includeCategory=true")),
    await latency("Content API FAQ feed, one entity (uncached)", (i) => content(uncachedPaths[i % uncachedPaths.length])()),
    await latency("Content API roster HO-AUR (cache hit)", content("/api/v3/content/HO-AUR/properties")),
  ];
}
