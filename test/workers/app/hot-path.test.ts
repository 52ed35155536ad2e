import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_KEY_MAX_AGE_MS } from "../../../src/catalogue/api-keys";
import { CONTENT_VERSION_MAX_AGE_MS } from "../../../src/catalogue/snapshot";
import { leaseBlock } from "../../../src/rate-limit/quota-leases";
import { rateCounter } from "../../../src/rate-limit/rate-counter";
import { newApiKey, tokenForNewOrganization } from "../support/admin";
import { counting, fetchWith } from "../support/app";
import { contentRequest } from "../support/content";
import { initializeRequest, mcpDelete, mcpPost } from "../support/mcp";

/**
 * The hot paths' consistency contract (README "Limits and caches"): what is remembered per isolate,
 * for how long, and that the hourly limits stay exact however the quota is spent.
 */

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Freezes the clock (so nothing ages unless a test moves it) and returns a way to move it. */
function frozenClock(): (ms: number) => void {
  let now = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now);
  return (ms) => vi.setSystemTime((now += ms));
}

/** D1 and the rate counters as the Worker sees them, each call to storage counted (sessions included). */
function countedEnv() {
  const db = counting(env.DB, ["prepare", "batch"]);
  const counter = counting(env.RATE_COUNTER, ["get"]);
  return { vars: { DB: db.binding, RATE_COUNTER: counter.binding }, calls: () => ({ d1: db.calls(), counter: counter.calls() }) };
}

const feed = (key: string, path = "/api/v3/content/HO-AUR-0021/faq.json") => contentRequest(path, key);

describe("the content hot path", () => {
  it("serves a cached feed without waiting on D1, and on the rate counter once per block", async () => {
    frozenClock();
    const { key } = await newApiKey({ hourlyLimit: 1000 });
    expect(leaseBlock(1000)).toBe(10);
    expect((await fetchWith(feed(key))).status).toBe(200); // loads the key, the version and the body; reserves a block
    const { vars, calls } = countedEnv();
    const remaining: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fetchWith(feed(key), vars);
      expect(res.status).toBe(200);
      remaining.push(res.headers.get("X-RateLimit-Remaining")!);
    }
    expect(calls()).toEqual({ d1: 0, counter: 3 });
    // One isolate: exact, counting down by one however the blocks fall.
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => String(998 - i)));
  });

  it("never admits more than the limit while other isolates lease blocks of the same key", async () => {
    const limit = 500;
    const { id, key } = await newApiKey({ hourlyLimit: limit });
    const counter = rateCounter(env, `api-key:${id}`);
    // Four other isolates, each taking blocks until the counter has none left.
    const otherIsolate = async () => {
      let taken = 0;
      for (;;) {
        const { granted } = await counter.reserve(limit, 1, leaseBlock(limit));
        if (granted === 0) return taken;
        taken += granted;
      }
    };
    const [ours, ...theirs] = await Promise.all([
      Promise.all(Array.from({ length: 300 }, () => SELF.fetch(feed(key)))),
      otherIsolate(),
      otherIsolate(),
      otherIsolate(),
      otherIsolate(),
    ]);
    const admitted = ours.filter((r) => r.status === 200).length;
    expect(ours.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(admitted + (theirs as number[]).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(limit);
    // Every request of the hour was reserved by someone: nothing more can be had, and none was admitted twice.
    expect((await counter.reserve(limit, 1)).granted).toBe(0);
    expect(admitted).toBeGreaterThan(0);
  });

  it(`refuses a revoked key within ${API_KEY_MAX_AGE_MS / 1000} s when another isolate revoked it, at once when this one did`, async () => {
    const advance = frozenClock();
    const { id, key } = await newApiKey({ hourlyLimit: 1000 });
    expect((await fetchWith(feed(key))).status).toBe(200);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(new Date().toISOString(), id).run();
    advance(API_KEY_MAX_AGE_MS);
    const refused = await fetchWith(feed(key));
    expect(refused.status).toBe(401);
    expect((await refused.json<{ message: string }>()).message).toMatch(/revoked/);
  });

  it("refuses an expired key the moment it expires, whatever is remembered", async () => {
    const advance = frozenClock();
    const { key } = await newApiKey({ hourlyLimit: 1000, expiresAt: new Date(Date.now() + 1_000).toISOString() });
    expect((await fetchWith(feed(key))).status).toBe(200);
    advance(999);
    expect((await fetchWith(feed(key))).status).toBe(200);
    advance(1);
    expect((await fetchWith(feed(key))).status).toBe(401);
  });

  it(`serves a content change written elsewhere within ${CONTENT_VERSION_MAX_AGE_MS} ms`, async () => {
    const advance = frozenClock();
    const { key } = await newApiKey({ hourlyLimit: 1000 });
    const name = async () =>
      (await (await fetchWith(feed(key, "/api/v3/content/HO-AUR-0022/faq.json"))).json<{ about: { name: string } }>()).about.name;
    const before = await name();
    await env.DB.prepare("UPDATE entities SET name = 'Changed Elsewhere' WHERE id = 'HO-AUR-0022'").run();
    advance(CONTENT_VERSION_MAX_AGE_MS);
    expect(await name()).toBe("Changed Elsewhere");
    await env.DB.prepare("UPDATE entities SET name = ? WHERE id = 'HO-AUR-0022'").bind(before).run();
  });
});

describe("the MCP hot path", () => {
  it("verifies a token once and spends the organization's limit from a block: only the session object is asked per call", async () => {
    frozenClock();
    const token = await tokenForNewOrganization("org-hot-path", ["DMO-LIS"]);
    const opened = await fetchWith(mcpPost(token, initializeRequest()));
    const sessionId = opened.headers.get("mcp-session-id")!;
    const verify = vi.spyOn(crypto.subtle, "verify");
    const { vars, calls } = countedEnv();
    for (let id = 2; id < 12; id++) {
      const res = await fetchWith(mcpPost(token, { jsonrpc: "2.0", id, method: "tools/list" }, sessionId), vars);
      expect(res.status).toBe(200);
    }
    expect(verify).not.toHaveBeenCalled();
    expect(calls()).toEqual({ d1: 0, counter: 0 });
    // A terminated session is still refused at once: the session object is asked every time.
    expect((await fetchWith(mcpDelete(token, sessionId), vars)).status).toBe(204);
    const after = await fetchWith(mcpPost(token, { jsonrpc: "2.0", id: 99, method: "tools/list" }, sessionId), vars);
    expect(after.status).toBe(404);
  });
});
