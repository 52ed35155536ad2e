import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fetchWith } from "../support/app";
import { BASE, CLIENTS, credentialsGrant, initializeRequest, mcpPost, realmTokenRequest, tokenFor } from "../support/mcp";

/** Discovery that browser-based MCP clients can use, and absolute URLs that agree whatever host a request used. */

const PUBLIC_DOCUMENTS = [
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/v1/sse",
  "/.well-known/oauth-authorization-server",
  "/realms/hospitality/.well-known/openid-configuration",
  "/realms/hospitality/protocol/openid-connect/certs",
  "/health",
];

describe("public documents from a browser", () => {
  it.each(PUBLIC_DOCUMENTS)("%s answers a CORS preflight and GET with Access-Control-Allow-Origin: *", async (path) => {
    const preflight = await SELF.fetch(`${BASE}${path}`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://inspector.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "mcp-protocol-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toContain("GET");
    const res = await SELF.fetch(`${BASE}${path}`, { headers: { Origin: "https://inspector.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("lets browser scripts read WWW-Authenticate on a 401 and mcp-session-id on initialize (Access-Control-Expose-Headers)", async () => {
    const configured = (request: Request) => fetchWith(request, { BASE_URL: BASE });
    const unauthorized = await configured(
      new Request(`${BASE}/v1/sse`, { method: "POST", headers: { Origin: BASE, "Content-Type": "application/json" }, body: "{}" }),
    );
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("Access-Control-Allow-Origin")).toBe(BASE);
    expect(unauthorized.headers.get("Access-Control-Expose-Headers")?.toLowerCase()).toContain("www-authenticate");
    const init = await configured(mcpPost(await tokenFor("aurora"), initializeRequest(), undefined, { Origin: BASE }));
    expect(init.status).toBe(200);
    expect(init.headers.get("Access-Control-Expose-Headers")?.toLowerCase()).toContain("mcp-session-id");
  });
});

/** A realm token fetched at 127.0.0.1, then initialize at localhost, with `vars`. */
async function tokenAcrossHosts(vars: Partial<typeof env>): Promise<Response> {
  const tokenUrl = "http://127.0.0.1:8787/realms/hospitality/protocol/openid-connect/token";
  const tokenRes = await fetchWith(realmTokenRequest(credentialsGrant(...CLIENTS.aurora), {}, tokenUrl), vars);
  const { access_token } = await tokenRes.json<{ access_token: string }>();
  return fetchWith(mcpPost(access_token, initializeRequest(), undefined, {}, "http://localhost:8787"), vars);
}

describe("absolute URLs", () => {
  it("come from BASE_URL and AUTH_URL, so a token fetched at 127.0.0.1 verifies at localhost", async () => {
    const vars = { BASE_URL: "http://localhost:8787", AUTH_URL: "http://localhost:8787", ENVIRONMENT: "development" };
    expect((await tokenAcrossHosts(vars)).status).toBe(200);
    const metadata = await fetchWith(new Request("http://127.0.0.1:8787/.well-known/oauth-protected-resource"), vars);
    expect(await metadata.json()).toMatchObject({
      resource: "http://localhost:8787",
      authorization_servers: ["http://localhost:8787", "http://localhost:8787/realms/hospitality"],
    });
  });

  it("without them follow the host of each request, which is why a token from one host does not verify at another", async () => {
    const res = await tokenAcrossHosts({});
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/untrusted issuer/);
  });
});
