import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_MCP_BODY_BYTES } from "../../../src/mcp/request-checks";
import { fetchWith } from "../support/app";
import { BASE, expectEnvelope } from "../support/mcp";

/** The order of the checks on an MCP endpoint: what an anonymous caller can make the server do. */

const CHUNK_BYTES = 64 * 1024;

/** A body of twice the MCP limit that is produced only as it is read, counting the bytes read. */
function watchedBody(): { body: ReadableStream<Uint8Array>; bytesRead: () => number } {
  let produced = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        produced += CHUNK_BYTES;
        controller.enqueue(new Uint8Array(CHUNK_BYTES).fill(0x20));
        if (produced >= 2 * MAX_MCP_BODY_BYTES) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, bytesRead: () => produced };
}

describe("checks before the body is read", () => {
  it.each([
    ["no token", {}],
    ["a token that is not one", { Authorization: "Bearer not-a-token" }],
  ])("a POST with %s and a body over the limit is 401, and its body is never read", async (_, authorization) => {
    for (const endpoint of ["/v1/sse", "/v1/chatgpt", "/v1/messages?sessionId=00000000-0000-4000-8000-000000000000"]) {
      const { body, bytesRead } = watchedBody();
      const res = await fetchWith(
        new Request(`${BASE}${endpoint}`, { method: "POST", headers: { "Content-Type": "application/json", ...authorization }, body }),
      );
      await expectEnvelope(res, 401, "unauthorized");
      expect(bytesRead(), endpoint).toBe(0);
    }
    // Sent over the wire with its length declared, the same.
    const declared = await SELF.fetch(`${BASE}/v1/sse`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...authorization },
      body: " ".repeat(2 * MAX_MCP_BODY_BYTES),
    });
    await expectEnvelope(declared, 401, "unauthorized");
  });
});
