import { env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { rateCounter } from "../../../src/rate-limit/rate-counter";

describe("RateCounter", () => {
  it("keeps the window's count when the counter object is evicted from memory", async () => {
    const counter = rateCounter(env, "api-key:eviction-test");
    const first = await counter.hit(10);
    await evictDurableObject(counter);
    const second = await counter.hit(10);
    expect(second.remaining).toBe(first.remaining - 1);
  });
});
