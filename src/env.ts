import type { RateCounter } from "./rate-limit/rate-counter";

/** Bindings and vars of the Worker (wrangler.toml); every var is optional and has a documented default. */
export interface Env {
  DB: D1Database;
  RATE_COUNTER: DurableObjectNamespace<RateCounter>;
  ENVIRONMENT?: string;
  REALM?: string;
  BASE_URL?: string;
  AUTH_URL?: string;
  API_URL?: string;
  MAX_GRAPH_ENTITIES?: string;
  MAX_GRAPH_BYTES?: string;
  HEALTH_TIMEOUT_MS?: string;
  ADMIN_TOKEN?: string;
}

export type AppEnv = { Bindings: Env };

export const isDevelopment = (env: Env): boolean => env.ENVIRONMENT === "development";

/** Reads a positive integer var, falling back to its default when unset or not a positive integer. */
export function intVar(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** Absolute origin of a surface: the configured URL, else the origin the request came in on. */
export function surfaceOrigin(configured: string | undefined, requestUrl: string): string {
  return (configured ?? new URL(requestUrl).origin).replace(/\/+$/, "");
}
