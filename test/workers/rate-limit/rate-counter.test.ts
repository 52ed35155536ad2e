import { env, evictDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HOUR_MS, rateCounter, windowStart } from "../../../src/rate-limit/rate-counter";

afterEach(() => {
  vi.useRealTimers();
});

describe("RateCounter", () => {
  it("keeps the window's count when the counter object is evicted from memory", async () => {
    const counter = rateCounter(env, "api-key:eviction-test");
    const first = await counter.hit(10);
    await evictDurableObject(counter);
    const second = await counter.hit(10);
    expect(second.remaining).toBe(first.remaining - 1);
  });

  it("gives back a reserved attempt only in the window it was counted in, never lowering the next hour's count", async () => {
    const counter = rateCounter(env, "sign-in-failures:release-test");
    vi.useFakeTimers({ toFake: ["Date"] });
    const hour = windowStart(Date.now()) + HOUR_MS;
    vi.setSystemTime(hour - 100);
    const reserved = await counter.hit(10);
    await counter.release(reserved.windowStart);
    expect((await counter.peek(10)).remaining).toBe(10);
    const late = await counter.hit(10);
    vi.setSystemTime(hour + 100);
    const next = await counter.hit(10);
    expect(next.remaining).toBe(9);
    // The attempt of the hour before succeeds now: the new hour's count stays.
    await counter.release(late.windowStart);
    expect((await counter.peek(10)).remaining).toBe(9);
  });
});
