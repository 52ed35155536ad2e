import { Client as V2Client, StreamableHTTPClientTransport as V2StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib/servers.mjs";
import { devServer, realmTokenResponse } from "../support/dev-server";
import { alive, runNode } from "../support/processes";

/**
 * Every client a user may point at /v1/sse, against `npm run dev`: each one initializes, lists the
 * tools, calls every tool and closes cleanly.
 */

const server = devServer();
let token: string;
let configDir: string;

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), "mcp-remote-"));
  const res = await realmTokenResponse(server.origin);
  token = ((await res.json()) as { access_token: string }).access_token;
});

afterAll(() => {
  rmSync(configDir, { recursive: true, force: true });
});

const TOOL_NAMES = ["service_list_entities", "service_query", "service_search_documents"];

/** What both SDK generations' clients offer: list and call tools. */
interface ToolClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

/** The result as the client reads it: structuredContent when its protocol has it, else the JSON text every client gets. */
const structured = async (pending: Promise<unknown>) => {
  const result = (await pending) as { structuredContent?: any; content: { text: string }[] };
  return result.structuredContent ?? JSON.parse(result.content[0]!.text);
};

/** Lists the tools and calls each one, checking what org-aurora should see. */
async function exerciseTools(client: ToolClient) {
  expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
  const list = await structured(client.callTool({ name: "service_list_entities", arguments: { kind: "brand" } }));
  expect(list).toEqual({ entities: [{ id: "HO-AUR", name: "Aurora Hotels & Resorts", kind: "brand" }] });
  const query = await structured(client.callTool({ name: "service_query", arguments: { entity: "HO-AUR-0001", question: "parking" } }));
  expect(query.entity.id).toBe("HO-AUR-0001");
  const search = await structured(client.callTool({ name: "service_search_documents", arguments: { query: "Lisboa Card" } }));
  expect(search.results[0].entityId).toBe("DMO-LIS");
}

const endpoint = () => new URL(`${server.origin}/v1/sse`);
const bearer = () => ({ headers: { Authorization: `Bearer ${token}` } });

