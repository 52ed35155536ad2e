import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

const HOUR_MS = 3_600_000;

/** What one counted request learns about its key's current window. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the next window starts (at least 1). */
  resetSeconds: number;
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
   * Counts `cost` requests (a JSON-RPC batch is several) against `limit`, all or nothing: when they do
   * not all fit in what is left of the window, none is counted and the request is refused.
   */
  hit(limit: number, cost = 1): RateDecision {
    const now = Date.now();
    const start = now - (now % HOUR_MS);
    if (this.window.start !== start) this.window = { start, count: 0 };
    const allowed = this.window.count + cost <= limit;
    if (allowed) {
      this.window.count += cost;
      // Not awaited: the output gate holds the reply until the write is durable.
      void this.ctx.storage.put("window", this.window);
    }
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - this.window.count),
      resetSeconds: Math.max(1, Math.ceil((start + HOUR_MS - now) / 1000)),
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
