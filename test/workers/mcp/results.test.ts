import { describe, expect, it } from "vitest";
import { realmTokens, sdkClient } from "../support/mcp";

/** What each client gets from a tool, by the protocol it negotiated, through the SDK's own Client. */

const tokens = realmTokens("aurora");

const clientOf = (versions: string[] | "modern") => sdkClient(tokens.aurora, { versions });

const text = (result: { content?: unknown }) => (result.content as { type: string; text: string }[])[0]!.text;

describe("tool results by protocol version", () => {
  it("2025-03-26 (SPEC's version, no structuredContent): every field of the result is in the text as JSON, and no outputSchema is listed", async () => {
    const client = await clientOf(["2025-03-26"]);
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-03-26");
    for (const tool of (await client.listTools()).tools) expect(tool.outputSchema).toBeUndefined();
    const result = await client.callTool({ name: "service_query", arguments: { entity: "HO-AUR", question: "loyalty" } });
    expect(result.structuredContent).toBeUndefined();
    const parsed = JSON.parse(text(result));
    expect(parsed.entity).toEqual({ id: "HO-AUR", name: "Aurora Hotels & Resorts", kind: "brand", propertyCount: 120, matchedBy: "id" });
    expect(parsed.total).toBe(6);
    expect(parsed.faqs).toHaveLength(6);
    expect(parsed.faqs[0]).toEqual({
      question: expect.any(String),
      answer: expect.any(String),
      category: expect.any(String),
      language: "en",
    });
    await client.close();
  });

  it.each([["2025-06-18"], ["2025-11-25"], ["modern"]])(
    "%s: structuredContent matching the listed outputSchema (the SDK client validates it), and the same JSON in the text",
    async (version) => {
      const client = await clientOf(version === "modern" ? "modern" : [version]);
      for (const tool of (await client.listTools()).tools) expect(tool.outputSchema?.type).toBe("object");
      for (const [name, args] of [
        ["service_query", { entity: "HO-AUR-0001" }],
        ["service_search_documents", { query: "breakfast" }],
        ["service_list_entities", { brandId: "HO-AUR", limit: 3 }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toBeDefined();
        expect(JSON.parse(text(result))).toEqual(result.structuredContent);
      }
      await client.close();
    },
  );
});

describe("tool errors a model can act on, through the SDK Client", () => {
  it.each([["2025-03-26"], ["modern"]])(
    "%s: invalid arguments come back as a result with isError naming the field; an unknown tool is a protocol error",
    async (version) => {
      const client = await clientOf(version === "modern" ? "modern" : [version]);
      const invalid = await client.callTool({ name: "service_query", arguments: { entity: "HO-AUR", limit: 500 } });
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toMatch(
        /^Invalid arguments for service_query: limit: Too big: expected number to be <=50\. Correct them and call again\.$/,
      );
      const empty = await client.callTool({ name: "service_search_documents", arguments: { query: "" } });
      expect(empty.isError).toBe(true);
      expect(text(empty)).toMatch(/query: Too small/);
      const category = await client.callTool({ name: "service_search_documents", arguments: { query: "parking", category: "Spa" } });
      expect(category.isError).toBe(true);
      expect(text(category)).toMatch(
        /Unknown category "Spa"\. The categories in your scope are: Accessibility, Amenities, .*Wellness, Wi-Fi\./,
      );
      await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool: no_such_tool/);
      await client.close();
    },
  );
});
