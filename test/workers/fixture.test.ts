import { describe, expect, it } from "vitest";
import { buildDemoContent, DEMO_API_KEYS, DEMO_CLIENTS, DEMO_ORGANIZATIONS } from "../../src/fixture/demo";

/** DESIGN §8: the demo fixture's rules, checked on the records it is built from. */

describe("demo fixture", () => {
  const records = buildDemoContent();
  const properties = records.filter((r) => r.kind === "property");

  it("has the brands, properties, destination and airport of DESIGN §8, and is the same every time", () => {
    const count = (brandId: string) => properties.filter((r) => r.kind === "property" && r.brandId === brandId).length;
    expect([count("HO-AUR"), count("HO-BOR"), count("HO-CAS")]).toEqual([120, 1200, 0]);
    expect(records.filter((r) => r.kind !== "property").map((r) => `${r.id} ${r.name}`)).toEqual([
      "HO-AUR Aurora Hotels & Resorts",
      "HO-BOR Boreal Inns",
      "HO-CAS Casa Nova Collection",
      "DMO-LIS Visit Lisboa",
      "AIR-LIS Lisbon Humberto Delgado Airport",
    ]);
    expect(JSON.stringify(buildDemoContent())).toBe(JSON.stringify(records));
  });

  it("gives every property a unique name, 5 to 12 FAQs, and a null propertyId exactly on multiples of 10", () => {
    expect(new Set(properties.map((p) => p.name)).size).toBe(properties.length);
    for (const p of properties) {
      expect(p.faqs.length).toBeGreaterThanOrEqual(5);
      expect(p.faqs.length).toBeLessThanOrEqual(12);
      const n = Number(p.id.slice(-4));
      if (p.kind === "property") expect(p.propertyId === null).toBe(n % 10 === 0);
      if (p.kind === "property" && p.propertyId !== null) expect(String(p.propertyId)).toMatch(/^\d{6}$/);
    }
    expect(records.find((r) => r.id === "HO-AUR")!.faqs.length).toBeGreaterThan(0);
    for (const id of ["DMO-LIS", "AIR-LIS"]) expect(records.find((r) => r.id === id)!.faqs.length).toBeGreaterThan(0);
  });

  it("has the organizations, identity clients and API keys of DESIGN §8", () => {
    expect(DEMO_ORGANIZATIONS.map((o) => [o.id, o.name, [...o.scope]])).toEqual([
      ["org-aurora", "Aurora Digital", ["HO-AUR", "DMO-LIS"]],
      ["org-boreal", "Boreal Group", ["HO-BOR"]],
    ]);
    expect(DEMO_CLIENTS.map((c) => [c.clientId, c.organizationId])).toEqual([
      ["aurora-assistant", "org-aurora"],
      ["boreal-assistant", "org-boreal"],
      ["orphan-client", null],
    ]);
    expect(DEMO_API_KEYS.map((k) => [k.key, k.hourlyLimit])).toEqual([
      ["demo-key", 1000],
      ["demo-key-small", 5],
      ["demo-key-expired", 1000],
      ["bench-key", 10_000_000],
    ]);
  });
});