describe("real-client matrix on /v1/sse", () => {
  it("MCP SDK v1 Client with StreamableHTTPClientTransport (the 2025 era, a session)", async () => {
    const transport = new StreamableHTTPClientTransport(endpoint(), { requestInit: bearer() });
    const client = new Client({ name: "matrix-v1-http", version: "1.0.0" });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await exerciseTools(client);
    await transport.terminateSession();
    await client.close();
  });

  it("MCP SDK v1 Client with SSEClientTransport (HTTP+SSE, 2024-11-05)", async () => {
    const transport = new SSEClientTransport(endpoint(), {
      requestInit: bearer(),
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, ...bearer().headers } }) },
    });
    const client = new Client({ name: "matrix-v1-sse", version: "1.0.0" });
    await client.connect(transport);
    await exerciseTools(client);
    await client.close();
  });

  it("MCP SDK v2 Client speaking 2026-07-28", async () => {
    const client = new V2Client({ name: "matrix-v2-modern", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new V2StreamableHTTPClientTransport(endpoint(), { requestInit: bearer() }));
    expect(client.getProtocolEra()).toBe("modern");
    await exerciseTools(client);
    await client.close();
  });

  it("MCP SDK v2 Client pinned to 2025-03-26", async () => {
    const transport = new V2StreamableHTTPClientTransport(endpoint(), { requestInit: bearer() });
    const client = new V2Client({ name: "matrix-v2-2025", version: "2.0.0" }, { supportedProtocolVersions: ["2025-03-26"] });
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe("legacy");
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-03-26");
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await exerciseTools(client);
    // SPEC's revision has no structuredContent: the result is all in the text.
    expect((await client.callTool({ name: "service_list_entities", arguments: { kind: "brand" } })).structuredContent).toBeUndefined();
    await transport.terminateSession();
    await client.close();
  });

  describe.each([
    ["the transport it guesses from the URL (/sse: HTTP+SSE)", []],
    ["--transport http", ["--transport", "http"]],
  ])("MCP Inspector CLI with %s", (_, transportArgs) => {
    const inspector = (...args: string[]) =>
      runNode(
        join(ROOT, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js"),
        ["--cli", `${server.origin}/v1/sse`, ...transportArgs, "--header", `Authorization: Bearer ${token}`, ...args],
        { env: { ...process.env, MCP_CATALOG_PATH: join(configDir, "catalog.json") }, timeout: 60_000 },
      );

    it("initializes, lists the tools and calls each one", async () => {
      const list = await inspector("--method", "tools/list");
      expect(list.code, list.stderr).toBe(0);
      expect((JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      const calls = await Promise.all([
        inspector("--method", "tools/call", "--tool-name", "service_list_entities", "--tool-arg", "kind=brand"),
        inspector("--method", "tools/call", "--tool-name", "service_query", "--tool-arg", "entity=HO-AUR-0001"),
        inspector("--method", "tools/call", "--tool-name", "service_search_documents", "--tool-arg", "query=Lisboa Card"),
      ]);
      for (const call of calls) expect(call.code, call.stderr).toBe(0);
      const [list2, query, search] = calls.map((c) => JSON.parse(c.stdout) as { structuredContent: any });
      expect(list2!.structuredContent.entities).toEqual([{ id: "HO-AUR", name: "Aurora Hotels & Resorts", kind: "brand" }]);
      expect(query!.structuredContent.entity.id).toBe("HO-AUR-0001");
      expect(search!.structuredContent.results[0].entityId).toBe("DMO-LIS");
    });
  });

  it.each([
    ["its default (streamable HTTP first)", []],
    ["SSE mode", ["--transport", "sse-only"]],
  ])(
    "mcp-remote as a stdio bridge with --header, %s, driven by StdioClientTransport as a desktop assistant runs it",
    async (_, modeArgs) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          join(ROOT, "node_modules", "mcp-remote", "dist", "proxy.js"),
          `${server.origin}/v1/sse`,
          "--header",
          `Authorization: Bearer ${token}`,
          ...modeArgs,
        ],
        env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir },
        stderr: "pipe",
      });
      const client = new Client({ name: "matrix-mcp-remote", version: "1.0.0" });
      await client.connect(transport);
      const pid = transport.pid!;
      await exerciseTools(client);
      await client.close();
      // The bridge process is gone once the client closes.
      await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
    },
  );
});

/** What both SDK generations' clients offer for resources and completions. */
interface ResourceClient {
  listResources(params?: { cursor?: string }): Promise<{ resources: { uri: string }[]; nextCursor?: string }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  complete(params: {
    ref: { type: "ref/resource"; uri: string };
    argument: { name: string; value: string };
  }): Promise<{ completion: { values: string[] } }>;
}

const HOTEL_FAQS = "hospitality://entities/HO-AUR-0001/faqs";

/** Lists every resource (following nextCursor when the client leaves it to the caller), reads one, lists the templates and completes a name. */
async function exerciseResources(client: ResourceClient) {
  const uris: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? undefined : { cursor });
    uris.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  expect(uris).toHaveLength(244);
  expect(uris).toContain(HOTEL_FAQS);
  const [content] = (await client.readResource({ uri: HOTEL_FAQS })).contents as { mimeType: string; text: string }[];
  expect(content!.mimeType).toBe("text/markdown");
  expect(content!.text).toMatch(/^# Aurora Lisbon Riverside\n/);
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("hospitality://entities/{entityId}/faqs{?category}");
  const { completion } = await client.complete({
    ref: { type: "ref/resource", uri: "hospitality://entities/{entityId}/faqs{?category}" },
    argument: { name: "entityId", value: "Aurora Lisbon Riv" },
  });
  expect(completion.values[0]).toBe("HO-AUR-0001");
}

