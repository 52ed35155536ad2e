import { describe, expect, it } from "vitest";
import { BodyCache } from "../../src/content/memory-cache";

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
});
