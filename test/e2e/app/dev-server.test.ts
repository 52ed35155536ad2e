import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, freshState, ROOT } from "../../../scripts/lib/servers.mjs";
import { devServer, realmTokenResponse } from "../support/dev-server";
import { runNode } from "../support/processes";

// From an empty state directory, as on a fresh clone: the one file whose `npm run dev` applies every migration.
const server = devServer(() => ({ from: undefined }));

describe("npm run dev", () => {
  it("applies migrations, loads the demo fixture and prints the demo credentials, keeping wrangler's output in its log", () => {
    const output = server.output();
    expect(output).toMatch(/Database: \d+ migrations applied locally\. Demo fixture: loaded into the empty local database/);
    for (const noise of ["[wrangler", "getaddrinfo", "responseMode", "▲", "✘", "    at "]) expect(output).not.toContain(noise);
    const log = /wrangler's log: (\S+);/.exec(output)![1]!;
    expect(readFileSync(log, "utf8")).toContain("0001_content_and_access.sql");
    for (const credential of [
      "demo-key",
      "demo-key-small",
      "bench-key",
      "aurora-assistant / aurora-secret",
      "boreal-assistant / boreal-secret",
      "orphan-client / orphan-secret",
      "ana@aurora.example / aurora-password",
      "demo-connector",
      "dev-admin-token-not-for-production-use",
    ]) {
      expect(output).toContain(credential);
    }
  });

  it("names, in what it prints, the ADMIN_URL and the --url that reach it on its port", () => {
    const output = server.output();
    expect(output).toContain(`ADMIN_URL=${server.origin} npm run admin -- --help`);
    expect(output).toContain(`npm run connect -- --url ${server.origin}`);
  });

  it("serves the content API with the fixture over plain HTTP on loopback", async () => {
    const res = await fetch(`${server.origin}/api/v3/content/HO-AUR/properties`, { headers: { "X-API-Key": "demo-key" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toMatch(/^W\/"[0-9a-f]{16}"$/);
    const body = (await res.json()) as { count: number };
    expect(body.count).toBe(120);
    const etag = res.headers.get("ETag")!;
    const again = await fetch(`${server.origin}/api/v3/content/HO-AUR/properties`, {
      headers: { "X-API-Key": "demo-key", "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
  });

  it("reports healthy dependencies", async () => {
    const res = await fetch(`${server.origin}/health`);
    expect(await res.json()).toMatchObject({ status: "healthy", mongodb: { connected: true }, redis: { connected: true } });
  });
});

describe("the MCP server, driven by the MCP SDK's Client over streamable HTTP", () => {
  it("gets a token, initializes, lists tools, calls each tool and terminates the session", async () => {
    const tokenRes = await realmTokenResponse(server.origin);
    expect(tokenRes.status).toBe(200);
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };

    const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/v1/sse`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["service_list_entities", "service_query", "service_search_documents"]);

    const query = await client.callTool({ name: "service_query", arguments: { entity: "HO-AUR-0001", question: "parking" } });
    expect((query.structuredContent as { entity: { id: string } }).entity.id).toBe("HO-AUR-0001");
    const search = await client.callTool({ name: "service_search_documents", arguments: { query: "Lisboa Card" } });
    expect((search.structuredContent as { results: { entityId: string }[] }).results[0]!.entityId).toBe("DMO-LIS");
    const list = await client.callTool({ name: "service_list_entities", arguments: { kind: "brand" } });
    expect(list.structuredContent).toEqual({ entities: [{ id: "HO-AUR", name: "Aurora Hotels & Resorts", kind: "brand" }] });
    const invalid = await client.callTool({ name: "service_query", arguments: { limit: 0 } });
    expect(invalid.isError).toBe(true);
    expect((invalid.content as { text: string }[])[0]!.text).toMatch(/^Invalid arguments for service_query: entity: .*limit: Too small/);

    await transport.terminateSession();
    await client.close();
    const after = await fetch(`${server.origin}/v1/sse`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
  });
});

describe("npm run dev on a busy port", () => {
  it.each(["127.0.0.1", "::1"])("refuses to start when %s holds the port, says so, and sends that server nothing", async (host) => {
    const received: string[] = [];
    const other = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"status":"healthy","loaded":true}');
    });
    const port = await freePort();
    await new Promise<void>((resolve) => other.listen(port, host, resolve));
    const state = freshState();
    try {
      const run = await runNode(join(ROOT, "scripts", "dev.mjs"), ["--port", String(port), "--persist-to", state], { timeout: 150_000 });
      const printed = run.stdout + run.stderr;
      expect(run.code, printed).toBe(1);
      expect(printed).toContain(`Port ${port} is already in use`);
      expect(printed).toContain(`npm run dev -- --port`);
      expect(printed).not.toContain("Demo fixture");
      expect(received).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
      rmSync(state, { recursive: true, force: true });
    }
  });
});
