import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fetchWith } from "../support/app";
import { API, contentRequest, expectErrorResponse, get } from "../support/content";

describe("GET /api/v3/content/{brandId}/properties", () => {
  it("returns the full roster of a brand, ordered by name then serviceId", async () => {
    const res = await get("/api/v3/content/HO-AUR/properties");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = await res.json<{
      brandId: string;
      brandName: string;
      count: number;
      properties: { name: string; serviceId: string; propertyId: number | null }[];
    }>();
    expect(Object.keys(body)).toEqual(["brandId", "brandName", "count", "properties"]);
    expect(body.brandId).toBe("HO-AUR");
    expect(body.brandName).toBe("Aurora Hotels & Resorts");
    expect(body.count).toBe(120);
    expect(body.properties).toHaveLength(120);
    const sorted = [...body.properties].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.serviceId < b.serviceId ? -1 : 1));
    expect(body.properties).toEqual(sorted);
    for (const p of body.properties) {
      expect(Object.keys(p)).toEqual(["name", "serviceId", "propertyId"]);
      expect(p.serviceId).toMatch(/^HO-AUR-\d{4}$/);
      const n = Number(p.serviceId.slice(-4));
      if (n % 10 === 0) expect(p.propertyId).toBeNull();
      else expect(p.propertyId).toSatisfy((v: unknown) => Number.isInteger(v) && String(v).length === 6);
    }
    expect(new Set(body.properties.map((p) => p.name)).size).toBe(120);
  });

  it("returns all 1,200 properties of a large brand in one response", async () => {
    const body = await (await get("/api/v3/content/HO-BOR/properties")).json<{ count: number; properties: unknown[] }>();
    expect(body.count).toBe(1200);
    expect(body.properties).toHaveLength(1200);
  });

  it("returns count 0 and an empty array for a brand with no properties", async () => {
    const res = await get("/api/v3/content/HO-CAS/properties");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ brandId: "HO-CAS", brandName: "Casa Nova Collection", count: 0, properties: [] });
  });

  it.each([
    ["DMO-LIS", "a destination"],
    ["AIR-LIS", "an airport"],
    ["HO-NOPE", "an unknown brand"],
    ["HO-AUR-0001", "a property"],
    ["ho-aur", "a lower-case ID"],
  ])("answers 404 for %s (%s), with the rate-limit headers", async (id) => {
    const res = await get(`/api/v3/content/${id}/properties`);
    await expectErrorResponse(res, 404, "Not Found", `/api/v3/content/${id}/properties`);
    expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
  });

  it("answers 404 in the ErrorResponse format for an unknown content path", async () => {
    const res = await get("/api/v3/content/HO-AUR/unknown");
    await expectErrorResponse(res, 404, "Not Found", "/api/v3/content/HO-AUR/unknown");
  });

  it("answers other methods with 404 in the ErrorResponse format", async () => {
    const res = await SELF.fetch(`${API}/api/v3/content/HO-AUR/properties`, { method: "POST", headers: { "X-API-Key": "demo-key" } });
    await expectErrorResponse(res, 404, "Not Found", "/api/v3/content/HO-AUR/properties");
  });

  it("builds absolute URLs from API_URL when it is set", async () => {
    const res = await fetchWith(contentRequest("/api/v3/content/AIR-LIS/faq.json"), { API_URL: "https://content.hotels.example" });
    expect((await res.json<{ "@id": string }>())["@id"]).toBe("https://content.hotels.example/api/v3/content/AIR-LIS/faq.json");
  });

  it("ignores unknown query parameters (the roster takes none)", async () => {
    const plain = await get("/api/v3/content/HO-CAS/properties");
    const res = await get("/api/v3/content/HO-CAS/properties?page=2&cb=123");
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe(plain.headers.get("ETag"));
    expect(await res.text()).toBe(await plain.text());
  });
});
