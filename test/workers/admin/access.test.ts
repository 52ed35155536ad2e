import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../../src/crypto/hash";
import { verifyPassword } from "../../../src/crypto/password";
import { admin, adminJson, adminRequest } from "../support/admin";
import { fetchWith } from "../support/app";
import { ANA, authorizeAs, Browser, connectorTokens, demoRequest, signIn, tokenRequest } from "../support/connector";
import { expectErrorResponse, get } from "../support/content";
import { BASE, callTool, clientCredentials, expectEnvelope, initializeRequest, openSession, post, tokenOf } from "../support/mcp";

afterEach(() => vi.useRealTimers());

describe("organizations", () => {
  it("are created with a scope that decides what their clients' tools see", async () => {
    const org = await adminJson("POST", "/organizations", { id: "org-lisbon", name: "Lisbon Desk", scope: ["DMO-LIS", "AIR-LIS"] }, 201);
    expect(org).toMatchObject({ id: "org-lisbon", name: "Lisbon Desk", scope: ["AIR-LIS", "DMO-LIS"], users: 0, identityClients: 0 });
    const client = await adminJson("POST", "/identity-clients", { organizationId: "org-lisbon" }, 201);
    const token = await tokenOf(client.clientId, client.clientSecret);
    const session = await openSession(token);
    const listed = await callTool(token, session, "service_list_entities", {});
    expect(listed.entities.map((e: { id: string }) => e.id)).toEqual(["AIR-LIS", "DMO-LIS"]);

    await adminJson("DELETE", "/organizations/org-lisbon/scope/AIR-LIS");
    expect((await callTool(token, session, "service_list_entities", {})).entities.map((e: { id: string }) => e.id)).toEqual(["DMO-LIS"]);
    await adminJson("POST", "/organizations/org-lisbon/scope", { entityId: "HO-CAS" });
    expect((await adminJson("GET", "/organizations/org-lisbon")).scope).toEqual(["DMO-LIS", "HO-CAS"]);
  });

  it("refuse duplicates, unknown entities, bad IDs and unknown fields, changing nothing", async () => {
    await expectEnvelope(await admin("POST", "/organizations", { id: "org-aurora", name: "Again" }), 409, "conflict");
    const unknown = await admin("POST", "/organizations", { id: "org-ghost", name: "Ghost", scope: ["DMO-LIS", "HO-NOPE"] });
    expect(unknown.status).toBe(400);
    expect((await unknown.json<any>()).error.details).toEqual([{ field: "scope.1", message: "no entity HO-NOPE" }]);
    await expectEnvelope(await admin("GET", "/organizations/org-ghost"), 404, "not_found");
    for (const body of [
      { id: "Org Bad", name: "x" },
      { id: "org-x", name: "" },
      { id: "org-x", name: "x", colour: "red" },
      { name: "no id" },
    ]) {
      await expectEnvelope(await admin("POST", "/organizations", body), 400, "bad_request");
    }
    await expectEnvelope(await admin("POST", "/organizations/org-aurora/scope", { entityId: "HO-AUR" }), 409, "conflict");
    await expectEnvelope(await admin("POST", "/organizations/org-aurora/scope", { entityId: "HO-NOPE" }), 400, "bad_request");
    await expectEnvelope(await admin("DELETE", "/organizations/org-aurora/scope/HO-BOR"), 404, "not_found");
    await expectEnvelope(await admin("PATCH", "/organizations/org-nope", { name: "x" }), 404, "not_found");
  });

  it("are renamed, and deleted only when no user or client depends on them", async () => {
    expect((await adminJson("PATCH", "/organizations/org-boreal", { name: "Boreal Group Ltd" })).name).toBe("Boreal Group Ltd");
    expect(await expectEnvelope(await admin("DELETE", "/organizations/org-aurora"), 409, "conflict")).toMatch(
      /1 users and 1 identity clients/,
    );
    await adminJson("POST", "/organizations", { id: "org-empty", name: "Empty" }, 201);
    expect((await admin("DELETE", "/organizations/org-empty")).status).toBe(204);
    await expectEnvelope(await admin("DELETE", "/organizations/org-empty"), 404, "not_found");
  });
});

