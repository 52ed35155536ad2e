import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { isNonPublicMetadataUrl } from "../../../src/oauth/metadata-hosts";
import { CLIENT_REGISTRATION_TTL_S, MAX_CLIENT_NAME_LENGTH } from "../../../src/oauth/server";
import { fetchWith } from "../support/app";
import { authorizeUrl, pkcePair, tokenRequest } from "../support/connector";
import { BASE } from "../support/mcp";

const CLAUDE_CALLBACK = "https://claude.ai/api/mcp/auth_callback";

const register = (metadata: Record<string, unknown>, address = "192.0.2.90") =>
  new Request(`${BASE}/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
    body: JSON.stringify({ redirect_uris: [CLAUDE_CALLBACK], token_endpoint_auth_method: "none", ...metadata }),
  });

describe("dynamic registration is bounded", () => {
  it(`accepts a client_name of ${MAX_CLIENT_NAME_LENGTH} characters and refuses one more, or control characters`, async () => {
    expect((await SELF.fetch(register({ client_name: "C".repeat(MAX_CLIENT_NAME_LENGTH) }, "192.0.2.91"))).status).toBe(201);
    for (const client_name of [
      "C".repeat(MAX_CLIENT_NAME_LENGTH + 1),
      `Claude${" ".repeat(4 * 1024)}`,
      "Claude\u001b]8;;https://evil.example\u0007",
    ]) {
      const res = await SELF.fetch(register({ client_name }, "192.0.2.92"));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
  });

  it("admits exactly the address's registrations an hour, under concurrency, and other addresses go on", async () => {
    const vars = { REGISTRATIONS_PER_ADDRESS: "2" };
    const responses = await Promise.all(Array.from({ length: 6 }, () => fetchWith(register({ client_name: "App" }, "192.0.2.93"), vars)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(4);
    expect(await refused[0]!.json()).toMatchObject({ error: "temporarily_unavailable" });
    expect((await fetchWith(register({ client_name: "App" }, "192.0.2.94"), vars)).status).toBe(201);
  });

  it(`keeps an unused registration ${CLIENT_REGISTRATION_TTL_S / 86_400} days, not 90`, async () => {
    const before = Math.floor(Date.now() / 1000);
    const { client_id } = await (await SELF.fetch(register({ client_name: "Short-lived" }, "192.0.2.95"))).json<{ client_id: string }>();
    const { keys } = await env.OAUTH_KV.list({ prefix: `client:${client_id}` });
    expect(keys[0]!.expiration).toBeGreaterThanOrEqual(before + CLIENT_REGISTRATION_TTL_S);
    expect(keys[0]!.expiration).toBeLessThanOrEqual(before + CLIENT_REGISTRATION_TTL_S + 5);
  });
});

describe("client ID metadata documents only from public hosts", () => {
  const hosts = [
    "https://127.0.0.1/client.json",
    "https://2130706433/client.json",
    "https://0x7f.1/client.json",
    "https://[::1]/client.json",
    "https://169.254.169.254/latest/meta-data",
    "https://10.0.0.8/client.json",
    "https://localhost/client.json",
    "https://api.localhost/client.json",
    "https://intranet/client.json",
    "https://printer.local/client.json",
    "https://metadata.internal/client.json",
    "https://registry.default.svc/client.json",
    "https://169.254.169.254.nip.io/client.json",
  ];

  it.each(hosts)("refuses %s at /authorize and /token without fetching it", async (clientId) => {
    const { challenge } = await pkcePair();
    const page = await SELF.fetch(
      authorizeUrl({ client_id: clientId, redirect_uri: CLAUDE_CALLBACK, code_challenge: challenge, code_challenge_method: "S256" }),
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("private or local address");
    const token = await tokenRequest({ grant_type: "authorization_code", code: "a:b:c", client_id: clientId, code_verifier: "x" });
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: "invalid_client", error_description: expect.stringContaining("private or local") });
  });

  it("tells public names from the rest", () => {
    expect(isNonPublicMetadataUrl("https://claude.ai/oauth/client.json")).toBe(false);
    expect(isNonPublicMetadataUrl("https://app.example.com./client.json")).toBe(false);
    expect(isNonPublicMetadataUrl("demo-connector")).toBe(false);
    expect(isNonPublicMetadataUrl("http://127.0.0.1/client.json")).toBe(false); // not a metadata URL: the provider refuses it
    for (const clientId of hosts) expect(isNonPublicMetadataUrl(clientId)).toBe(true);
  });
});
