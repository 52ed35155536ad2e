import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fetchWith } from "../support/app";
import { BASE, sdkClient, tokenFor } from "../support/mcp";

/** The server card: this deployment as a client or a directory sees it before connecting (src/mcp/server-card.ts). */

const CARD_PATHS = ["/.well-known/mcp/server-card.json", "/v1/sse/server-card", "/v1/chatgpt/server-card"];
const cardOf = async (response: Response) => {
  expect(response.status).toBe(200);
  return response.json<Record<string, any>>();
};

describe("the server card", () => {
  it("names the deployment, both MCP URLs in both transports, each URL's tools as tools/list gives them, its authorization and policies", async () => {
    const response = await SELF.fetch(`${BASE}/.well-known/mcp/server-card.json`, { headers: { Origin: "https://directory.example" } });
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const card = await cardOf(response);
    expect(card).toMatchObject({
      $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
      name: "com.example.mcp/hospitality-content",
      title: "Hospitality Content",
      version: "1.0.0",
    });
    expect(card.description.length).toBeLessThanOrEqual(100);
    expect(card.remotes.map((r: { type: string; url: string }) => `${r.type} ${r.url}`)).toEqual([
      `streamable-http ${BASE}/v1/sse`,
      `sse ${BASE}/v1/sse`,
      `streamable-http ${BASE}/v1/chatgpt`,
      `sse ${BASE}/v1/chatgpt`,
    ]);
    expect(card.remotes[0].supportedProtocolVersions).toContain("2026-07-28");
    expect(card.remotes[1].supportedProtocolVersions).toEqual(["2024-11-05"]);

    const token = await tokenFor("aurora");
    for (const endpoint of ["/v1/sse", "/v1/chatgpt"]) {
      const client = await sdkClient(token, { endpoint });
      const { tools } = await client.listTools();
      expect(card._meta["hospitality-content/tools"][`${BASE}${endpoint}`]).toEqual(tools.map((t) => t.name));
      await client.close();
    }
    const authorization = card._meta["hospitality-content/authorization"];
    expect(authorization).toEqual({
      required: true,
      scopes: ["mcp:tools"],
      protectedResourceMetadata: [
        `${BASE}/.well-known/oauth-protected-resource/v1/sse`,
        `${BASE}/.well-known/oauth-protected-resource/v1/chatgpt`,
      ],
    });
    for (const url of authorization.protectedResourceMetadata) expect((await SELF.fetch(url)).status).toBe(200);
    expect(card._meta["hospitality-content/policies"]).toEqual({ privacy: `${BASE}/privacy`, terms: `${BASE}/terms` });
  });

  it("is the same at the path the Server Cards extension reserves beside each MCP URL, with no token", async () => {
    const cards = await Promise.all(CARD_PATHS.map(async (path) => cardOf(await SELF.fetch(`${BASE}${path}`))));
    expect(cards[1]).toEqual(cards[0]);
    expect(cards[2]).toEqual(cards[0]);
  });

  it("takes its name from REGISTRY_NAME, its title and support from the operator's branding, its origin from BASE_URL", async () => {
    const vars = {
      REGISTRY_NAME: "com.aurora-hotels/guest-answers",
      SERVICE_NAME: "Aurora Guest Answers",
      SUPPORT_URL: "mailto:help@aurora.example",
      BASE_URL: "https://answers.aurora.example",
    };
    const card = await cardOf(await fetchWith(new Request(`${BASE}/.well-known/mcp/server-card.json`), vars));
    expect(card.name).toBe("com.aurora-hotels/guest-answers");
    expect(card.title).toBe("Aurora Guest Answers");
    expect(card.remotes[0].url).toBe("https://answers.aurora.example/v1/sse");
    expect(card._meta["hospitality-content/policies"]).toEqual({
      privacy: "https://answers.aurora.example/privacy",
      terms: "https://answers.aurora.example/terms",
      support: "mailto:help@aurora.example",
    });
    // A name the registry would refuse is not published: the host's own reverse-DNS name is.
    const invalid = await cardOf(
      await fetchWith(new Request(`${BASE}/.well-known/mcp/server-card.json`), { REGISTRY_NAME: "two/slashes/here" }),
    );
    expect(invalid.name).toBe("com.example.mcp/hospitality-content");
  });

  it("lists tools the directories accept: a title, all three hints stated and true to what they do, short plain names", async () => {
    const token = await tokenFor("aurora");
    for (const endpoint of ["/v1/sse", "/v1/chatgpt"]) {
      const client = await sdkClient(token, { endpoint });
      for (const tool of (await client.listTools()).tools) {
        expect(tool.title, tool.name).toMatch(/^[A-Z]/);
        // Each reads this organization's own content and changes nothing: safe to retry, never the open web.
        expect(tool.annotations, tool.name).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
        expect(tool.name.length).toBeLessThanOrEqual(64);
        expect(tool.description, tool.name).not.toMatch(/\b(official|prefer|instead of|always use|ignore|the best)\b/i);
      }
      await client.close();
    }
  });
});