describe("identity clients", () => {
  it("show their secret once, store only its hash, and the secret gets a token", async () => {
    const created = await adminJson("POST", "/identity-clients", { clientId: "partner-bot", organizationId: "org-boreal" }, 201);
    expect(created).toMatchObject({
      clientId: "partner-bot",
      organizationId: "org-boreal",
      clientSecret: expect.stringMatching(/^[\w-]{43}$/),
    });
    const stored = await env.DB.prepare("SELECT secret_hash FROM identity_clients WHERE client_id = 'partner-bot'").first<{
      secret_hash: string;
    }>();
    expect(stored!.secret_hash).toBe(await sha256Hex(created.clientSecret));
    expect(JSON.stringify(await adminJson("GET", "/identity-clients"))).not.toContain(created.clientSecret);
    expect(await adminJson("GET", "/identity-clients/partner-bot")).toEqual({
      issuer: "realm",
      clientId: "partner-bot",
      organizationId: "org-boreal",
      createdAt: created.createdAt,
    });
    expect((await post(await tokenOf("partner-bot", created.clientSecret), initializeRequest())).status).toBe(200);
  });

  it("rotate the secret: the old one stops at once, the new one works", async () => {
    const created = await adminJson("POST", "/identity-clients", { organizationId: "org-aurora" }, 201);
    expect(created.clientId).toMatch(/^client-[0-9a-f]{12}$/);
    const rotated = await adminJson("POST", `/identity-clients/${created.clientId}/secret`);
    expect(rotated.clientSecret).not.toBe(created.clientSecret);
    expect((await clientCredentials(created.clientId, created.clientSecret)).status).toBe(401);
    expect((await clientCredentials(created.clientId, rotated.clientSecret)).status).toBe(200);
  });

  it("move between organizations (seen by /v1/sse within 60 s: the isolate's cache of the mapping) and are deleted", async () => {
    const created = await adminJson("POST", "/identity-clients", { organizationId: "org-aurora" }, 201);
    const token = await tokenOf(created.clientId, created.clientSecret);
    const movedAt = Date.now();
    expect((await post(token, initializeRequest())).status).toBe(200);
    expect((await adminJson("PATCH", `/identity-clients/${created.clientId}`, { organizationId: null })).organizationId).toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(movedAt + 59_000);
    expect((await post(await tokenOf(created.clientId, created.clientSecret), initializeRequest())).status).toBe(200);
    vi.setSystemTime(movedAt + 61_000);
    const later = await tokenOf(created.clientId, created.clientSecret);
    expect(await expectEnvelope(await post(later, initializeRequest()), 401, "unauthorized")).toMatch(/no organization/);
    vi.useRealTimers();
    expect((await admin("DELETE", `/identity-clients/${created.clientId}`)).status).toBe(204);
    expect((await clientCredentials(created.clientId, created.clientSecret)).status).toBe(401);
  });

  it("refuse unknown organizations, duplicates and unknown clients", async () => {
    await expectEnvelope(await admin("POST", "/identity-clients", { organizationId: "org-nope" }), 400, "bad_request");
    await expectEnvelope(await admin("POST", "/identity-clients", { clientId: "aurora-assistant", organizationId: null }), 409, "conflict");
    await expectEnvelope(await admin("POST", "/identity-clients", { clientId: "bad id", organizationId: null }), 400, "bad_request");
    await expectEnvelope(await admin("PATCH", "/identity-clients/ghost", { organizationId: null }), 404, "not_found");
    await expectEnvelope(await admin("POST", "/identity-clients/ghost/secret"), 404, "not_found");
    await expectEnvelope(await admin("DELETE", "/identity-clients/ghost"), 404, "not_found");
  });
});

