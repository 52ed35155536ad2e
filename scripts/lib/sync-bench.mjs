// `npm run bench -- --sync`: what keeping HO-BOR (1,201 FAQPages) in sync costs a partner against `npm run dev`:
// the brand stream in one request beside SPEC's per-entity fallback (1,201 requests), its conditional request,
// and a page of the change feed. Time is given as a ratio to the fallback measured in the same run; memory as the
// growth of workerd's resident set while the request runs (Linux /proc; "n/a" elsewhere).
import autocannon from "autocannon";
import { readdirSync, readFileSync } from "node:fs";

const KEY = { "X-API-Key": "bench-key" };
// The dev server's operator token (scripts/dev.mjs).
const ADMIN = { Authorization: "Bearer dev-admin-token-not-for-production-use", "Content-Type": "application/json" };
const BOREAL = Array.from({ length: 1200 }, (_, i) => `HO-BOR-${String(i + 1).padStart(4, "0")}`);
const BIG_BRAND = { id: "HO-BIG", properties: 12_000 };

/**
 * Imports a brand of `count` properties with HO-BOR-like FAQs (eight each), through the operator API, 1,000
 * records to an import (the first holds the brand; a property alone in a file leaves its siblings as they are).
 */
async function importBrand(origin, brandId, count) {
  const admin = async (method, path, body) => {
    const res = await fetch(`${origin}/admin/v1${path}`, { method, headers: ADMIN, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  };
  const faqs = (id) =>
    Array.from({ length: 8 }, (_, n) => ({
      category: "General",
      question: `Question ${n + 1} about ${id}?`,
      answer: `An answer of about the length of the fixture's answers, for question ${n + 1} of ${id}: yes, on request, at the front desk.`,
    }));
  const records = [
    { id: brandId, kind: "brand", name: `${brandId} brand`, faqs: [] },
    ...Array.from({ length: count }, (_, i) => {
      const id = `${brandId}-${String(i + 1).padStart(5, "0")}`;
      return { id, kind: "property", brandId, name: `${brandId} hotel ${i + 1}`, propertyId: i + 1, faqs: faqs(id) };
    }),
  ];
  for (let start = 0; start < records.length; start += 1000) {
    const { id } = await admin("POST", "/imports");
    await admin("POST", `/imports/${id}/rows`, { rows: records.slice(start, start + 1000).map((record, i) => ({ line: i + 1, record })) });
    await admin("POST", `/imports/${id}/commit`);
  }
}

/** The workerd processes of a process group (the dev server's), by /proc. */
function workerdPids(group) {
  const pids = [];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [comm, rest] = [stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), stat.slice(stat.lastIndexOf(")") + 2).split(" ")];
      if (comm === "workerd" && Number(rest[2]) === group) pids.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return pids;
}

function rssBytes(pids) {
  let sum = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      sum += match ? Number(match[1]) * 1024 : 0;
    } catch {
      // The process ended meanwhile.
    }
  }
  return sum;
}

/** Runs `work` while sampling workerd's resident set every 2 ms: its result, the wall time and the peak growth. */
async function measured(pids, work) {
  const canSample = pids.length > 0;
  const baseline = canSample ? rssBytes(pids) : 0;
  let peak = baseline;
  const timer = canSample ? setInterval(() => (peak = Math.max(peak, rssBytes(pids))), 2) : null;
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, growth: canSample ? peak - baseline : null };
  } finally {
    if (timer) clearInterval(timer);
  }
}

/** All of HO-BOR as SPEC's 413 fallback asks: its roster, then each property's feed, 8 connections; body bytes received. */
function perEntity(origin, query) {
  const paths = ["/api/v3/content/HO-BOR/properties", ...BOREAL.map((id) => `/api/v3/content/${id}/faq.json${query}`)];
  let next = 0;
  let bytes = 0;
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: origin,
        connections: 8,
        amount: paths.length,
        headers: KEY,
        requests: [
          {
            setupRequest: (req) => ({ ...req, path: paths[next++] }),
            onResponse: (status, body) => {
              if (status !== 200) reject(new Error(`per-entity fallback: HTTP ${status}`));
              bytes += Buffer.byteLength(body);
            },
          },
        ],
      },
      (error) => (error ? reject(error) : resolve({ bytes })),
    ),
  );
}

const read = async (origin, path, headers = {}) => {
  const res = await fetch(`${origin}${path}`, { headers: { ...KEY, ...headers } });
  const body = new Uint8Array(await res.arrayBuffer());
  if (res.status >= 400) throw new Error(`${path}: HTTP ${res.status}`);
  return { res, bytes: body.byteLength };
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mib = (bytes) => (bytes === null ? "n/a" : (bytes / 1048576).toFixed(1));

/** The rows of the partner-sync benchmark against the dev server `dev` (its process group holds workerd). */
export async function syncBench(dev, { samples = 10 } = {}) {
  const rows = [];
  const run = async (name, requests, work, times = samples) => {
    const pids = workerdPids(dev.pid);
    const runs = [];
    for (let i = 0; i < times; i++) runs.push(await measured(pids, work));
    rows.push({
      name,
      requests,
      bytes: runs[0].result.bytes,
      ms: median(runs.map((r) => r.ms)),
      growth: pids.length > 0 ? median(runs.map((r) => r.growth)) : null,
    });
  };

  // The first fallback round builds every body from D1 (flags the other rounds do not use), later rounds hit caches.
  await run(
    "HO-BOR per-entity fallback, bodies built from D1 (1,201 × faq.json)",
    1201,
    () => perEntity(dev.origin, "?includeCategory=1"),
    1,
  );
  await run("HO-BOR per-entity fallback, cache hits (1,201 × faq.json)", 1201, () => perEntity(dev.origin, ""));
  await run("HO-BOR stream (faq.ndjson, 1,201 lines)", 1, () => read(dev.origin, "/api/v3/content/HO-BOR/faq.ndjson"));
  const etag = (await read(dev.origin, "/api/v3/content/HO-BOR/faq.ndjson")).res.headers.get("ETag");
  await run("HO-BOR stream, If-None-Match (304)", 1, () =>
    read(dev.origin, "/api/v3/content/HO-BOR/faq.ndjson", { "If-None-Match": etag }),
  );
  await run("HO-AUR stream (faq.ndjson, 121 lines)", 1, () => read(dev.origin, "/api/v3/content/HO-AUR/faq.ndjson"));
  await importBrand(dev.origin, BIG_BRAND.id, BIG_BRAND.properties);
  await run(`A brand of ${BIG_BRAND.properties.toLocaleString("en")} properties, stream`, 1, () =>
    read(dev.origin, `/api/v3/content/${BIG_BRAND.id}/faq.ndjson`),
  );
  await run("Change feed, one page of HO-BOR (1,000 entries)", 1, () => read(dev.origin, "/api/v3/content/changes?brandId=HO-BOR"));

  const fallback = rows[0].ms;
  console.log(
    `\nKeeping HO-BOR in sync, median of ${samples} runs each (the first row: one run); memory: the growth of workerd's resident set from before a request to its peak during it\n`,
  );
  console.log("| Scenario | requests | bytes | ms | time vs per-entity from D1 | workerd peak RSS growth MiB |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.requests.toLocaleString("en")} | ${row.bytes.toLocaleString("en")} | ${row.ms.toFixed(0)} | ${(row.ms / fallback).toFixed(3)} | ${mib(row.growth)} |`,
    );
  }
}