/** What both SDK generations' clients offer: ChatGPT's search and fetch, in OpenAI's documented shape. */
async function exerciseSearchAndFetch(client: ToolClient) {
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["search", "fetch"]);
  const text = async (pending: Promise<unknown>) => {
    const { content } = (await pending) as { content: { type: string; text: string }[] };
    expect(content).toHaveLength(1);
    return JSON.parse(content[0]!.text) as Record<string, any>;
  };
  const { results } = await text(client.callTool({ name: "search", arguments: { query: "Is there a gym at Aurora Seville Riverside?" } }));
  expect(Object.keys(results[0])).toEqual(["id", "title", "url"]);
  expect(results[0].url).toBe("https://aurora-hotels.example/hotels/ho-aur-0004");
  const document = await text(client.callTool({ name: "fetch", arguments: { id: results[0].id } }));
  expect(Object.keys(document)).toEqual(["id", "title", "text", "url", "metadata"]);
  expect(document.metadata).toMatchObject({ entityId: "HO-AUR-0004", category: "Amenities" });
}

const chatgptEndpoint = () => new URL(`${server.origin}/v1/chatgpt`);

describe("resources, completions, and ChatGPT's search and fetch through real clients", () => {
  it("MCP SDK v1 Client (2025 era): resources, templates, a completion; search and fetch at /v1/chatgpt", async () => {
    const client = new Client({ name: "matrix-v1-resources", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(endpoint(), { requestInit: bearer() }));
    await exerciseResources(client);
    await client.close();
    const chatgpt = new Client({ name: "matrix-v1-chatgpt", version: "1.0.0" });
    await chatgpt.connect(new StreamableHTTPClientTransport(chatgptEndpoint(), { requestInit: bearer() }));
    await exerciseSearchAndFetch(chatgpt);
    await chatgpt.close();
  });

  it("MCP SDK v1 Client over HTTP+SSE at /v1/chatgpt", async () => {
    const transport = new SSEClientTransport(chatgptEndpoint(), {
      requestInit: bearer(),
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, ...bearer().headers } }) },
    });
    const client = new Client({ name: "matrix-v1-sse-chatgpt", version: "1.0.0" });
    await client.connect(transport);
    await exerciseSearchAndFetch(client);
    await client.close();
  });

  it("MCP SDK v2 Client speaking 2026-07-28: resources, templates, a completion; search and fetch at /v1/chatgpt", async () => {
    const client = new V2Client({ name: "matrix-v2-resources", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new V2StreamableHTTPClientTransport(endpoint(), { requestInit: bearer() }));
    await exerciseResources(client);
    await client.close();
    const chatgpt = new V2Client({ name: "matrix-v2-chatgpt", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await chatgpt.connect(new V2StreamableHTTPClientTransport(chatgptEndpoint(), { requestInit: bearer() }));
    await exerciseSearchAndFetch(chatgpt);
    await chatgpt.close();
  });

  it("MCP Inspector CLI lists resources and templates, reads one, and calls search at /v1/chatgpt", async () => {
    const inspector = (url: string, ...args: string[]) =>
      runNode(
        join(ROOT, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js"),
        ["--cli", url, "--transport", "http", "--header", `Authorization: Bearer ${token}`, ...args],
        { env: { ...process.env, MCP_CATALOG_PATH: join(configDir, "catalog.json") }, timeout: 60_000 },
      );
    const [resources, templates, read, search] = await Promise.all([
      inspector(`${server.origin}/v1/sse`, "--method", "resources/list"),
      inspector(`${server.origin}/v1/sse`, "--method", "resources/templates/list"),
      inspector(`${server.origin}/v1/sse`, "--method", "resources/read", "--uri", HOTEL_FAQS),
      inspector(
        `${server.origin}/v1/chatgpt`,
        "--method",
        "tools/call",
        "--tool-name",
        "search",
        "--tool-arg",
        "query=parking at Aurora Porto Riverside",
      ),
    ]);
    for (const run of [resources, templates, read, search]) expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(resources.stdout) as { resources: { uri: string }[] }).resources.map((r) => r.uri)).toContain(HOTEL_FAQS);
    expect((JSON.parse(templates.stdout) as { resourceTemplates: unknown[] }).resourceTemplates).toHaveLength(2);
    expect((JSON.parse(read.stdout) as { contents: { text: string }[] }).contents[0]!.text).toMatch(/^# Aurora Lisbon Riverside/);
    const found = JSON.parse(search.stdout) as { structuredContent: { results: { id: string }[] } };
    expect(found.structuredContent.results[0]!.id).toMatch(/^HO-AUR-0002\//);
  });
});
