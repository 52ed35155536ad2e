import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { admin } from "../support/admin";
import { authorizeUrl, Browser, DEMO_CLIENT, DEMO_REDIRECT, pkcePair, tokenRequest } from "../support/connector";
import { BASE, expectEnvelope, initializeRequest, mcpPost } from "../support/mcp";

/**
 * Identifiers a caller chooses become storage keys (OAUTH_KV keys are at most 512 bytes): each is bounded first, and
 * one past the bound is answered in the surface's own error format, never a 500. The bound is 255 visible characters
 * for client IDs and for the connector flow's tokens and codes (`<user>:<grant>:<secret>`, which the provider
 * splits into keys); past it, whatever the length, the answer is the same.
 */

const LENGTHS = [256, 520, 3_000];
const clientIdOf = (length: number) => `client-${"c".repeat(length - 7)}`;
/** A token of the connector flow's shape, `length` characters long. */
const providerTokenOf = (length: number) => `user_${"u".repeat(length - 5 - 40)}:grant${"g".repeat(10)}:${"s".repeat(23)}`;

describe("the connector flow", () => {
  it("shows an error page for a client ID past 255 characters at /authorize, never a redirect", async () => {
    const { challenge } = await pkcePair();
    for (const length of LENGTHS) {
      const res = await new Browser().request(
        authorizeUrl({
          client_id: clientIdOf(length),
          redirect_uri: DEMO_REDIRECT,
          code_challenge: challenge,
          code_challenge_method: "S256",
        }),
      );
      expect(res.status, `${length}`).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
      expect(await res.text()).toMatch(/client ID is not 1-255 visible characters/);
    }
    const atLimit = await new Browser().request(
      authorizeUrl({ client_id: clientIdOf(255), redirect_uri: DEMO_REDIRECT, code_challenge: challenge, code_challenge_method: "S256" }),
    );
    expect(atLimit.status).toBe(400);
    expect(await atLimit.text()).toMatch(/refused/);
  });

  it("answers a client ID past 255 characters at /token with invalid_request, in the form or HTTP Basic", async () => {
    for (const length of LENGTHS) {
      const form = await tokenRequest({ grant_type: "refresh_token", refresh_token: providerTokenOf(60), client_id: clientIdOf(length) });
      expect(form.status, `${length}`).toBe(400);
      expect(await form.json()).toEqual({ error: "invalid_request", error_description: "client_id must be 1-255 visible characters." });
      const basic = await SELF.fetch(
        new Request(`${BASE}/token`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${btoa(`${clientIdOf(length)}:secret`)}` },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: providerTokenOf(60) }),
        }),
      );
      expect(basic.status, `${length}`).toBe(400);
    }
    const atLimit = await tokenRequest({ grant_type: "refresh_token", refresh_token: providerTokenOf(60), client_id: clientIdOf(255) });
    expect(atLimit.status).toBe(401);
    expect(await atLimit.json()).toMatchObject({ error: "invalid_client" });
  });

  it.each(["code", "refresh_token"])("answers a %s past 255 characters at /token with invalid_grant", async (field) => {
    for (const length of LENGTHS) {
      const res = await tokenRequest({
        grant_type: field === "code" ? "authorization_code" : "refresh_token",
        [field]: providerTokenOf(length),
        client_id: DEMO_CLIENT,
        redirect_uri: DEMO_REDIRECT,
        code_verifier: "v".repeat(43),
      });
      expect(res.status, `${field} ${length}`).toBe(400);
      expect(await res.json()).toEqual({
        error: "invalid_grant",
        error_description: `The ${field.replace("_", " ")} is not one this server issued.`,
      });
    }
    const atLimit = await tokenRequest({
      grant_type: field === "code" ? "authorization_code" : "refresh_token",
      [field]: providerTokenOf(255),
      client_id: DEMO_CLIENT,
      redirect_uri: DEMO_REDIRECT,
      code_verifier: "v".repeat(43),
    });
    expect(atLimit.status).toBe(400);
    expect(await atLimit.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("revokes nothing, with 200, for a token past 255 characters (RFC 7009: an invalid token is no error)", async () => {
    for (const length of [255, ...LENGTHS]) {
      const res = await tokenRequest({ token: providerTokenOf(length), client_id: DEMO_CLIENT });
      expect(res.status, `${length}`).toBe(200);
    }
  });
});

describe("bearer tokens", () => {
  it.each(["/v1/sse", "/v1/chatgpt"])(
    "refuses a connector-shaped token past 255 characters at %s with the 401 envelope",
    async (endpoint) => {
      for (const length of [255, ...LENGTHS]) {
        const res = await SELF.fetch(
          new Request(`${BASE}${endpoint}`, {
            method: "POST",
            headers: mcpPost(providerTokenOf(length), {}).headers,
            body: JSON.stringify(initializeRequest()),
          }),
        );
        expect(await expectEnvelope(res, 401, "unauthorized"), `${length}`).toMatch(/invalid, expired or revoked/);
        expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer error="invalid_token"/);
      }
    },
  );
});

describe("the operator API's connector-client routes", () => {
  const routes = (id: string): [string, string, unknown?][] => [
    ["GET", `/connector-clients/${id}`],
    ["DELETE", `/connector-clients/${id}`],
    ["POST", `/connector-clients/${id}/redirect-uris`, { redirectUri: "https://claude.ai/api/mcp/auth_callback" }],
    ["DELETE", `/connector-clients/${id}/redirect-uris?redirectUri=${encodeURIComponent("https://claude.ai/api/mcp/auth_callback")}`],
  ];

  it("answers a client ID past 255 characters with 404 in the envelope, as an ID that names nothing", async () => {
    for (const length of [505, 520, 2_048, 3_000]) {
      for (const [method, path, body] of routes(clientIdOf(length))) {
        expect(await expectEnvelope(await admin(method, path, body), 404, "not_found"), `${method} ${length}`).toBe("No such resource.");
      }
    }
    for (const [method, path, body] of routes(clientIdOf(255))) {
      const res = await admin(method, path, body);
      expect(res.status, method).toBe(404);
    }
  });
});
