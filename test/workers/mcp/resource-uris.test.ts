import { describe, expect, it } from "vitest";
import { faqResourceUri, parseFaqResourceUri } from "../../../src/mcp/resource-uris";
import { documentId, parseDocumentId } from "../../../src/mcp/tools/documents";

describe("resource URIs", () => {
  it.each([
    [{ entityId: "HO-AUR-0001", format: "markdown" as const }, "hospitality://entities/HO-AUR-0001/faqs"],
    [{ entityId: "HO-AUR-0001", format: "json" as const }, "hospitality://entities/HO-AUR-0001/faqs.json"],
    [
      { entityId: "DMO-LIS", format: "markdown" as const, category: "Check-in & Check-out" },
      "hospitality://entities/DMO-LIS/faqs?category=Check-in%20%26%20Check-out",
    ],
  ])("writes %j as %s and reads it back", (resource, uri) => {
    expect(faqResourceUri(resource)).toBe(uri);
    expect(parseFaqResourceUri(uri)).toEqual(resource);
  });

  it.each([
    "hospitality://entities/HO-AUR-0001",
    "hospitality://entities/HO-AUR-0001/faqs.xml",
    "hospitality://entities//faqs",
    "hospitality://entities/HO-AUR-0001/faqs?lang=en",
    "hospitality://entities/HO-AUR-0001/faqs?category=a&category=b",
    "hospitality://entities/%E0%A4%A/faqs",
    "https://aurora-hotels.example/faqs",
  ])("reads %s as no resource of its own", (uri) => {
    expect(parseFaqResourceUri(uri)).toBeNull();
  });
});

describe("document IDs of search and fetch", () => {
  it("name an FAQ by its entity and its question, and read back", () => {
    expect(documentId("HO-AUR-0001", "Is there parking?")).toBe("HO-AUR-0001/is-there-parking");
    expect(parseDocumentId("HO-AUR-0001/is-there-parking")).toEqual({ entityId: "HO-AUR-0001", slug: "is-there-parking" });
    for (const bad of ["HO-AUR-0001", "/x", "x/"]) expect(parseDocumentId(bad)).toBeNull();
  });
});
