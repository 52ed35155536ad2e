import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { changeStatements, planImport } from "../../../src/catalogue/apply";
import type { ContentRecord } from "../../../src/catalogue/records";
import { CONTENT_VERSION_MAX_AGE_MS } from "../../../src/catalogue/snapshot";
import { counting, fetchWith } from "../support/app";
import { API, contentRequest, expectErrorResponse, get } from "../support/content";

type Page = {
  "@context"?: string;
  "@type": string;
  "@id": string;
  about: { "@type": string; identifier: string; name: string; propertyId?: number | null };
  dateModified: string;
  mainEntity: { "@type": string; name: string; acceptedAnswer: { "@type": string; text: string }; category?: string }[];
};

describe("GET /api/v3/content/{entityId}/faq.json (one entity)", () => {
  it("returns a plain schema.org FAQPage by default", async () => {
    const res = await get("/api/v3/content/HO-AUR-0001/faq.json");
    expect(res.status).toBe(200);
    const page = await res.json<Page>();
    expect(page["@context"]).toBe("https://schema.org");
    expect(page["@type"]).toBe("FAQPage");
    expect(page["@id"]).toBe(`${API}/api/v3/content/HO-AUR-0001/faq.json`);
    expect(page.about).toEqual({
      "@type": "Hotel",
      identifier: "HO-AUR-0001",
      name: expect.any(String),
      url: "https://aurora-hotels.example/hotels/ho-aur-0001",
    });
    expect(page.dateModified).toBe("2026-11-01T10:00:00Z");
    expect(page.mainEntity.length).toBeGreaterThanOrEqual(5);
    expect(page.mainEntity.length).toBeLessThanOrEqual(12);
    for (const q of page.mainEntity) {
      expect(Object.keys(q)).toEqual(["@type", "name", "acceptedAnswer"]);
      expect(q["@type"]).toBe("Question");
      expect(q.acceptedAnswer["@type"]).toBe("Answer");
    }
  });

  it("keeps the questions in their stored order", async () => {
    const page = await (await get("/api/v3/content/HO-AUR-0003/faq.json")).json<Page>();
    const { results } = await env.DB.prepare("SELECT question FROM faqs WHERE entity_id = 'HO-AUR-0003' ORDER BY position").all<{
      question: string;
    }>();
    expect(page.mainEntity.map((q) => q.name)).toEqual(results.map((r) => r.question));
  });

  it.each([
    ["DMO-LIS", "Organization", "Visit Lisboa", { url: "https://visit-lisboa.example/" }],
    ["AIR-LIS", "Airport", "Lisbon Humberto Delgado Airport", {}],
  ])("describes %s as about a schema.org %s, with its own url when it has one", async (id, type, name, url) => {
    const page = await (await get(`/api/v3/content/${id}/faq.json`)).json<Page>();
    expect(page.about).toEqual({ "@type": type, identifier: id, name, ...url });
    expect(page.mainEntity.length).toBeGreaterThan(0);
  });

  it("adds about.propertyId with includePropertyId and category with includeCategory", async () => {
    const page = await (await get("/api/v3/content/HO-AUR-0001/faq.json?includePropertyId=true&includeCategory=1")).json<Page>();
    expect(page.about.propertyId).toSatisfy((v: unknown) => Number.isInteger(v));
    for (const q of page.mainEntity) expect(q.category).toEqual(expect.any(String));
    const nullId = await (await get("/api/v3/content/HO-AUR-0010/faq.json?includePropertyId=1")).json<Page>();
    expect(nullId.about).toHaveProperty("propertyId", null);
  });

  it("treats false and 0 as the defaults", async () => {
    const plain = await (await get("/api/v3/content/HO-AUR-0002/faq.json")).text();
    expect(await (await get("/api/v3/content/HO-AUR-0002/faq.json?includePropertyId=false&includeCategory=0")).text()).toBe(plain);
  });

  it.each(["yes", "TRUE", "", "2", "true&includeCategory=false&includeCategory=1"])(
    "answers 400 to includeCategory=%s, with the rate-limit headers",
    async (value) => {
      const res = await get(`/api/v3/content/HO-AUR-0001/faq.json?includeCategory=${value}`);
      const body = await expectErrorResponse(res, 400, "Bad Request", "/api/v3/content/HO-AUR-0001/faq.json");
      expect(body.message).toMatch(/includeCategory/);
      expect(res.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
    },
  );

  it("answers 404 to an unknown entity and to an ID that cannot be one", async () => {
    await expectErrorResponse(await get("/api/v3/content/HO-NOPE-1/faq.json"), 404, "Not Found", "/api/v3/content/HO-NOPE-1/faq.json");
    await expectErrorResponse(await get("/api/v3/content/%20x/faq.json"), 404, "Not Found", "/api/v3/content/%20x/faq.json");
  });
});

describe("GET /api/v3/content/{brandId}/faq.json (bulk @graph)", () => {
  it("returns the brand's own FAQPage then one per property, ordered by serviceId", async () => {
    const res = await get("/api/v3/content/HO-AUR/faq.json?includeCategory=true");
    expect(res.status).toBe(200);
    const body = await res.json<{ "@context": string; "@graph": Page[] }>();
    expect(Object.keys(body)).toEqual(["@context", "@graph"]);
    expect(body["@context"]).toBe("https://schema.org");
    const graph = body["@graph"];
    expect(graph).toHaveLength(121);
    expect(graph[0]!.about).toEqual({
      "@type": "Brand",
      identifier: "HO-AUR",
      name: "Aurora Hotels & Resorts",
      url: "https://aurora-hotels.example/",
    });
    const ids = graph.slice(1).map((p) => p.about.identifier);
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => `HO-AUR-${String(i + 1).padStart(4, "0")}`));
    for (const page of graph) {
      expect(page["@context"]).toBeUndefined();
      for (const q of page.mainEntity) expect(q.category).toBeDefined();
    }
    // Each page of the graph is the entity's own feed without @context.
    const single = await (await get("/api/v3/content/HO-AUR-0007/faq.json?includeCategory=true")).json<Page>();
    const { "@context": _, ...withoutContext } = single;
    expect(graph[7]).toEqual(withoutContext);
  });

  it("gives a brand without properties or FAQs an empty @graph", async () => {
    expect(await (await get("/api/v3/content/HO-CAS/faq.json")).json()).toEqual({ "@context": "https://schema.org", "@graph": [] });
  });

  it("answers 413 by entity count with the default limit of 1000 (HO-BOR has 1,200 properties)", async () => {
    const res = await get("/api/v3/content/HO-BOR/faq.json");
    const body = await expectErrorResponse(res, 413, "Payload Too Large", "/api/v3/content/HO-BOR/faq.json");
    expect(body.fallbackUrlPattern).toBe("/api/v3/content/{entityId}/faq.json");
    expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
    expect(res.headers.get("ETag")).toBeNull();
  });
});

