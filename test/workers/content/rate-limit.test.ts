import { afterEach, describe, expect, it, vi } from "vitest";
import { newApiKey } from "../support/admin";
import { expectErrorResponse, get } from "../support/content";

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
    const { key } = await newApiKey({ partner: "Counting", hourlyLimit: 100 });
    const first = await get(ROSTER, key);
    expect(first.headers.get("X-RateLimit-Remaining")).toBe("99");
    const notModified = await get(ROSTER, key, { "If-None-Match": first.headers.get("ETag")! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("X-RateLimit-Remaining")).toBe("98");
    expect((await get("/api/v3/content/HO-AUR-0001/faq.json?includeCategory=x", key)).status).toBe(400);
    expect((await get("/api/v3/content/HO-NOPE/properties", key)).status).toBe(404);
    expect((await get(ROSTER, "wrong-key")).status).toBe(401);
    expect((await get(ROSTER, null)).status).toBe(401);
    expect((await get(ROSTER, key)).headers.get("X-RateLimit-Remaining")).toBe("95");
  });

  it("counts per key: two keys of one partner have separate budgets", async () => {
    const [a, b] = await Promise.all([newApiKey({ partner: "Twin", hourlyLimit: 3 }), newApiKey({ partner: "Twin", hourlyLimit: 3 })]);
    const statuses = async (key: string, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await get(ROSTER, key)).status);
      return out;
    };
    expect(await statuses(a.key, 4)).toEqual([200, 200, 200, 429]);
    const fromB = await get(ROSTER, b.key);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get("X-RateLimit-Remaining")).toBe("2");
    expect(await statuses(b.key, 3)).toEqual([200, 200, 429]);
  });
});
