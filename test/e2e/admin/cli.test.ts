import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalSafe } from "../../../scripts/lib/admin-client.mjs";
import { serverCardProblems, serverJsonProblems } from "../../../scripts/lib/registry.mjs";
import { ROOT } from "../../../scripts/lib/servers.mjs";
import { devServer, realmTokenResponse } from "../support/dev-server";
import { runNode, type Run } from "../support/processes";

/** `npm run admin -- …` against `npm run dev`, as an operator runs it. */

const server = devServer();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "admin-cli-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return runNode(join(ROOT, "scripts", "admin.mjs"), args, {
    env: { ...process.env, ADMIN_URL: server.origin, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
    input: options.input ?? "",
  });
}

async function json(args: string[], input?: string): Promise<any> {
  const run = await cli(["--json", ...args], { input });
  if (run.code !== 0) throw new Error(`admin ${args.join(" ")}: exit ${run.code}\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function expectFailure(args: string[], message: RegExp) {
  const run = await cli(args);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(message);
}

const file = (name: string, text?: string) => {
  const path = join(dir, name);
  if (text !== undefined) writeFileSync(path, text);
  return path;
};

const digest = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

const tokenWith = (clientId: string, clientSecret: string) => realmTokenResponse(server.origin, clientId, clientSecret);

describe("npm run admin", () => {
  it("has --help on every command", async () => {
    const group = (command: string, ...subcommands: string[]) => subcommands.map((sub) => [command, ...sub.split(" ")]);
    const commands = [
      [],
      ["organization"],
      ...group("organization", "list", "show", "create", "rename", "delete", "scope add", "scope remove"),
      ...group("identity-client", "list", "show", "create", "move", "rotate-secret", "delete"),
      ...group("api-key", "list", "show", "create", "update", "revoke"),
      ...group("user", "list", "show", "create", "disable", "enable", "reset-password"),
      ...group("people", "list", "invite", "grant", "revoke", "disable"),
      ...group("connector-client", "list", "show", "create", "redirect-uri add", "redirect-uri remove", "delete"),
      ...group("content", "import", "export", "template", "remove", "translate", "untranslate", "untranslated"),
      ...group("lexicon", "list", "add", "remove"),
      ...group("search", "plan", "reindex"),
      ...group("insights", "unanswered"),
      ["audit"],
      ["signing-key", "rotate"],
      ["openapi"],
      ["registry"],
    ];
    const runs = await Promise.all(commands.map((command) => cli([...command, "--help"])));
    runs.forEach((run, i) => {
      expect(run.code, commands[i]!.join(" ")).toBe(0);
      expect(run.stdout).toMatch(/^Usage: npm run admin -- /);
    });
    expect(runs[0]!.stdout).toContain("ADMIN_URL");
  });

  it("manages organizations in readable tables, and fails with the server's message and exit 1", async () => {
    const created = await cli(["organization", "create", "org-cli", "--name", "CLI Desk", "--scope", "DMO-LIS", "AIR-LIS"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/scope\s+AIR-LIS, DMO-LIS/);
    const list = await cli(["org", "list"]);
    expect(list.stdout.split("\n")[0]).toMatch(/^ID\s+NAME\s+SCOPE\s+USERS\s+CLIENTS\s+KEY QUOTA\/H$/);
    expect(list.stdout).toMatch(/org-cli\s+CLI Desk\s+AIR-LIS, DMO-LIS\s+0\s+0\s+10000/);
    expect((await json(["org", "rename", "org-cli", "CLI Desk 2"])).name).toBe("CLI Desk 2");
    expect((await json(["org", "scope", "remove", "org-cli", "AIR-LIS"])).scope).toEqual(["DMO-LIS"]);
    expect((await json(["org", "scope", "add", "org-cli", "HO-CAS"])).scope).toEqual(["DMO-LIS", "HO-CAS"]);
    expect((await json(["org", "scope", "add", "org-cli", "AIR-LIS", "HO-AUR"])).scope).toEqual(["AIR-LIS", "DMO-LIS", "HO-AUR", "HO-CAS"]);
    expect((await json(["org", "scope", "remove", "org-cli", "AIR-LIS", "HO-AUR"])).scope).toEqual(["DMO-LIS", "HO-CAS"]);
    expect((await json(["org", "show", "org-cli"])).name).toBe("CLI Desk 2");
    expect((await json(["org", "key-quota", "org-cli", "2500"])).apiKeyQuota).toBe(2500);
    await expectFailure(["org", "key-quota", "org-cli", "lots"], /must be a whole number, 0 or more/);
    await expectFailure(["org", "create", "org-cli", "--name", "Again"], /Organization org-cli already exists\. \(HTTP 409 conflict\)/);
    await expectFailure(["org", "scope", "add", "org-cli", "HO-NOPE"], /No entity HO-NOPE/);
    await expectFailure(["org", "create", "Bad Id", "--name", "x"], /id: must be 1-63 lower-case letters/);
    expect((await cli(["org", "delete", "org-cli"])).stdout).toContain("Deleted organization org-cli.");
    await expectFailure(["org", "show", "org-cli"], /No such organization/);
  });

  it("creates identity clients whose secret is shown once, rotates it, moves and deletes them", async () => {
    const created = await cli(["identity-client", "create", "--org", "org-boreal", "--id", "cli-bot"]);
    expect(created.stderr).toContain("Store the client secret now");
    const secret = /clientSecret\s+(\S+)/.exec(created.stdout)![1]!;
    expect((await tokenWith("cli-bot", secret)).status).toBe(200);
    expect((await cli(["identity-client", "list"])).stdout).not.toContain(secret);
    const rotated = await json(["identity-client", "rotate-secret", "cli-bot"]);
    expect((await tokenWith("cli-bot", secret)).status).toBe(401);
    expect((await tokenWith("cli-bot", rotated.clientSecret)).status).toBe(200);
    expect((await json(["identity-client", "move", "cli-bot", "--org", "none"])).organizationId).toBeNull();
    expect((await json(["identity-client", "show", "cli-bot"])).organizationId).toBeNull();
    expect((await cli(["identity-client", "delete", "cli-bot"])).code).toBe(0);
    await expectFailure(["identity-client", "create", "--org", "org-nope"], /No organization org-nope/);
    await expectFailure(
      ["identity-client", "create", "--org", "org-boreal", "--issuer", "https://idp.example.com", "--id", "kc-bot"],
      /not a trusted issuer/,
    );
  });

  it("issues API keys that work at once and revokes them", async () => {
    const key = await json(["api-key", "create", "--partner", "CLI Partner", "--limit", "7", "--expires", "2099-01-01T00:00:00Z"]);
    const roster = () => fetch(`${server.origin}/api/v3/content/HO-AUR/properties`, { headers: { "X-API-Key": key.key } });
    const ok = await roster();
    expect(ok.status).toBe(200);
    expect(ok.headers.get("X-RateLimit-Limit")).toBe("7");
    const listed = await cli(["api-key", "list"]);
    expect(listed.stdout).toMatch(new RegExp(`${key.id}\\s+CLI Partner\\s+7\\s+2099-01-01T00:00:00.000Z`));
    expect(listed.stdout).not.toContain(key.key);
    expect((await json(["api-key", "show", key.id])).partner).toBe("CLI Partner");
    expect(await json(["api-key", "update", key.id, "--limit", "70", "--expires", "never"])).toMatchObject({
      hourlyLimit: 70,
      expiresAt: null,
    });
    await expectFailure(["api-key", "update", key.id], /give --limit, --expires or both/);
    expect((await json(["api-key", "revoke", key.id])).revokedAt).toEqual(expect.any(String));
    expect((await roster()).status).toBe(401);
    await expectFailure(["api-key", "revoke", key.id], /already revoked/);
    await expectFailure(["api-key", "create", "--partner", "x", "--limit", "zero"], /must be a positive integer/);
  });

  it("creates users (password from stdin or generated once), disables, enables and resets them", async () => {
    const made = await json(["user", "create", "lia@aurora.example", "--org", "org-aurora", "--password-stdin"], "lia-password-1\n");
    expect(made.password).toBeUndefined();
    const generated = await cli(["user", "create", "rui@aurora.example", "--org", "org-aurora"]);
    expect(generated.stdout).toMatch(/password\s+\S{24}/);
    expect(generated.stderr).toContain("Store the password now");
    expect((await cli(["user", "list", "--org", "org-aurora"])).stdout).toMatch(/lia@aurora\.example\s+org-aurora\s+no/);
    expect((await json(["user", "disable", made.user.id])).disabled).toBe(true);
    await expectFailure(["user", "disable", made.user.id], /already disabled/);
    expect((await json(["user", "enable", made.user.id])).disabled).toBe(false);
    const reset = await json(["user", "reset-password", made.user.id]);
    expect(reset.password).toEqual(expect.any(String));
    expect((await json(["user", "show", made.user.id])).email).toBe("lia@aurora.example");
    await expectFailure(["user", "create", "LIA@aurora.example", "--org", "org-aurora"], /already exists/);
  });

  it("registers connector clients and manages their redirect URIs", async () => {
    const client = await json(["connector-client", "create", "--name", "Partner App", "--redirect-uri", "https://app.partner.example/cb"]);
    expect(client.public).toBe(true);
    const added = await json(["connector-client", "redirect-uri", "add", client.clientId, "http://127.0.0.1:4545/cb"]);
    expect(added.allowedRedirectUris).toEqual(["http://127.0.0.1:4545/cb", "https://app.partner.example/cb"]);
    const removed = await json(["connector-client", "redirect-uri", "remove", client.clientId, "http://127.0.0.1:4545/cb"]);
    expect(removed.allowedRedirectUris).toEqual(["https://app.partner.example/cb"]);
    expect((await cli(["connector-client", "list"])).stdout).toMatch(
      /demo-connector\s+Demo connector\s+yes\s+http:\/\/localhost:8976\/callback/,
    );
    expect((await json(["connector-client", "show", client.clientId])).name).toBe("Partner App");
    await expectFailure(["connector-client", "create", "--name", "x", "--redirect-uri", "http://evil.example/cb"], /must use https/);
    expect((await cli(["connector-client", "delete", client.clientId])).code).toBe(0);
    await expectFailure(["connector-client", "show", client.clientId], /No such connector client/);
    // Client IDs are base64url: one that begins with "-" is still an ID, not an option.
    await expectFailure(["connector-client", "show", "-52n3t2pnwzOrqWW"], /No such connector client/);
    await expectFailure(
      ["connector-client", "redirect-uri", "remove", "-52n3t2pnwzOrqWW", "http://127.0.0.1:4545/cb"],
      /is not allowed for -52n3t2pnwzOrqWW/,
    );
  });

  it("prints the names clients chose without control or invisible characters: no escape sequence, link or bidi override reaches the terminal", async () => {
    // Open registration takes a bidi override and zero-width characters.
    const registered = await fetch(`${server.origin}/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        client_name: "Safe\u202egnp.exe\u200b\u2066App",
        redirect_uris: ["https://claude.ai/api/mcp/auth_callback"],
        token_endpoint_auth_method: "none",
      }),
    });
    expect(registered.status).toBe(201);
    const anonymous = ((await registered.json()) as { client_id: string }).client_id;
    // Escape sequences (an OSC 8 link, clearing the screen, an 8-bit CSI) and a line break, as a client stored
    // before registration refused control characters would hold them.
    const escapes = "Evil\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007\u001b[2J\u009b31m\u007fApp\r\nFAKE ROW";
    const created = await json(["connector-client", "create", "--name", escapes, "--redirect-uri", "https://evil.example/cb"]);

    const runs = await Promise.all([
      cli(["connector-client", "list"]),
      cli(["connector-client", "show", anonymous]),
      cli(["connector-client", "show", created.clientId]),
      cli(["--json", "connector-client", "list"]),
      cli(["--json", "connector-client", "show", created.clientId]),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(0);
      // Controls (line breaks aside, which lay out the output), DEL, C1, separators and invisible formatting characters.
      expect(run.stdout.replaceAll("\n", "")).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
      // Nor escaped in JSON, for `jq -r` to turn back into the characters.
      expect(run.stdout).not.toMatch(/\\u00(1b|07|9b)/);
    }
    expect(runs[0].stdout).toContain("Safegnp.exeApp");
    expect(runs[0].stdout).toContain("Evil]8;;https://evil.exampleclick]8;;[2J31mAppFAKE ROW");
    expect(runs[0].stdout.split("\n").some((line) => line.startsWith("FAKE ROW"))).toBe(false);
    expect(JSON.parse(runs[4].stdout).name).toBe("Evil]8;;https://evil.exampleclick]8;;[2J31mAppFAKE ROW");
  });

  it("exports content and imports it back byte for byte, in both formats, changing nothing", async () => {
    for (const format of ["ndjson", "json"]) {
      const first = file(`backup.${format}`);
      expect((await cli(["content", "export", first])).code).toBe(0);
      const imported = await json(["content", "import", first]);
      expect(imported.summary.entities).toMatchObject({ added: 0, changed: 0, removed: 0 });
      expect(imported.summary.faqs).toEqual({ added: 0, changed: 0, removed: 0 });
      const second = file(`again.${format}`);
      await cli(["content", "export", second]);
      expect(digest(second)).toBe(digest(first));
    }
    const lines = readFileSync(file("backup.ndjson"), "utf8").trimEnd().split("\n");
    expect(lines.length).toBe(1 + 120 + 1 + 1200 + 1 + 2 + 1 + 5); // HO-AUR, HO-BOR, DMO-LIS and two airports, HO-KES
    expect((await cli(["content", "export", "-"])).stdout).toBe(readFileSync(file("backup.ndjson"), "utf8"));
  });

  it("imports a whole brand, previews with --dry-run, and re-importing changes nothing", async () => {
    const backup = readFileSync(file("backup.ndjson"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const brand = backup
      .filter((r) => r.id === "HO-BOR" || r.brandId === "HO-BOR")
      .map(({ updatedAt: _, ...r }) => ({ ...r, id: r.id.replace("HO-BOR", "HO-CLI"), ...(r.brandId ? { brandId: "HO-CLI" } : {}) }));
    const path = file("ho-cli.ndjson", brand.map((r) => JSON.stringify(r)).join("\n") + "\n");

    const dry = await cli(["content", "import", path, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/nothing was applied/);
    expect(dry.stdout).toMatch(/Entities: 1201 added, 0 changed, 0 removed, 0 unchanged/);
    expect((await fetch(`${server.origin}/api/v3/content/HO-CLI/properties`, { headers: { "X-API-Key": "demo-key" } })).status).toBe(404);

    const done = await cli(["content", "import", path]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/Entities: 1201 added/);
    const roster = await fetch(`${server.origin}/api/v3/content/HO-CLI/properties`, { headers: { "X-API-Key": "demo-key" } });
    expect(((await roster.json()) as { count: number }).count).toBe(1200);
    const version = /Content version: (\d+)/.exec(done.stdout)![1];

    const again = await cli(["content", "import", path]);
    expect(again.stdout).toMatch(/Entities: 0 added, 0 changed, 0 removed, 1201 unchanged/);
    expect(again.stdout).toContain(`Content version: ${version}`);

    expect((await cli(["content", "remove", "HO-CLI"])).stdout).toContain("Removed HO-CLI.");
  });

  it("translates one FAQ, removes the translation, and says what a brand has not translated yet", async () => {
    const translated = await json([
      "content",
      "translate",
      "HO-AUR-0031",
      "1",
      "nl",
      "--question",
      "Is er parkeren?",
      "--answer",
      "Ja, € 18 per nacht.",
    ]);
    expect(translated.faqs[0].translations).toContainEqual({ language: "nl", question: "Is er parkeren?", answer: "Ja, € 18 per nacht." });
    const untranslated = await cli(["content", "untranslated", "HO-AUR"]);
    expect(untranslated.code).toBe(0);
    expect(untranslated.stdout).toMatch(/^nl: \d+ of \d+ FAQs not translated$/m);
    expect((await cli(["content", "untranslate", "HO-AUR-0031", "1", "nl"])).stdout).toBe(
      "Removed the nl translation of FAQ 1 of HO-AUR-0031.\n",
    );
    await expectFailure(["content", "untranslate", "HO-AUR-0031", "1", "nl"], /has no translation into nl\. \(HTTP 404 not_found\)/);
    await expectFailure(["content", "untranslated", "HO-AUR-0031"], /HTTP 404/);
  });

  it("reports every bad row of a file by line and field, applies nothing, and exits 1", async () => {
    const path = file(
      "bad.ndjson",
      [
        JSON.stringify({ id: "HO-BADCLI", kind: "brand", name: "Bad" }),
        "{not json",
        JSON.stringify({ id: "HO-BADCLI-1", kind: "property", name: "", brandId: "HO-BADCLI" }),
        JSON.stringify({ id: "HO-BADCLI-2", kind: "property", name: "Hotel", brandId: "HO-NOPE" }),
      ].join("\n"),
    );
    const run = await cli(["content", "import", path]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("3 problems; nothing was applied");
    expect(run.stderr).toMatch(/line 2: \(json\): is not JSON/);
    expect(run.stderr).toMatch(/line 3: name: /);
    expect(run.stderr).toMatch(/line 4: brandId: no brand HO-NOPE/);
    expect((await fetch(`${server.origin}/api/v3/content/HO-BADCLI/properties`, { headers: { "X-API-Key": "demo-key" } })).status).toBe(
      404,
    );
    const json = file(
      "bad.json",
      JSON.stringify([
        { id: "HO-J", kind: "brand", name: "J" },
        { id: "HO-J-1", kind: "property", brandId: "HO-J" },
      ]),
    );
    const jsonRun = await cli(["content", "import", json]);
    expect(jsonRun.stderr).toMatch(/record 2: name: /);
    await expectFailure(["content", "import", file("missing.ndjson")], /cannot read .*missing\.ndjson: ENOENT/);
  });

  it("extends the lexicon, shows what a question searches for, analyses content again, and lists unanswered questions", async () => {
    const token = ((await (await tokenWith("aurora-assistant", "aurora-secret")).json()) as { access_token: string }).access_token;
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const rpc = (body: unknown, session?: string) =>
      fetch(`${server.origin}/v1/sse`, {
        method: "POST",
        headers: { ...headers, ...(session ? { "mcp-session-id": session, "MCP-Protocol-Version": "2025-03-26" } : {}) },
        body: JSON.stringify(body),
      });
    const opened = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "cli-test", version: "1" } },
    });
    const session = opened.headers.get("mcp-session-id")!;
    const ask = async (query: string) => {
      const res = await rpc(
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "service_search_documents", arguments: { query, entityId: "HO-AUR" } },
        },
        session,
      );
      return JSON.parse(((await res.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text) as {
        results: { category: string }[];
      };
    };
    expect((await ask("rickshaw?")).results).toEqual([]);
    expect(await json(["lexicon", "add", "transport", "rickshaw"])).toMatchObject({
      concept: "transport",
      term: "rickshaw",
      language: "en",
    });
    expect((await ask("rickshaw?")).results[0]!.category).toBe("Transport");
    const listed = await cli(["lexicon", "list", "--concept", "transport", "--language", "en"]);
    expect(listed.stdout).toMatch(/transport\s+topic\s+en\s+.*rickshaw\*/);
    await expectFailure(
      ["lexicon", "add", "transport", "rickshaw"],
      /"rickshaw" is already a term of transport \(en\)\. \(HTTP 409 conflict\)/,
    );
    await expectFailure(["lexicon", "remove", "parking", "garage"], /built-in term/);
    await expectFailure(["lexicon", "add", "transport", "x", "--language", "xx"], /argument 'xx' is invalid/);
    expect((await cli(["lexicon", "remove", "transport", "rickshaw"])).stdout).toMatch(/Removed "rickshaw" \(en\) from transport\./);

    const plan = await cli(["search", "plan", "Posso levar o meu cão?"]);
    expect(plan.stdout).toMatch(/Language: +pt/);
    expect(plan.stdout).toMatch(/Concepts: +pets \(topic\)/);
    const reindex = await cli(["search", "reindex"]);
    expect(reindex.stdout).toMatch(/^Analysed again: 0 FAQs and 0 names\.$/m);
    expect(reindex.stderr).toMatch(/^Analysing \[.*\] (\d+)\/\1 entities$/m);

    const unanswered = await cli(["insights", "unanswered", "--org", "org-aurora", "--since", "1d"]);
    expect(unanswered.stdout).toMatch(/rickshaw/);
    await expectFailure(["insights", "unanswered", "--since", "last week"], /since: must be a number of days such as 7d/);
  });

  it("shows the audit log, rotates the signing key, prints the OpenAPI document, and reports a wrong token or an unreachable server", async () => {
    const audit = await cli(["audit", "--limit", "5"]);
    expect(audit.stdout.split("\n")[0]).toMatch(/^ID\s+AT\s+ACTOR\s+ACTION\s+TARGET\s+CHANGES$/);
    expect(audit.stdout).toMatch(/token:[0-9a-f]{16}\s+content\.remove\s+HO-CLI/);
    expect((await json(["signing-key", "rotate"])).kid).toEqual(expect.any(String));
    expect(JSON.parse((await cli(["openapi"])).stdout).openapi).toBe("3.1.0");
    const wrong = await cli(["org", "list"], { env: { ADMIN_TOKEN: "wrong" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("A valid operator token is required. (HTTP 401 unauthorized)");
    const away = await cli(["org", "list"], { env: { ADMIN_URL: "http://127.0.0.1:9" } });
    expect(away.code).toBe(1);
    expect(away.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
  });
});

describe("terminalSafe: what the CLI prints of the server's answers", () => {
  it("removes C0 and C1 controls, DEL, line separators and invisible formatting characters from every string, keys included", () => {
    const controls = [
      ...Array.from({ length: 0x20 }, (_, c) => c),
      ...Array.from({ length: 0x21 }, (_, c) => 0x7f + c),
      ...[0x061c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e],
      ...[0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff, 0xe0041],
    ].map((c) => String.fromCodePoint(c));
    const dirty = `a${controls.join("b")}z`;
    expect(terminalSafe(dirty)).toBe(`a${"b".repeat(controls.length - 1)}z`);
    expect(terminalSafe({ [`k\u001b[2J`]: [dirty, { name: "Caf\u00e9 \u4e2d\u6587 \ud83c\udfe8", n: 3, on: true, none: null }] })).toEqual({
      "k[2J": [`a${"b".repeat(controls.length - 1)}z`, { name: "Caf\u00e9 \u4e2d\u6587 \ud83c\udfe8", n: 3, on: true, none: null }],
    });
  });

  it("registry prints the deployment's server.json, valid against the registry's schema, made from its valid server card", async () => {
    const card = await (await fetch(`${server.origin}/.well-known/mcp/server-card.json`)).json();
    expect(serverCardProblems(card)).toEqual([]);
    const run = await cli(["registry"]);
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(serverJsonProblems(document)).toEqual([]);
    expect(document).toEqual({
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
      name: "localhost/hospitality-content",
      title: "Hospitality Content",
      description: card.description,
      version: "1.0.0",
      remotes: [
        { type: "streamable-http", url: `${server.origin}/v1/sse` },
        { type: "sse", url: `${server.origin}/v1/sse` },
      ],
    });
    // The registry takes HTTPS remotes only: printed from the local server, it says so.
    expect(run.stderr).toMatch(/only HTTPS remotes/);
    // A document the schema refuses is named as such.
    expect(serverJsonProblems({ ...document, name: "no-slash" })).not.toEqual([]);
  });
});
