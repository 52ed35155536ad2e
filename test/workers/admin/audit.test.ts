import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { oauthHelpers } from "../../../src/oauth/server";
import { admin, adminJson } from "../support/admin";
import { expectEnvelope, BASE } from "../support/mcp";

/**
 * No change without its audit row: when the audit row cannot be written, the change is not made either,
 * in D1 and in the provider's KV alike. The audit is made to fail by a D1 trigger, the database's own.
 */

afterEach(async () => {
  vi.restoreAllMocks();
  await env.DB.prepare("DROP TRIGGER IF EXISTS refuse_audit").run();
});

/** From now on D1 refuses audit rows of actions starting with `prefix` (and so the batch holding one). */
async function refuseAuditOf(prefix: string): Promise<void> {
  await env.DB.prepare(
    `CREATE TRIGGER refuse_audit BEFORE INSERT ON admin_audit WHEN NEW.action LIKE '${prefix}%'
     BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
  ).run();
  // The app logs the unexpected error it answers with 500.
  vi.spyOn(console, "error").mockImplementation(() => {});
}

const activeKids = async () =>
  (await env.DB.prepare("SELECT kid FROM signing_keys WHERE retired_at IS NULL ORDER BY kid").all<{ kid: string }>()).results;

async function registeredClientNames(): Promise<(string | undefined)[]> {
  const { items } = await oauthHelpers(env, BASE).listClients({ limit: 1000 });
  return items.map((client) => client.clientName);
}

describe("a change and its audit row are written together or not at all", () => {
  it("signing-key rotation: a rotation whose audit row fails leaves the keys as they were", async () => {
    await adminJson("POST", "/signing-keys/rotate", undefined, 201);
    const before = await activeKids();
    await refuseAuditOf("signing_key.");
    await expectEnvelope(await admin("POST", "/signing-keys/rotate"), 500, "internal_error");
    expect(await activeKids()).toEqual(before);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM signing_keys WHERE retired_at IS NULL").first("n")).toBe(1);
  });

  it("connector-client create: a client whose audit row fails is not left registered in KV", async () => {
    await refuseAuditOf("connector_client.");
    const name = `Unaudited ${crypto.randomUUID()}`;
    await expectEnvelope(
      await admin("POST", "/connector-clients", { name, redirectUris: ["https://unaudited.example/cb"] }),
      500,
      "internal_error",
    );
    expect(await registeredClientNames()).not.toContain(name);
  });

  it("connector-client redirect-URI add: a URI whose audit row fails is not added to the client's registration in KV", async () => {
    const client = await adminJson(
      "POST",
      "/connector-clients",
      { name: "Audited app", redirectUris: ["https://one.audited.example/cb"] },
      201,
    );
    await refuseAuditOf("connector_client.");
    const add = await admin("POST", `/connector-clients/${client.clientId}/redirect-uris`, {
      redirectUri: "https://two.audited.example/cb",
    });
    await expectEnvelope(add, 500, "internal_error");
    expect((await oauthHelpers(env, BASE).lookupClient(client.clientId))?.redirectUris).toEqual(["https://one.audited.example/cb"]);
    await env.DB.prepare("DROP TRIGGER refuse_audit").run();
    const shown = await adminJson("GET", `/connector-clients/${client.clientId}`);
    expect(shown).toMatchObject({
      redirectUris: ["https://one.audited.example/cb"],
      allowedRedirectUris: ["https://one.audited.example/cb"],
    });
  });
});
