import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { tokenForNewOrganization } from "../support/admin";
import { fetchWith } from "../support/app";
import { BASE, expectEnvelope, realmTokens, sdkClient, type Fetcher } from "../support/mcp";

/** The 2026-07-28 revision on /v1/sse, driven by the v2 SDK client: stateless, no session, same tools and protections. */

const tokens = realmTokens("aurora", "boreal");

async function connect(token: string, versions: "modern" | "auto" = "modern", fetcher?: Fetcher) {
  const seen: Request[] = [];
  const client = await sdkClient(token, { versions, fetcher, onRequest: (r) => seen.push(r) });
  return { client, seen };
}

describe("protocol revision 2026-07-28", () => {
  it("serves a pinned client statelessly: server/discover, then every tool, no session ID", async () => {
    const { client, seen } = await connect(tokens.aurora);
    expect(client.getProtocolEra()).toBe("modern");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["service_list_entities", "service_query", "service_search_documents"]);
    const list = await client.callTool({ name: "service_list_entities", arguments: { kind: "brand" } });
    expect(list.structuredContent).toEqual({ entities: [{ id: "HO-AUR", name: "Aurora Hotels & Resorts", kind: "brand" }] });
    const query = await client.callTool({ name: "service_query", arguments: { entity: "Visit Lisboa", question: "tourist tax" } });
    expect((query.structuredContent as { entity: { id: string } }).entity.id).toBe("DMO-LIS");
    const search = await client.callTool({ name: "service_search_documents", arguments: { query: "Lisboa Card" } });
    expect((search.structuredContent as { results: { entityId: string }[] }).results[0]!.entityId).toBe("DMO-LIS");
    expect(seen.map((r) => r.headers.get("mcp-session-id"))).toEqual(seen.map(() => null));
    const probe = await seen[0]!.json<{ method: string }>();
    expect(probe.method).toBe("server/discover");
    await client.close();
  });

  it("is found by a client that probes with server/discover and could fall back", async () => {
    const { client } = await connect(tokens.boreal, "auto");
    expect(client.getProtocolEra()).toBe("modern");
    const brands = await client.callTool({ name: "service_list_entities", arguments: { kind: "brand" } });
    expect(brands.structuredContent).toEqual({ entities: [{ id: "HO-BOR", name: "Boreal Inns", kind: "brand" }] });
    await client.close();
  });

  it("keeps the organization's scope, from both sides", async () => {
    const a = await connect(tokens.aurora);
    const b = await connect(tokens.boreal);
    expect((await a.client.callTool({ name: "service_query", arguments: { entity: "HO-BOR-0001" } })).structuredContent).toMatchObject({
      entity: null,
    });
    expect((await b.client.callTool({ name: "service_query", arguments: { entity: "HO-AUR-0001" } })).structuredContent).toMatchObject({
      entity: null,
    });
    await Promise.all([a.client.close(), b.client.close()]);
  });

  it("needs a bearer token and an allowed origin, in SPEC's envelope", async () => {
    const discover = {
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "curl", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    };
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "server/discover",
    };
    const anonymous = await SELF.fetch(`${BASE}/v1/sse`, { method: "POST", headers, body: JSON.stringify(discover) });
    await expectEnvelope(anonymous, 401, "unauthorized");
    expect(anonymous.headers.get("WWW-Authenticate")).toMatch(/resource_metadata=/);
    const foreign = await SELF.fetch(`${BASE}/v1/sse`, {
      method: "POST",
      headers: { ...headers, Authorization: `Bearer ${tokens.aurora}`, Origin: "https://evil.example.com" },
      body: JSON.stringify(discover),
    });
    await expectEnvelope(foreign, 403, "forbidden");
    const ok = await SELF.fetch(`${BASE}/v1/sse`, {
      method: "POST",
      headers: { ...headers, Authorization: `Bearer ${tokens.aurora}` },
      body: JSON.stringify(discover),
    });
    expect(ok.status).toBe(200);
    expect((await ok.json<{ result: { supportedVersions: string[] } }>()).result.supportedVersions).toContain("2026-07-28");
  });

  it("counts every request against the organization's hourly limit, exactly", async () => {
    const token = await tokenForNewOrganization("org-modern-limit", ["DMO-LIS"]);
    const limited: Fetcher = (r) => fetchWith(r, { MCP_RATE_LIMIT: "3" });
    const { client } = await connect(token, "modern", limited);
    await client.callTool({ name: "service_list_entities", arguments: {} });
    await client.callTool({ name: "service_list_entities", arguments: {} });
    await expect(client.callTool({ name: "service_list_entities", arguments: {} })).rejects.toThrow(/429|rate|limit/i);
  });
});