describe("an organization's scope, many entities at once", () => {
  it("adds and removes several entities all or nothing, audited with what changed", async () => {
    await adminJson("POST", "/organizations", { id: "org-many", name: "Many" }, 201);
    const added = await adminJson("POST", "/organizations/org-many/scope", { entityIds: ["DMO-LIS", "AIR-LIS", "HO-CAS"] });
    expect(added.scope).toEqual(["AIR-LIS", "DMO-LIS", "HO-CAS"]);

    const unknown = await admin("POST", "/organizations/org-many/scope", { entityIds: ["HO-AUR", "HO-NOPE", "DMO-NADA"] });
    expect(await expectEnvelope(unknown, 400, "bad_request")).toBe("No entity HO-NOPE, DMO-NADA.");
    const again = await admin("POST", "/organizations/org-many/scope", { entityIds: ["HO-AUR", "DMO-LIS"] });
    expect(await expectEnvelope(again, 409, "conflict")).toBe("DMO-LIS is already in org-many's scope.");
    const notThere = await admin("POST", "/organizations/org-many/scope/remove", { entityIds: ["DMO-LIS", "HO-AUR"] });
    expect(await expectEnvelope(notThere, 404, "not_found")).toBe("HO-AUR is not in org-many's scope.");
    expect((await adminJson("GET", "/organizations/org-many")).scope).toEqual(["AIR-LIS", "DMO-LIS", "HO-CAS"]);

    const removed = await adminJson("POST", "/organizations/org-many/scope/remove", { entityIds: ["DMO-LIS", "AIR-LIS"] });
    expect(removed.scope).toEqual(["HO-CAS"]);
    const { entries } = await adminJson("GET", "/audit?target=org-many");
    expect(entries.slice(0, 2)).toMatchObject([
      { action: "organization.scope.remove", detail: { entityIds: ["DMO-LIS", "AIR-LIS"] } },
      { action: "organization.scope.add", detail: { entityIds: ["DMO-LIS", "AIR-LIS", "HO-CAS"] } },
    ]);
    await expectEnvelope(await admin("POST", "/organizations/org-many/scope", { entityIds: [] }), 400, "bad_request");
  });
});

describe("API keys", () => {
  it("are issued once with the default 1000/h, listed without the key, and work on the content API", async () => {
    const key = await adminJson("POST", "/api-keys", { partner: "Hotel Search Co" }, 201);
    expect(key).toMatchObject({
      id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
      partner: "Hotel Search Co",
      hourlyLimit: 1000,
      expiresAt: null,
      revokedAt: null,
    });
    expect(key.key).toMatch(/^hck_[\w-]{43}$/);
    const res = await get("/api/v3/content/HO-AUR/properties", key.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
    const listed = JSON.stringify(await adminJson("GET", "/api-keys"));
    expect(listed).toContain(key.id);
    expect(listed).not.toContain(key.key);
    expect(listed).not.toContain(await sha256Hex(key.key));
  });

  it("change their hourly limit and expiry in place, audited, and never once revoked", async () => {
    const key = await adminJson("POST", "/api-keys", { partner: "Growing Co", hourlyLimit: 5 }, 201);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const updated = await adminJson("PATCH", `/api-keys/${key.id}`, { hourlyLimit: 50, expiresAt });
    expect(updated).toMatchObject({ id: key.id, hourlyLimit: 50, expiresAt });
    expect((await get("/api/v3/content/HO-AUR/properties", key.key)).headers.get("X-RateLimit-Limit")).toBe("50");
    expect(await adminJson("PATCH", `/api-keys/${key.id}`, { expiresAt: null })).toMatchObject({ hourlyLimit: 50, expiresAt: null });
    const { entries } = await adminJson("GET", `/audit?target=${key.id}`);
    expect(entries[0]).toMatchObject({ action: "api_key.update", detail: { expiresAt: { from: expiresAt, to: null } } });

    await expectEnvelope(await admin("PATCH", `/api-keys/${key.id}`, {}), 400, "bad_request");
    await expectEnvelope(await admin("PATCH", `/api-keys/${key.id}`, { hourlyLimit: 0 }), 400, "bad_request");
    await expectEnvelope(await admin("PATCH", `/api-keys/${key.id}`, { expiresAt: "2020-01-01T00:00:00Z" }), 400, "bad_request");
    await expectEnvelope(await admin("PATCH", "/api-keys/key_000000000000", { hourlyLimit: 9 }), 404, "not_found");
    await adminJson("POST", `/api-keys/${key.id}/revoke`);
    await expectEnvelope(await admin("PATCH", `/api-keys/${key.id}`, { hourlyLimit: 9 }), 409, "conflict");
    expect((await adminJson("GET", `/api-keys/${key.id}`)).hourlyLimit).toBe(50);
  });

  it("carry their own hourly limit and expiry", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const key = await adminJson("POST", "/api-keys", { partner: "Small", hourlyLimit: 2, expiresAt }, 201);
    expect(key).toMatchObject({ hourlyLimit: 2, expiresAt });
    expect((await get("/api/v3/content/HO-AUR/properties", key.key)).headers.get("X-RateLimit-Limit")).toBe("2");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(expiresAt) + 1000);
    expect(
      (
        await expectErrorResponse(
          await get("/api/v3/content/HO-AUR/properties", key.key),
          401,
          "Unauthorized",
          "/api/v3/content/HO-AUR/properties",
        )
      ).message,
    ).toMatch(/expired/);
  });

  it("are revoked at once; revoking twice or an unknown key is an error", async () => {
    const key = await adminJson("POST", "/api-keys", { partner: "Leaky" }, 201);
    expect((await get("/api/v3/content/HO-AUR/properties", key.key)).status).toBe(200);
    expect((await adminJson("POST", `/api-keys/${key.id}/revoke`)).revokedAt).toEqual(expect.any(String));
    expect((await get("/api/v3/content/HO-AUR/properties", key.key)).status).toBe(401);
    await expectEnvelope(await admin("POST", `/api-keys/${key.id}/revoke`), 409, "conflict");
    await expectEnvelope(await admin("POST", "/api-keys/key_nope/revoke"), 404, "not_found");
  });

  it("refuse a bad limit, an expiry in the past and an empty partner", async () => {
    for (const body of [
      { partner: "x", hourlyLimit: 0 },
      { partner: "x", hourlyLimit: 1.5 },
      { partner: "x", expiresAt: "2020-01-01T00:00:00Z" },
      { partner: "x", expiresAt: "tomorrow" },
      { partner: " " },
    ]) {
      await expectEnvelope(await admin("POST", "/api-keys", body), 400, "bad_request");
    }
  });
});

