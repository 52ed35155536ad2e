import { Hono } from "hono";
import type { AppEnv, Env } from "../env";
import { intVar } from "../env";
import { publicCors } from "../http/public-cors";
import { rateCounter } from "../rate-limit/rate-counter";

let firstServedAt: number | undefined;

/**
 * How long an isolate reuses its last probe of D1 and the Durable Objects. A flood of /health then
 * costs one probe per isolate per interval, instead of queueing thousands of probes behind one
 * another until they time out and report the service down; the status may be this much behind.
 */
export const HEALTH_PROBE_CACHE_MS = 5_000;
// Keyed by the bindings probed, so a configuration with other bindings is probed afresh.
let lastProbe: { db: D1Database; counter: Env["RATE_COUNTER"]; until: number; result: Promise<[boolean, boolean]> } | undefined;

/** Resolves true when `probe` succeeds within `ms`, false on error or timeout. */
async function withinTimeout(probe: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      probe().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

function probeDependencies(env: Env, now: number): Promise<[boolean, boolean]> {
  if (lastProbe && lastProbe.db === env.DB && lastProbe.counter === env.RATE_COUNTER && lastProbe.until > now) return lastProbe.result;
  const timeoutMs = intVar(env.HEALTH_TIMEOUT_MS, 2000);
  // Concurrent requests share the probe in flight.
  const result = Promise.all([
    withinTimeout(() => env.DB.prepare("SELECT 1").first(), timeoutMs),
    withinTimeout(() => rateCounter(env, "health-probe").ping(), timeoutMs),
  ]);
  lastProbe = { db: env.DB, counter: env.RATE_COUNTER, until: now + HEALTH_PROBE_CACHE_MS, result };
  return result;
}

/** The health document: D1 is the document store (`mongodb`), the Durable Object counters the cache (`redis`). */
export async function healthDocument(env: Env, now = Date.now()) {
  firstServedAt ??= now;
  const [documentStore, cache] = await probeDependencies(env, now);
  return {
    status: documentStore && cache ? ("healthy" as const) : ("degraded" as const),
    mongodb: { connected: documentStore },
    redis: { connected: cache },
    uptime_seconds: Math.floor((now - firstServedAt) / 1000),
  };
}

export const healthRoutes = new Hono<AppEnv>().use("/health", publicCors).get("/health", async (c) => {
  const doc = await healthDocument(c.env);
  // Load balancers take a degraded instance out of rotation on 503; the body says which dependency failed.
  return c.json(doc, doc.status === "healthy" ? 200 : 503, { "Cache-Control": "no-store" });
});
