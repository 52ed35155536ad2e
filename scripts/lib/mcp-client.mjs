// The MCP endpoint as the benchmarks use it: a realm token, a 2025-03-26 session, JSON-RPC calls.

/** The MCP endpoint as a client uses it: a realm token, a session, JSON-RPC calls. */
export async function mcpClient(origin, clientId, secret) {
  const newToken = async () => {
    const res = await fetch(`${origin}/realms/hospitality/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: secret }),
    });
    return (await res.json()).access_token;
  };
  let token = await newToken();
  const headers = (session) => ({
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...(session ? { "mcp-session-id": session, "MCP-Protocol-Version": "2025-03-26" } : {}),
  });
  const ping = () =>
    fetch(`${origin}/v1/sse`, {
      method: "POST",
      headers: headers(session),
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }),
    });
  const initialize = () =>
    fetch(`${origin}/v1/sse`, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
      }),
    });
  let session = (await initialize()).headers.get("mcp-session-id");
  const tool = (name, args) => () =>
    fetch(`${origin}/v1/sse`, {
      method: "POST",
      headers: headers(session),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } }),
    });
  /** One POST of several tool calls (`[{ name, arguments }]`) as a JSON-RPC batch. */
  const batch = (calls) => () =>
    fetch(`${origin}/v1/sse`, {
      method: "POST",
      headers: headers(session),
      body: JSON.stringify(calls.map((params, i) => ({ jsonrpc: "2.0", id: 100 + i, method: "tools/call", params }))),
    });
  /** A tool's result as JSON (its text content), failing on any error; a run longer than a token's life renews it. */
  const call = async (name, args) => {
    let res = await tool(name, args)();
    if (res.status === 401) {
      token = await newToken();
      session = (await initialize()).headers.get("mcp-session-id");
      res = await tool(name, args)();
    }
    const reply = await res.json();
    if (reply.error || reply.result?.isError) throw new Error(`${name}: ${JSON.stringify(reply.error ?? reply.result)}`);
    return JSON.parse(reply.result.content[0].text);
  };
  return { initialize, ping, tool, batch, call };
}
