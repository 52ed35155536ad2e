import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../src/app";
import { API_KEY_MAX_AGE_MS } from "../../../src/content/api-key";
import { CONTENT_VERSION_MAX_AGE_MS } from "../../../src/catalogue/snapshot";
import { sha256Hex } from "../../../src/crypto/hash";
import { leaseBlock } from "../../../src/rate-limit/quota-leases";
import { insertApiKey } from "../../../src/storage/api-keys";
import { tokenForNewOrganization } from "../support/admin";
import { API } from "../support/content";
import { BASE, initializeRequest, mcpHeaders } from "../support/mcp";
import { rateCounter } from "../../../src/rate-limit/rate-counter";

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
  const calls = { d1: 0, counter: 0 };
  const countD1 = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, property) {
        const value = Reflect.get(t, property, t);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (property === "prepare" || property === "batch") calls.d1++;
          const result = value.apply(t, args);
          return property === "withSession" ? countD1(result) : result;
        };
      },
    });
  const counter = new Proxy(env.RATE_COUNTER, {
    get(t, property) {
      const value = Reflect.get(t, property, t);
      if (property !== "get") return typeof value === "function" ? value.bind(t) : value;
      return (...args: unknown[]) => {
        calls.counter++;
        return value.apply(t, args);
      };
    },
  });
  return { vars: { ...env, DB: countD1(env.DB), RATE_COUNTER: counter }, calls };
}

async function newKey(hourlyLimit: number, expiresAt: string | null = null): Promise<string> {
  const key = `hot-${crypto.randomUUID()}`;
  await insertApiKey(env.DB, {
    id: `key_${key.slice(-12)}`,
    key_hash: await sha256Hex(key),
    partner: "Hot",
    hourly_limit: hourlyLimit,
    expires_at: expiresAt,
    revoked_at: null,
    created_at: new Date().toISOString(),
  }).run();
  return key;
}

const app = createApp();
async function fetchWith(request: Request, vars: typeof env = env): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(request, vars, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}
const feed = (key: string, path = "/api/v3/content/HO-AUR-0021/faq.json") =>
  new Request(`${API}${path}`, { headers: { "X-API-Key": key } });

describe("the content hot path", () => {
  it("serves a cached feed without waiting on D1, and on the rate counter once per block", async () => {
    frozenClock();
    const key = await newKey(1000);
    expect(leaseBlock(1000)).toBe(10);
    expect((await fetchWith(feed(key))).status).toBe(200); // loads the key, the version and the body; reserves a block
    const { vars, calls } = countedEnv();
    const remaining: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fetchWith(feed(key), vars);
      expect(res.status).toBe(200);
      remaining.push(res.headers.get("X-RateLimit-Remaining")!);
    }
    expect(calls).toEqual({ d1: 0, counter: 3 });
    // One isolate: exact, counting down by one however the blocks fall.
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => String(998 - i)));
  });

  it("never admits more than the limit while other isolates lease blocks of the same key", async () => {
    const limit = 500;
    const key = await newKey(limit);
    const id = (await env.DB.prepare("SELECT id FROM api_keys WHERE key_hash = ?")
      .bind(await sha256Hex(key))
      .first<{ id: string }>())!.id;
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
    const key = await newKey(1000);
    expect((await fetchWith(feed(key))).status).toBe(200);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE key_hash = ?")
      .bind(new Date().toISOString(), await sha256Hex(key))
      .run();
    advance(API_KEY_MAX_AGE_MS);
    const refused = await fetchWith(feed(key));
    expect(refused.status).toBe(401);
    expect((await refused.json<{ message: string }>()).message).toMatch(/revoked/);
  });

  it("refuses an expired key the moment it expires, whatever is remembered", async () => {
    const advance = frozenClock();
    const key = await newKey(1000, new Date(Date.now() + 1_000).toISOString());
    expect((await fetchWith(feed(key))).status).toBe(200);
    advance(999);
    expect((await fetchWith(feed(key))).status).toBe(200);
    advance(1);
    expect((await fetchWith(feed(key))).status).toBe(401);
  });

  it(`serves a content change written elsewhere within ${CONTENT_VERSION_MAX_AGE_MS} ms`, async () => {
    const advance = frozenClock();
    const key = await newKey(1000);
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
    const opened = await fetchWith(
      new Request(`${BASE}/v1/sse`, { method: "POST", headers: mcpHeaders(token), body: JSON.stringify(initializeRequest()) }),
    );
    const sessionId = opened.headers.get("mcp-session-id")!;
    const verify = vi.spyOn(crypto.subtle, "verify");
    const { vars, calls } = countedEnv();
    for (let id = 2; id < 12; id++) {
      const res = await fetchWith(
        new Request(`${BASE}/v1/sse`, {
          method: "POST",
          headers: mcpHeaders(token, sessionId),
          body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }),
        }),
        vars,
      );
      expect(res.status).toBe(200);
    }
    expect(verify).not.toHaveBeenCalled();
    expect(calls).toEqual({ d1: 0, counter: 0 });
    // A terminated session is still refused at once: the session object is asked every time.
    expect((await fetchWith(new Request(`${BASE}/v1/sse`, { method: "DELETE", headers: mcpHeaders(token, sessionId) }), vars)).status).toBe(
      204,
    );
    const after = await fetchWith(
      new Request(`${BASE}/v1/sse`, {
        method: "POST",
        headers: mcpHeaders(token, sessionId),
        body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/list" }),
      }),
      vars,
    );
    expect(after.status).toBe(404);
  });
});