describe("connector users", () => {
  /** A user of org-aurora with `password`, made through the operator API: `{ user }`. */
  const newUser = (email: string, password: string) => adminJson("POST", "/users", { email, organizationId: "org-aurora", password }, 201);

  it("are created with a password they can sign in with, and a generated password is shown once", async () => {
    const made = await newUser("Marta@Aurora.example ", "marta-password");
    expect(made.user).toMatchObject({ email: "marta@aurora.example", organizationId: "org-aurora", disabled: false });
    expect(made.password).toBeUndefined();
    expect((await connectorTokens({ user: { email: "marta@aurora.example", password: "marta-password" } })).access_token).toEqual(
      expect.any(String),
    );

    const generated = await adminJson("POST", "/users", { email: "nuno@boreal.example", organizationId: "org-boreal" }, 201);
    expect(generated.password).toMatch(/^[\w-]{24}$/);
    const tokens = await connectorTokens({ user: { email: "nuno@boreal.example", password: generated.password } });
    const session = await openSession(tokens.access_token);
    expect((await callTool(tokens.access_token, session, "service_list_entities", { kind: "brand" })).entities).toEqual([
      { id: "HO-BOR", name: "Boreal Inns", kind: "brand" },
    ]);
  });

  it("refuse a duplicate email (in any case), an unknown organization and a short password", async () => {
    await expectEnvelope(await admin("POST", "/users", { email: "ANA@aurora.example", organizationId: "org-aurora" }), 409, "conflict");
    await expectEnvelope(await admin("POST", "/users", { email: "x@y.example", organizationId: "org-nope" }), 400, "bad_request");
    await expectEnvelope(
      await admin("POST", "/users", { email: "x@y.example", organizationId: "org-aurora", password: "short" }),
      400,
      "bad_request",
    );
    await expectEnvelope(await admin("POST", "/users", { email: "not-an-email", organizationId: "org-aurora" }), 400, "bad_request");
  });

  it("are disabled and enabled; a disabled user cannot sign in", async () => {
    const { user } = await newUser("tiago@aurora.example", "tiago-password");
    expect((await adminJson("POST", `/users/${user.id}/disable`)).disabled).toBe(true);
    const { url } = await demoRequest();
    const res = await signIn(new Browser(), url, { email: "tiago@aurora.example", password: "tiago-password" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("This account is disabled");
    await expectEnvelope(await admin("POST", `/users/${user.id}/disable`), 409, "conflict");
    expect((await adminJson("POST", `/users/${user.id}/enable`)).disabled).toBe(false);
    await expectEnvelope(await admin("POST", `/users/${user.id}/enable`), 409, "conflict");
    await expectEnvelope(await admin("POST", "/users/user_nope/disable"), 404, "not_found");
  });

  it("get a new password: the old one fails, the new one works, and earlier tokens stop", async () => {
    const { user } = await newUser("rita@aurora.example", "rita-password");
    const before = await connectorTokens({ user: { email: "rita@aurora.example", password: "rita-password" } });
    const reset = await adminJson("POST", `/users/${user.id}/password`, {});
    expect(reset.password).toEqual(expect.any(String));
    await expectEnvelope(await post(before.access_token, initializeRequest()), 401, "unauthorized");
    const { url } = await demoRequest();
    const res = await signIn(new Browser(), url, { email: "rita@aurora.example", password: "rita-password" });
    expect(res.status).toBe(401);
    expect((await connectorTokens({ user: { email: "rita@aurora.example", password: reset.password } })).access_token).toEqual(
      expect.any(String),
    );
  });

  it("get peppered password hashes, and no password is set while PASSWORD_PEPPER is missing, saying so", async () => {
    const storedHash = (id: string) =>
      env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(id).first<string>("password_hash");
    const { user } = await newUser("pia@aurora.example", "pia-password");
    const created = (await storedHash(user.id))!;
    expect(created).toMatch(/^peppered-pbkdf2-sha256\$/);
    expect(await verifyPassword("pia-password", created, env.PASSWORD_PEPPER)).toBe(true);
    await adminJson("POST", `/users/${user.id}/password`, { password: "pia-new-password" });
    const reset = (await storedHash(user.id))!;
    expect(reset).toMatch(/^peppered-pbkdf2-sha256\$/);
    expect(await verifyPassword("pia-new-password", reset, env.PASSWORD_PEPPER)).toBe(true);

    const withoutPepper = (request: Request) => fetchWith(request, { PASSWORD_PEPPER: undefined });
    const create = await withoutPepper(adminRequest("POST", "/users", { email: "eva@aurora.example", organizationId: "org-aurora" }));
    expect(await expectEnvelope(create, 500, "internal_error")).toMatch(/PASSWORD_PEPPER must be set/);
    const { users } = await adminJson("GET", "/users?organizationId=org-aurora");
    expect(users.map((u: { email: string }) => u.email)).not.toContain("eva@aurora.example");
    const change = await withoutPepper(adminRequest("POST", `/users/${user.id}/password`, {}));
    expect(await expectEnvelope(change, 500, "internal_error")).toMatch(/PASSWORD_PEPPER must be set/);
    expect(await storedHash(user.id)).toBe(reset);
  });

  it("are listed by organization", async () => {
    const { users } = await adminJson("GET", "/users?organizationId=org-aurora");
    expect(users.map((u: { email: string }) => u.email)).toContain(ANA.email);
    expect(users.every((u: { organizationId: string }) => u.organizationId === "org-aurora")).toBe(true);
    await expectEnvelope(await admin("GET", "/users?organizationId=Not%20An%20Org"), 400, "bad_request");
  });
});

describe("connector clients", () => {
  /** A connector client registered through the operator API. */
  const newClient = (body: Record<string, unknown>) => adminJson("POST", "/connector-clients", body, 201);

  it("are registered with their redirect URIs allowed, and used for sign-in", async () => {
    const client = await newClient({ name: "Partner desktop app", redirectUris: ["http://127.0.0.1:7777/cb"] });
    expect(client).toMatchObject({
      name: "Partner desktop app",
      public: true,
      redirectUris: ["http://127.0.0.1:7777/cb"],
      allowedRedirectUris: ["http://127.0.0.1:7777/cb"],
    });
    expect(client.clientSecret).toBeUndefined();
    const { url } = await demoRequest({ client_id: client.clientId, redirect_uri: "http://127.0.0.1:7777/cb" });
    const callback = await authorizeAs(new Browser(), url);
    expect(callback.searchParams.get("code")).toEqual(expect.any(String));
    const confidential = await newClient({ name: "Server app", redirectUris: ["https://app.partner.example/cb"], confidential: true });
    expect(confidential).toMatchObject({ public: false, clientSecret: expect.any(String) });
  });

  it("get and lose allowed redirect URIs, also for a metadata-document client", async () => {
    const client = await newClient({ name: "Web app", redirectUris: ["https://one.partner.example/cb"] });
    const added = await adminJson("POST", `/connector-clients/${client.clientId}/redirect-uris`, {
      redirectUri: "https://two.partner.example/cb",
    });
    expect(added.redirectUris).toEqual(["https://one.partner.example/cb", "https://two.partner.example/cb"]);
    expect(added.allowedRedirectUris).toEqual(["https://one.partner.example/cb", "https://two.partner.example/cb"]);
    const { url } = await demoRequest({ client_id: client.clientId, redirect_uri: "https://two.partner.example/cb" });
    expect((await new Browser().request(url)).status).toBe(200);

    const removed = await adminJson(
      "DELETE",
      `/connector-clients/${client.clientId}/redirect-uris?redirectUri=${encodeURIComponent("https://two.partner.example/cb")}`,
    );
    expect(removed.allowedRedirectUris).toEqual(["https://one.partner.example/cb"]);
    const refused = await new Browser().request(url);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("Location")).toBeNull();

    const cimd = encodeURIComponent("https://app.example/client.json");
    expect(
      (await adminJson("POST", `/connector-clients/${cimd}/redirect-uris`, { redirectUri: "https://app.example/callback" }))
        .allowedRedirectUris,
    ).toEqual(["https://app.example/callback"]);
  });

  it("refuse unsafe redirect URIs and unknown clients", async () => {
    for (const redirectUri of [
      "http://partner.example/cb",
      "https://partner.example/cb#x",
      "javascript:alert(1)",
      "not a url",
      "https://user:pw@partner.example/cb",
    ]) {
      await expectEnvelope(await admin("POST", "/connector-clients", { name: "x", redirectUris: [redirectUri] }), 400, "bad_request");
    }
    await expectEnvelope(await admin("POST", "/connector-clients", { name: "x", redirectUris: [] }), 400, "bad_request");
    await expectEnvelope(await admin("GET", "/connector-clients/nope"), 404, "not_found");
    await expectEnvelope(
      await admin("POST", "/connector-clients/nope/redirect-uris", { redirectUri: "https://x.example/cb" }),
      404,
      "not_found",
    );
    await expectEnvelope(
      await admin("POST", `/connector-clients/demo-connector/redirect-uris`, { redirectUri: "http://localhost:8976/callback" }),
      409,
      "conflict",
    );
  });

  it("are listed, demo-connector with its allowed URI, and deleted: its tokens stop", async () => {
    const { connectorClients } = await adminJson("GET", "/connector-clients");
    expect(connectorClients.find((c: { clientId: string }) => c.clientId === "demo-connector")).toMatchObject({
      name: "Demo connector",
      public: true,
      allowedRedirectUris: ["http://localhost:8976/callback"],
    });
    const client = await newClient({ name: "Doomed", redirectUris: ["https://claude.ai/api/mcp/auth_callback"] });
    const { url, verifier } = await demoRequest({ client_id: client.clientId, redirect_uri: "https://claude.ai/api/mcp/auth_callback" });
    const code = (await authorizeAs(new Browser(), url)).searchParams.get("code")!;
    const tokens = await (
      await tokenRequest({
        grant_type: "authorization_code",
        code,
        redirect_uri: "https://claude.ai/api/mcp/auth_callback",
        client_id: client.clientId,
        code_verifier: verifier,
      })
    ).json<{ access_token: string }>();
    expect((await post(tokens.access_token, initializeRequest())).status).toBe(200);
    expect((await admin("DELETE", `/connector-clients/${client.clientId}`)).status).toBe(204);
    await expectEnvelope(await post(tokens.access_token, initializeRequest()), 401, "unauthorized");
    await expectEnvelope(await admin("DELETE", `/connector-clients/${client.clientId}`), 404, "not_found");
  });
});

it("a realm token never reaches another organization's session or content after a move, from both sides", async () => {
  // Cross-tenant through the operator API: a client moved to org-boreal sees HO-BOR only, never HO-AUR.
  const client = await adminJson("POST", "/identity-clients", { organizationId: "org-boreal" }, 201);
  const token = await tokenOf(client.clientId, client.clientSecret);
  const session = await openSession(token);
  expect((await callTool(token, session, "service_query", { entity: "HO-AUR" })).entity).toBeNull();
  const aurora = await connectorTokens();
  await expectEnvelope(await post(aurora.access_token, { jsonrpc: "2.0", id: 1, method: "tools/list" }, session), 404, "not_found");
  expect(BASE).toMatch(/^https:/);
});
