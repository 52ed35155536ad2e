import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

type Operation = {
  parameters?: { name: string; in: string; schema?: { pattern?: string; enum?: string[] } }[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
  security?: Record<string, string[]>[];
};

describe("GET /api/v3/openapi.json", () => {
  it("is public and describes every route, status and header of the content API in OpenAPI 3.1", async () => {
    const res = await SELF.fetch("https://api.example.com/api/v3/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json<{
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, { get: Operation }>;
      components: {
        schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
        securitySchemes: Record<string, { in: string; name: string }>;
      };
    }>();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0]!.url).toBe("https://api.example.com");

    const roster = doc.paths["/api/v3/content/{brandId}/properties"]!.get;
    const faq = doc.paths["/api/v3/content/{entityId}/faq.json"]!.get;
    expect(Object.keys(roster.responses).sort()).toEqual(["200", "304", "400", "401", "404", "429", "503"]);
    expect(Object.keys(faq.responses).sort()).toEqual(["200", "304", "400", "401", "404", "413", "429", "503"]);

    // Any entity ID is a valid brandId for the document: the 404 of a destination or an airport is documented, not forbidden.
    const brandPattern = new RegExp(roster.parameters!.find((p) => p.name === "brandId")!.schema!.pattern!);
    for (const id of ["HO-AUR", "DMO-LIS", "AIR-LIS", "HO-AUR-0001"]) expect(brandPattern.test(id)).toBe(true);
    const operations = Object.values(doc.paths).flatMap((path) => Object.values(path as Record<string, { operationId?: string }>));
    expect(operations.every((operation) => typeof operation.operationId === "string")).toBe(true);
    expect((doc as unknown as { info: { license: unknown } }).info.license).toEqual({
      name: expect.any(String),
      identifier: "LicenseRef-Proprietary",
    });
    for (const flag of ["includePropertyId", "includeCategory"]) {
      expect(faq.parameters!.find((p) => p.name === flag && p.in === "query")).toBeDefined();
    }
    expect(faq.parameters!.some((p) => p.in === "header" && p.name.toLowerCase() === "if-none-match")).toBe(true);

    for (const op of [roster, faq]) {
      for (const header of ["ETag", "Cache-Control", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
        expect(op.responses["200"]!.headers).toHaveProperty(header);
      }
      expect(op.responses["304"]!.headers).toHaveProperty("ETag");
      expect(op.responses["304"]!.headers).toHaveProperty("Cache-Control");
      expect(op.responses["429"]!.headers).toHaveProperty("Retry-After");
      expect(op.security).toEqual([{ ApiKeyHeader: [] }, { ApiKeyAuthorization: [] }]);
    }
    expect(doc.components.securitySchemes.ApiKeyHeader).toMatchObject({ in: "header", name: "X-API-Key" });
    expect(doc.components.securitySchemes.ApiKeyAuthorization).toMatchObject({ in: "header", name: "Authorization" });

    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.BrandPropertiesResponse!.properties!)).toEqual(["brandId", "brandName", "count", "properties"]);
    expect(Object.keys(schemas.PropertyItem!.properties!)).toEqual(["name", "serviceId", "propertyId"]);
    expect(schemas.PropertyItem!.required).toContain("propertyId");
    expect(Object.keys(schemas.ErrorResponse!.properties!)).toEqual([
      "timestamp",
      "status",
      "error",
      "message",
      "path",
      "fallbackUrlPattern",
    ]);
    expect(schemas.FAQPage).toBeDefined();
    expect(schemas.FAQGraph).toBeDefined();
  });
});
