import { ExpiringCache } from "../cache/expiring-cache";
import type { Env } from "../env";
import { HOUR_MS, rateCounter, secondsToWindowEnd, windowStart, type RateDecision, type Reservation } from "./rate-counter";

/**
 * Blocks of an hourly quota reserved from its RateCounter and spent in this isolate, so that most
 * counted requests wait for no subrequest. The counter counts a block when it grants it, so the
 * hour never admits more than its limit, whatever the concurrency or the number of isolates; small
 * limits get blocks of one (a 5/h key asks the counter every time and stays exact). A block an
 * isolate does not spend before it goes away is lost to that hour: at most `leaseBlock(limit) - 1`
 * requests per isolate, 1% of the limit.
 */
export const leaseBlock = (limit: number): number => Math.min(100, Math.max(1, Math.floor(limit / 100)));

interface Lease {
  limit: number;
  /** The counter's window, by the counter's clock. */
  windowStart: number;
  /** Reserved here and not spent yet. */
  tokens: number;
  /** The counter's total for the window at the last grant (every isolate's reservations). */
  count: number;
  refill?: Promise<Reservation>;
}

// One lease per counter this isolate spends from; an hour at most, and bounded like every cache keyed by callers.
const leases = new ExpiringCache<Lease>(HOUR_MS, 10_000);

function decision(lease: Lease, allowed: boolean, now: number): RateDecision {
  return {
    allowed,
    limit: lease.limit,
    // Exact while one isolate serves the counter; otherwise other isolates' unspent blocks are not seen.
    remaining: Math.max(0, lease.limit - lease.count) + lease.tokens,
    resetSeconds: secondsToWindowEnd(lease.windowStart, now),
    windowStart: lease.windowStart,
  };
}

/**
 * Spends `cost` requests of the hourly `limit` of the counter `name`: from this isolate's block when
 * it holds enough, else after reserving more (concurrent requests share one reservation). All or
 * nothing, like RateCounter.hit: a refused request spends and counts nothing.
 */
export async function spendQuota(env: Env, name: string, limit: number, cost = 1): Promise<RateDecision> {
  let lease = leases.get(name);
  for (;;) {
    const now = Date.now();
    if (!lease || lease.limit !== limit || now >= lease.windowStart + HOUR_MS) {
      lease = { limit, windowStart: windowStart(now), tokens: 0, count: 0 };
      leases.set(name, lease);
    }
    if (lease.tokens >= cost) {
      lease.tokens -= cost;
      return decision(lease, true, now);
    }
    const pending = lease.refill;
    const refill = pending ?? reserve(env, name, lease, cost - lease.tokens);
    const reservation = await refill;
    // Another request's reservation may not cover this one: ask again, unless the counter refused this very need.
    if (reservation.granted === 0 && !pending) return decision(lease, false, Date.now());
    if (reservation.granted === 0 && lease.tokens < cost && reservation.count + cost > limit) return decision(lease, false, Date.now());
  }
}

function reserve(env: Env, name: string, lease: Lease, need: number): Promise<Reservation> {
  const refill = rateCounter(env, name)
    .reserve(lease.limit, need, Math.max(need, leaseBlock(lease.limit)))
    .then((reservation) => {
      if (reservation.windowStart !== lease.windowStart) {
        // The counter's hour is the hour: what it granted belongs to its window.
        lease.windowStart = reservation.windowStart;
        lease.tokens = 0;
      }
      lease.tokens += reservation.granted;
      lease.count = reservation.count;
      return reservation;
    })
    .finally(() => {
      if (lease.refill === refill) lease.refill = undefined;
    });
  lease.refill = refill;
  return refill;
}
