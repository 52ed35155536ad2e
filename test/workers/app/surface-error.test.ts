import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("unknown routes", () => {
  it("answers unknown routes outside the content API with the MCP error envelope", async () => {
    const res = await SELF.fetch("https://mcp.example.com/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
  });
});
