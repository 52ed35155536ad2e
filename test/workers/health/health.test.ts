import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fetchWith } from "../support/app";

describe("GET /health", () => {
  it("is public and reports healthy dependencies", async () => {
    const res = await SELF.fetch("https://mcp.example.com/health");
    expect(res.status).toBe(200);
    const doc = await res.json<Record<string, unknown>>();
    expect(Object.keys(doc)).toEqual(["status", "mongodb", "redis", "uptime_seconds"]);
    expect(doc).toMatchObject({ status: "healthy", mongodb: { connected: true }, redis: { connected: true } });
    expect(Number.isInteger(doc.uptime_seconds)).toBe(true);
    expect(doc.uptime_seconds as number).toBeGreaterThanOrEqual(0);
  });

  it("reports degraded, with the failing dependency's connected flag false, when D1 fails", async () => {
    // A database binding whose every query fails stands in for an outage of the document store.
    const brokenDb = { prepare: () => ({ first: () => Promise.reject(new Error("D1 unavailable")) }) } as unknown as D1Database;
    const res = await fetchWith(new Request("https://mcp.example.com/health"), { DB: brokenDb });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "degraded", mongodb: { connected: false }, redis: { connected: true } });
  });

  it("reports degraded when the Durable Object does not answer within the timeout", async () => {
    const hanging = { idFromName: () => ({}), get: () => ({ ping: () => new Promise(() => {}) }) } as unknown as typeof env.RATE_COUNTER;
    const res = await fetchWith(new Request("https://mcp.example.com/health"), { RATE_COUNTER: hanging, HEALTH_TIMEOUT_MS: "50" });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "degraded", mongodb: { connected: true }, redis: { connected: false } });
  });
});