describe("payload guards follow their configuration", () => {
  afterEach(() => vi.useRealTimers());

  /** A brand without FAQs and `properties` properties of one FAQ each, written as an import would. */
  async function seedBrand(id: string, properties: number, answer = "x".repeat(400)) {
    const records: ContentRecord[] = [{ kind: "brand", id, name: `Brand ${id}`, faqs: [] }];
    for (let n = 1; n <= properties; n++) {
      const pid = `${id}-${n}`;
      const faqs = [{ category: "Parking", question: `Parking at ${pid}?`, answer }];
      records.push({ kind: "property", id: pid, name: `Hotel ${pid}`, brandId: id, propertyId: n, faqs });
    }
    const plan = await planImport(
      env.DB,
      records.map((record, i) => ({ line: i + 1, record })),
    );
    await env.DB.batch(changeStatements(env.DB, plan.changes));
  }

  it("counts the brand page only when the brand has FAQs, and allows exactly the limit", async () => {
    await seedBrand("HO-GUARD", 3);
    expect((await fetchWith(contentRequest("/api/v3/content/HO-GUARD/faq.json"), { MAX_GRAPH_ENTITIES: "3" })).status).toBe(200);
    const over = await fetchWith(contentRequest("/api/v3/content/HO-GUARD/faq.json"), { MAX_GRAPH_ENTITIES: "2" });
    expect((await expectErrorResponse(over, 413, "Payload Too Large", "/api/v3/content/HO-GUARD/faq.json")).fallbackUrlPattern).toBe(
      "/api/v3/content/{entityId}/faq.json",
    );
  });

  it("keeps a refusal under the content version as it keeps a body: asked again, it reads nothing from D1", async () => {
    await seedBrand("HO-REFUSED", 3);
    // Past the age of any content version this isolate holds, so the first request loads the current one; then
    // the clock stands still, and the version and the key stay as that request left them.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + CONTENT_VERSION_MAX_AGE_MS);
    const path = "/api/v3/content/HO-REFUSED/faq.json";
    const guard = { MAX_GRAPH_ENTITIES: "2" };
    const first = await expectErrorResponse(await fetchWith(contentRequest(path), guard), 413, "Payload Too Large", path);
    const db = counting(env.DB, ["prepare", "batch", "withSession"]);
    for (let i = 0; i < 3; i++) {
      const again = await expectErrorResponse(
        await fetchWith(contentRequest(path), { ...guard, DB: db.binding }),
        413,
        "Payload Too Large",
        path,
      );
      expect(again).toMatchObject({ message: first.message, fallbackUrlPattern: first.fallbackUrlPattern });
    }
    expect(db.calls()).toBe(0);
    // Under other limits it is another question, answered afresh.
    expect((await fetchWith(contentRequest(path), { MAX_GRAPH_ENTITIES: "3", DB: db.binding })).status).toBe(200);
    expect(db.calls()).toBeGreaterThan(0);
  });

  it("applies the default 10 MB byte guard when MAX_GRAPH_BYTES is unset", async () => {
    // 700 properties (under the 1,000-entity guard) of 15 KB each: about 10.5 MB of @graph.
    await seedBrand("HO-HEAVY", 700, "x".repeat(15_000));
    const res = await fetchWith(contentRequest("/api/v3/content/HO-HEAVY/faq.json"), {
      MAX_GRAPH_BYTES: undefined,
      MAX_GRAPH_ENTITIES: undefined,
    });
    const body = await expectErrorResponse(res, 413, "Payload Too Large", "/api/v3/content/HO-HEAVY/faq.json");
    expect(body.message).toMatch(/exceeds the limit of 10485760 bytes/);
  });

  it("answers 413 when the serialized body passes MAX_GRAPH_BYTES, and 200 when it fits", async () => {
    await seedBrand("HO-BYTES", 250);
    const full = await fetchWith(contentRequest("/api/v3/content/HO-BYTES/faq.json"));
    const size = (await full.arrayBuffer()).byteLength;
    expect(size).toBeGreaterThan(100_000);
    expect(
      (await fetchWith(contentRequest("/api/v3/content/HO-BYTES/faq.json?includeCategory=0"), { MAX_GRAPH_BYTES: String(size) })).status,
    ).toBe(200);
    const over = await fetchWith(contentRequest("/api/v3/content/HO-BYTES/faq.json?includePropertyId=1"), {
      MAX_GRAPH_BYTES: String(size - 1),
    });
    const body = await expectErrorResponse(over, 413, "Payload Too Large", "/api/v3/content/HO-BYTES/faq.json");
    expect(body.fallbackUrlPattern).toBe("/api/v3/content/{entityId}/faq.json");
    expect(body.message).toMatch(/bytes/);
  });
});
