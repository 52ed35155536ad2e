import { afterEach, describe, expect, it, vi } from "vitest";
import { BodyCache } from "../../../src/cache/body-cache";
import { ExpiringCache } from "../../../src/cache/expiring-cache";
import { RefreshingCache } from "../../../src/cache/refreshing-cache";
import { organizationCache } from "../../../src/identity/verify";

describe("BodyCache", () => {
  it("evicts the least recently used entry past its entry bound", () => {
    const cache = new BodyCache<{ body: string }>(2, 1_000);
    cache.set("a", { body: "A" });
    cache.set("b", { body: "B" });
    cache.get("a");
    cache.set("c", { body: "C" });
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")?.body).toBe("A");
    expect(cache.get("c")?.body).toBe("C");
  });

  it("stays within its byte bound and never holds a body larger than the bound", () => {
    const cache = new BodyCache<{ body: string }>(100, 40);
    cache.set("a", { body: "x".repeat(10) });
    cache.set("b", { body: "y".repeat(10) });
    cache.set("c", { body: "z".repeat(10) });
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")).toBeDefined();
    cache.set("huge", { body: "h".repeat(21) });
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("c")).toBeDefined();
  });

  it("counts each key's size in its byte bound, as its body's", () => {
    const cache = new BodyCache<{ body: string }>(100, 40);
    cache.set("a", { body: "x".repeat(10) });
    cache.set("b".repeat(10), { body: "y" });
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b".repeat(10))).toBeDefined();
    cache.set("k".repeat(21), { body: "" });
    expect(cache.get("k".repeat(21))).toBeUndefined();
    cache.set("k".repeat(19), { body: "z" });
    expect(cache.get("k".repeat(19))).toBeDefined();
    expect(cache.get("b".repeat(10))).toBeUndefined();
  });
});

describe("ExpiringCache", () => {
  it("forgets an entry exactly its time after it was written", () => {
    const cache = new ExpiringCache<string | null>(1_000, 10);
    cache.set("known", "org-aurora", 0);
    cache.set("unknown", null, 0);
    expect(cache.get("known", 999)).toBe("org-aurora");
    expect(cache.get("unknown", 999)).toBeNull();
    expect(cache.get("known", 1_000)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it("holds at most its bound, dropping the oldest write first", () => {
    const cache = new ExpiringCache<number>(60_000, 3);
    for (let i = 0; i < 1_000; i++) cache.set(`made-up-${i}`, i, 0);
    expect(cache.size).toBe(3);
    expect(cache.get("made-up-996", 1)).toBeUndefined();
    expect(cache.get("made-up-999", 1)).toBe(999);
  });

  it("bounds the organization cache of bearer verification at 10,000 clients for 60 s", () => {
    expect(organizationCache.maxEntries).toBe(10_000);
    expect(organizationCache.ttlMs).toBe(60_000);
  });
});

describe("RefreshingCache", () => {
  afterEach(() => vi.useRealTimers());

  it("serves a fresh value as is, a stale one while reloading in the background, and loads an expired one first", async () => {
    let now = 1_000_000;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
    const cache = new RefreshingCache<number>(500, 1_000, 10);
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    const background: Promise<unknown>[] = [];
    const get = () => cache.get("v", load, (p) => background.push(p));

    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]); // concurrent loads are shared
    vi.setSystemTime((now += 499));
    expect(await get()).toBe(1);
    expect(background).toHaveLength(0);
    vi.setSystemTime((now += 1));
    expect(await get()).toBe(1); // stale: served, reloaded behind it
    expect(background).toHaveLength(1);
    await background[0];
    expect(await get()).toBe(2);
    vi.setSystemTime((now += 1_000));
    expect(await get()).toBe(3); // expired: loaded before answering
    vi.setSystemTime(now - 60_000);
    expect(await get()).toBe(4); // a clock set back ages nothing: loaded again
  });
});
