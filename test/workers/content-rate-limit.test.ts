import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectErrorResponse, get } from "./helpers";

const ROSTER = "/api/v3/content/HO-CAS/properties";
const HOUR = 3_600_000;

afterEach(() => {
  vi.useRealTimers();
});

describe("hourly per-key rate limit", () => {
  it("counts down, then answers 429 with X-RateLimit-* and Retry-After, and opens again in the next window", async () => {
    const start = Math.floor(Date.now() / HOUR) * HOUR + 10 * HOUR;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start + 1_000_000); // 2,600 s before the next window

    for (let n = 1; n <= 5; n++) {
      const res = await get(ROSTER, "demo-key-small");
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBe("5");
      expect(res.headers.get("X-RateLimit-Remaining")).toBe(String(5 - n));
      expect(res.headers.get("X-RateLimit-Reset")).toBe("2600");
      expect(res.headers.get("Retry-After")).toBeNull();
    }
    for (const path of [ROSTER, "/api/v3/content/HO-AUR-0001/faq.json"]) {
      const res = await get(path, "demo-key-small");
      await expectErrorResponse(res, 429, "Too Many Requests", path);
      expect(res.headers.get("X-RateLimit-Limit")).toBe("5");
      expect(res.headers.get("X-RateLimit-Remaining")).toBe("0");
      expect(res.headers.get("X-RateLimit-Reset")).toBe("2600");
      expect(res.headers.get("Retry-After")).toBe("2600");
    }
    // Other keys keep their own windows.
    expect((await get(ROSTER, "demo-key")).status).toBe(200);

    vi.setSystemTime(start + HOUR + 1_000);
    const next = await get(ROSTER, "demo-key-small");
    expect(next.status).toBe(200);
    expect(next.headers.get("X-RateLimit-Remaining")).toBe("4");
    expect(next.headers.get("X-RateLimit-Reset")).toBe("3599");
  });

  it("counts 304s, 400s and 404s against the key, but never requests without a valid key", async () => {
    const counted = async (headers: Record<string, string>) =>
      (await SELF.fetch(`https://api.example.com${ROSTER}`, { headers: { "X-API-Key": "demo-key", ...headers } })).headers.get("X-RateLimit-Remaining");
    const r1 = Number(await counted({}));
    await SELF.fetch("https://api.example.com/api/v3/content/HO-AUR-0001/faq.json?includeCategory=x", { headers: { "X-API-Key": "demo-key" } });
    await SELF.fetch("https://api.example.com/api/v3/content/HO-NOPE/properties", { headers: { "X-API-Key": "demo-key" } });
    await SELF.fetch(`https://api.example.com${ROSTER}`, { headers: { "X-API-Key": "wrong-key" } });
    await SELF.fetch(`https://api.example.com${ROSTER}`);
    expect(Number(await counted({}))).toBe(r1 - 3);
  });

  it("keeps the window's count when the counter object is evicted from memory", async () => {
    const id = env.RATE_COUNTER.idFromName("api-key:eviction-test");
    const first = await env.RATE_COUNTER.get(id).hit(10);
    const { evictDurableObject } = await import("cloudflare:test");
    await evictDurableObject(env.RATE_COUNTER.get(id));
    const second = await env.RATE_COUNTER.get(id).hit(10);
    expect(second.remaining).toBe(first.remaining - 1);
  });
});
