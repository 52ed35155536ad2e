import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

export const HOUR_MS = 3_600_000;

/** The start of the UTC clock hour `now` falls in: the window a count belongs to. */
export const windowStart = (now: number): number => now - (now % HOUR_MS);

/** Seconds until the window that started at `start` ends (at least 1: a client never waits 0 s). */
export const secondsToWindowEnd = (start: number, now: number): number => Math.max(1, Math.ceil((start + HOUR_MS - now) / 1000));

/** The counter named `name` (an API key, an organization, a token caller, a sign-in email). */
export const rateCounter = (env: Pick<Env, "RATE_COUNTER">, name: string) =>
  env.RATE_COUNTER.get(env.RATE_COUNTER.idFromName(name)) as DurableObjectStub<RateCounter>;

/** The counters every surface shares: a partner key's hourly window, and an organization's MCP requests'. */
export const counterNames = {
  apiKey: (id: string): string => `api-key:${id}`,
  organization: (id: string): string => `organization:${id}`,
};

/** Requests counted in the current window of `name` (at most `limit`); counts nothing. */
export async function usedThisHour(env: Pick<Env, "RATE_COUNTER">, name: string, limit: number): Promise<number> {
  const window = await rateCounter(env, name).peek(limit);
  return window.limit - window.remaining;
}

/** What a reservation got: `granted` requests (0 when fewer than asked for were left), and the window after it. */
export interface Reservation {
  granted: number;
  limit: number;
  /** Everything reserved in the window so far, this grant included. */
  count: number;
  windowStart: number;
  resetSeconds: number;
}

/** What one counted request learns about its key's current window. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the next window starts (at least 1). */
  resetSeconds: number;
  /** The window the request was counted in. */
  windowStart: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Fixed-window request counter: one object per API key, MCP organization or token-endpoint caller,
 * the window being the current UTC clock hour. A Durable Object processes one event at a time, so counts never race.
 */
export class RateCounter extends DurableObject<Env> {
  private window: Window = { start: 0, count: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The window survives eviction: load it before the first event is delivered.
    void ctx.blockConcurrencyWhile(async () => {
      this.window = (await ctx.storage.get<Window>("window")) ?? this.window;
    });
  }

  /**
   * Reserves at least `need` and at most `want` requests of the window for the caller to spend, all
   * or nothing: when fewer than `need` are left, nothing is reserved. What is reserved counts at
   * once, so however the reservations are spent, no window ever admits more than `limit`.
   */
  reserve(limit: number, need: number, want = need): Reservation {
    const now = Date.now();
    const start = windowStart(now);
    if (this.window.start !== start) this.window = { start, count: 0 };
    const free = limit - this.window.count;
    const granted = free >= need ? Math.min(Math.max(need, want), free) : 0;
    if (granted > 0) {
      this.window.count += granted;
      // Not awaited: the output gate holds the reply until the write is durable.
      void this.ctx.storage.put("window", this.window);
    }
    return { granted, limit, count: this.window.count, windowStart: start, resetSeconds: secondsToWindowEnd(start, now) };
  }

  /** Counts `cost` requests against `limit` (a JSON-RPC batch is several), all or nothing; refused ones are not counted. */
  hit(limit: number, cost = 1): RateDecision {
    const reservation = this.reserve(limit, cost);
    return {
      allowed: reservation.granted > 0,
      limit,
      remaining: Math.max(0, limit - reservation.count),
      resetSeconds: reservation.resetSeconds,
      windowStart: reservation.windowStart,
    };
  }

  /**
   * Gives back `cost` requests counted in the window that started at `countedIn` (an attempt reserved as a failure
   * that succeeded); nothing once that window is over, so a new hour's count is never lowered by an old attempt.
   */
  release(countedIn: number, cost = 1): void {
    if (this.window.start !== countedIn || countedIn !== windowStart(Date.now())) return;
    this.window.count = Math.max(0, this.window.count - cost);
    void this.ctx.storage.put("window", this.window);
  }

  /** The window as `hit` would find it, counting nothing: `allowed` while at least one request is left. */
  peek(limit: number): RateDecision {
    const now = Date.now();
    const start = windowStart(now);
    const count = this.window.start === start ? this.window.count : 0;
    return {
      allowed: count < limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: secondsToWindowEnd(start, now),
      windowStart: start,
    };
  }

  /** Round trip for the health check. */
  ping(): "pong" {
    return "pong";
  }
}

/** The X-RateLimit-* headers of SPEC "Limits", plus Retry-After when the request was refused. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetSeconds),
  };
  if (!decision.allowed) headers["Retry-After"] = String(decision.resetSeconds);
  return headers;
}
