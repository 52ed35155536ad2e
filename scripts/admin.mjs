#!/usr/bin/env node
// `npm run admin -- <command>`: the operator CLI over /admin/v1. ADMIN_URL and ADMIN_TOKEN come from the
// environment (default: the local dev server and its token). Every command has --help; --json prints the
// server's answer for scripts. A failure prints the server's message and exits 1.
import cliProgress from "cli-progress";
import { Command, InvalidArgumentError, Option } from "commander";
import { readFile, writeFile } from "node:fs/promises";
import { ADMIN_URL, api, CliError, fields, output, plural, readStdin, table, warnShownOnce } from "./lib/admin-client.mjs";
import { chunkRows, detectFormat, parseContent, serializeContent } from "./lib/content-files.mjs";
import { devOrigin } from "./lib/dev-origin.mjs";
import { registryServerJson, serverJsonProblems } from "./lib/registry.mjs";
import { importSource } from "./lib/source-modules.mjs";

const program = new Command()
  .name("npm run admin --")
  .description(`Operator CLI of the Hospitality Content service (ADMIN_URL=${ADMIN_URL}).`)
  .option("--json", "print the server's JSON answer instead of tables")
  .showHelpAfterError()
  .addHelpText(
    "after",
    `\nEnvironment: ADMIN_URL (default ${devOrigin()}, npm run dev; on another port, the origin it printed), ADMIN_TOKEN (default the dev server's token).`,
  );

/** An action that reports failures the way every command does. */
const run =
  (action) =>
  async (...args) => {
    const command = args[args.length - 1];
    try {
      await action(command.optsWithGlobals(), ...args.slice(0, -2));
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      console.error(`error: ${error.message}`);
      for (const d of error.details) console.error(`  ${d.line === undefined ? "" : `line ${d.line}: `}${d.field}: ${d.message}`);
      process.exitCode = 1;
    }
  };

const positiveInt = (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
};
// "none" leaves a client without an organization (parsed in the action: commander treats null as missing).
const orgOrNone = (value) => (value === "none" ? null : value);
const enc = encodeURIComponent;

/**
 * The list and show commands of a resource at `path`: all of them as a table of `columns` (the answer's
 * `key`), one of them as fields; `query` adds the options' query string to both (a filter, an issuer).
 */
function listAndShow(parent, path, key, columns, { list, show, argument = "<id>", query = () => "" }) {
  const suffix = (o) => (query(o) ? `?${query(o)}` : "");
  const listed = parent
    .command("list")
    .description(list)
    .action(run(async (o) => output(o, await api("GET", `${path}${suffix(o)}`), (d) => table(d[key], columns))));
  const shown = parent
    .command("show")
    .argument(argument)
    .description(show)
    .action(run(async (o, id) => output(o, await api("GET", `${path}/${enc(id)}${suffix(o)}`), fields)));
  return { listed, shown };
}

// --- organizations ---------------------------------------------------------------------------
const organizationColumns = [
  ["ID", (o) => o.id],
  ["NAME", (o) => o.name],
  ["SCOPE", (o) => o.scope],
  ["USERS", (o) => o.users],
  ["CLIENTS", (o) => o.identityClients],
  ["KEY QUOTA/H", (o) => o.apiKeyQuota],
];
const org = program.command("organization").alias("org").description("organizations and the entities they see");
listAndShow(org, "/organizations", "organizations", organizationColumns, { list: "list organizations", show: "show one organization" });
org
  .command("create")
  .argument("<id>", "lower-case letters, digits and '-', e.g. org-aurora")
  .requiredOption("--name <name>", "display name")
  .option("--scope <entityIds...>", "entities it sees (a brand brings its properties)")
  .description("create an organization")
  .action(run(async (o, id) => output(o, await api("POST", "/organizations", { id, name: o.name, scope: o.scope ?? [] }), fields)));
org
  .command("rename")
  .argument("<id>")
  .argument("<name>")
  .description("rename an organization")
  .action(run(async (o, id, name) => output(o, await api("PATCH", `/organizations/${enc(id)}`, { name }), fields)));
org
  .command("key-quota")
  .argument("<id>")
  .argument("<requestsPerHour>", "the most its partner keys may add up to an hour (0 or more)", (value) => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError("must be a whole number, 0 or more");
    return n;
  })
  .description("set the most an organization's partner keys may add up to an hour; its administrators cannot pass it")
  .action(run(async (o, id, quota) => output(o, await api("PATCH", `/organizations/${enc(id)}`, { apiKeyQuota: quota }), fields)));
org
  .command("delete")
  .argument("<id>")
  .description("delete an organization without users or identity clients")
  .action(
    run(async (o, id) => {
      await api("DELETE", `/organizations/${enc(id)}`);
      output(o, { deleted: id }, () => `Deleted organization ${id}.`);
    }),
  );
const scope = org.command("scope").description("an organization's scope");
scope
  .command("add")
  .argument("<id>")
  .argument("<entityIds...>")
  .description("add entities to the scope, all or none (a brand brings its properties)")
  .action(run(async (o, id, entityIds) => output(o, await api("POST", `/organizations/${enc(id)}/scope`, { entityIds }), fields)));
scope
  .command("remove")
  .argument("<id>")
  .argument("<entityIds...>")
  .description("remove entities from the scope, all or none")
  .action(run(async (o, id, entityIds) => output(o, await api("POST", `/organizations/${enc(id)}/scope/remove`, { entityIds }), fields)));

// --- identity clients (realm client_credentials, or clients of the external OIDC_ISSUER) -----
const identityColumns = [
  ["ISSUER", (c) => c.issuer],
  ["CLIENT ID", (c) => c.clientId],
  ["ORGANIZATION", (c) => c.organizationId],
  ["CREATED", (c) => c.createdAt],
];
const ISSUER_HELP = "'realm' (default) or the external issuer's exact iss (OIDC_ISSUER)";
const issuerQuery = (o) => (o.issuer && o.issuer !== "realm" ? `issuer=${enc(o.issuer)}` : "");
const clientPath = (id, o) => `/identity-clients/${enc(id)}${issuerQuery(o) ? `?${issuerQuery(o)}` : ""}`;
const identity = program
  .command("identity-client")
  .description("clients whose tokens map to an organization: the built-in realm's, or the external issuer's");
listAndShow(identity, "/identity-clients", "identityClients", identityColumns, {
  list: "list identity clients (no secrets)",
  show: "show one identity client",
  argument: "<clientId>",
  query: issuerQuery,
}).shown.option("--issuer <issuer>", ISSUER_HELP);
identity
  .command("create")
  .requiredOption("--org <organizationId>", "its organization, or 'none'")
  .option("--id <clientId>", "the client ID (random for a realm client when omitted)")
  .option("--issuer <issuer>", ISSUER_HELP)
  .description("create an identity client; a realm client's secret is shown once")
  .action(
    run(async (o) => {
      const created = await api("POST", "/identity-clients", {
        ...(o.issuer ? { issuer: o.issuer } : {}),
        ...(o.id ? { clientId: o.id } : {}),
        organizationId: orgOrNone(o.org),
      });
      output(o, created, fields);
      if (created.clientSecret) warnShownOnce("client secret");
    }),
  );
identity
  .command("move")
  .argument("<clientId>")
  .option("--issuer <issuer>", ISSUER_HELP)
  .requiredOption("--org <organizationId>", "the new organization, or 'none'")
  .description("move a client to another organization")
  .action(run(async (o, id) => output(o, await api("PATCH", clientPath(id, o), { organizationId: orgOrNone(o.org) }), fields)));
identity
  .command("rotate-secret")
  .argument("<clientId>")
  .description("issue a new secret for a realm client; the old one stops working at once")
  .action(
    run(async (o, id) => {
      output(o, await api("POST", `/identity-clients/${enc(id)}/secret`), fields);
      warnShownOnce("client secret");
    }),
  );
identity
  .command("delete")
  .argument("<clientId>")
  .option("--issuer <issuer>", ISSUER_HELP)
  .description("delete an identity client")
  .action(
    run(async (o, id) => {
      await api("DELETE", clientPath(id, o));
      output(o, { deleted: id }, () => `Deleted identity client ${id}.`);
    }),
  );

// --- API keys ----------------------------------------------------------------------------------
const keyColumns = [
  ["ID", (k) => k.id],
  ["PARTNER", (k) => k.partner],
  ["LIMIT/H", (k) => k.hourlyLimit],
  ["EXPIRES", (k) => k.expiresAt],
  ["REVOKED", (k) => k.revokedAt],
  ["ORGANIZATION", (k) => k.organizationId],
  ["CREATED", (k) => k.createdAt],
];
const apiKey = program.command("api-key").description("content API keys of partners");
listAndShow(apiKey, "/api-keys", "apiKeys", keyColumns, { list: "list keys (never the keys themselves)", show: "show one key's record" });
apiKey
  .command("create")
  .requiredOption("--partner <name>", "who the key is for")
  .option("--limit <requestsPerHour>", "hourly limit (default 1000)", positiveInt)
  .option("--expires <isoTime>", "when the key stops working, e.g. 2027-01-01T00:00:00Z")
  .option("--organization <id>", "issue it for an organization, whose administrators then manage it in the console")
  .description("issue a key; it is shown once")
  .action(
    run(async (o) => {
      const body = {
        partner: o.partner,
        ...(o.limit ? { hourlyLimit: o.limit } : {}),
        ...(o.expires ? { expiresAt: o.expires } : {}),
        ...(o.organization ? { organizationId: o.organization } : {}),
      };
      output(o, await api("POST", "/api-keys", body), fields);
      warnShownOnce("API key");
    }),
  );
apiKey
  .command("update")
  .argument("<id>")
  .option("--limit <requestsPerHour>", "new hourly limit", positiveInt)
  .option("--expires <isoTime|never>", "when the key stops working, or never")
  .description("change a key's hourly limit or expiry")
  .action(
    run(async (o, id) => {
      if (o.limit === undefined && o.expires === undefined) throw new CliError("give --limit, --expires or both");
      const body = {
        ...(o.limit ? { hourlyLimit: o.limit } : {}),
        ...(o.expires ? { expiresAt: o.expires === "never" ? null : o.expires } : {}),
      };
      output(o, await api("PATCH", `/api-keys/${enc(id)}`, body), fields);
    }),
  );
apiKey
  .command("revoke")
  .argument("<id>")
  .description("revoke a key")
  .action(run(async (o, id) => output(o, await api("POST", `/api-keys/${enc(id)}/revoke`), fields)));

// --- connector users -----------------------------------------------------------------------------
const userColumns = [
  ["ID", (u) => u.id],
  ["EMAIL", (u) => u.email],
  ["ORGANIZATION", (u) => u.organizationId],
  ["DISABLED", (u) => (u.disabled ? "yes" : "no")],
  ["CREATED", (u) => u.createdAt],
];
const withPassword = (o, data) => {
  output(o, data, (d) => fields({ ...d.user, ...(d.password ? { password: d.password } : {}) }));
  if (data.password) warnShownOnce("password");
};
const user = program.command("user").description("people who sign in to connect assistants");
listAndShow(user, "/users", "users", userColumns, {
  list: "list users",
  show: "show one user",
  query: (o) => (o.org ? `organizationId=${enc(o.org)}` : ""),
}).listed.option("--org <organizationId>", "only this organization's");
user
  .command("create")
  .argument("<email>")
  .requiredOption("--org <organizationId>", "the user's organization")
  .option("--password-stdin", "read the password from standard input (a random one is chosen and shown once otherwise)")
  .description("create a user")
  .action(
    run(async (o, email) =>
      withPassword(
        o,
        await api("POST", "/users", { email, organizationId: o.org, ...(o.passwordStdin ? { password: await readStdin() } : {}) }),
      ),
    ),
  );
user
  .command("disable")
  .argument("<id>")
  .description("disable a user: their tokens stop within 5 s, their sessions end")
  .action(run(async (o, id) => output(o, await api("POST", `/users/${enc(id)}/disable`), fields)));
user
  .command("enable")
  .argument("<id>")
  .description("enable a user again")
  .action(run(async (o, id) => output(o, await api("POST", `/users/${enc(id)}/enable`), fields)));
user
  .command("reset-password")
  .argument("<id>")
  .option("--password-stdin", "read the new password from standard input (a random one is chosen and shown once otherwise)")
  .description("set a new password; the user's earlier authorizations are revoked")
  .action(
    run(async (o, id) =>
      withPassword(o, await api("POST", `/users/${enc(id)}/password`, o.passwordStdin ? { password: await readStdin() } : {})),
    ),
  );

// --- console people -------------------------------------------------------------------------------
const grantText = (g) => (g.entityId ? `${g.role} ${g.entityId}` : g.role);
const personColumns = [
  ["ID", (p) => p.id],
  ["EMAIL", (p) => p.email],
  ["NAME", (p) => p.displayName],
  ["ORGANIZATION", (p) => p.organizationId],
  ["ROLES", (p) => p.grants.map(grantText).join(", ") || "-"],
  ["DISABLED", (p) => (p.disabled ? "yes" : "no")],
  ["CHOOSES PASSWORD", (p) => (p.mustChoosePassword ? "at next sign-in" : "-")],
];
const showPerson = (o, data) => output(o, data, (d) => fields({ ...d, grants: d.grants.map(grantText).join(", ") || "-" }));
const people = program.command("people").description("people who sign in to the content console (/console), and their roles");
people
  .command("list")
  .option("--org <organizationId>", "only this organization's")
  .description("list people with their roles")
  .action(
    run(async (o) =>
      output(o, await api("GET", `/people${o.org ? `?organizationId=${enc(o.org)}` : ""}`), (d) => table(d.people, personColumns)),
    ),
  );
people
  .command("invite")
  .argument("<email>")
  .requiredOption("--org <organizationId>", "the person's organization")
  .requiredOption("--name <name>", "the name the console shows")
  .option("--password-stdin", "read the first password from standard input (a random one is chosen and shown once otherwise)")
  .description("invite a person, with no role yet; they choose their own password when they first sign in")
  .action(
    run(async (o, email) => {
      const data = await api("POST", "/people", {
        email,
        displayName: o.name,
        organizationId: o.org,
        ...(o.passwordStdin ? { password: await readStdin() } : {}),
      });
      output(o, data, (d) => fields({ ...d.person, grants: "-", ...(d.password ? { password: d.password } : {}) }));
      if (data.password) warnShownOnce("password");
    }),
  );
for (const [name, path, description] of [
  ["grant", "grants", "give a role: viewer or editor of an entity (--entity), or administrator"],
  ["revoke", "revoke", "remove a role; nobody can remove their own administrator role"],
]) {
  people
    .command(name)
    .argument("<id>")
    .argument("<role>", "viewer, editor or administrator")
    .option("--entity <entity>", "the brand, hotel or page (for viewer and editor): its ID in any case, or its name")
    .description(description)
    .action(
      run(async (o, id, role) =>
        showPerson(o, await api("POST", `/people/${enc(id)}/${path}`, { role, ...(o.entity ? { entityId: o.entity } : {}) })),
      ),
    );
}
people
  .command("disable")
  .argument("<id>")
  .description("disable a person: they cannot sign in, and their sessions end")
  .action(run(async (o, id) => showPerson(o, await api("POST", `/people/${enc(id)}/disable`))));
people
  .command("enable")
  .argument("<id>")
  .description("let a disabled person sign in again, with their roles")
  .action(run(async (o, id) => showPerson(o, await api("POST", `/people/${enc(id)}/enable`))));
people
  .command("password")
  .argument("<id>")
  .option("--password-stdin", "read the new password from standard input (a random one is chosen and shown once otherwise)")
  .description("set a person's password; every session of theirs ends, and they choose their own when they next sign in")
  .action(
    run(async (o, id) => {
      const data = await api("POST", `/people/${enc(id)}/password`, o.passwordStdin ? { password: await readStdin() } : {});
      output(o, data, (d) => fields({ ...d.person, grants: "-", ...(d.password ? { password: d.password } : {}) }));
      if (data.password) warnShownOnce("password");
    }),
  );

// --- connector clients ----------------------------------------------------------------------------
const connectorColumns = [
  ["CLIENT ID", (c) => c.clientId],
  ["NAME", (c) => c.name],
  ["PUBLIC", (c) => (c.public === null ? "-" : c.public ? "yes" : "no")],
  ["ALLOWED REDIRECT URIS", (c) => c.allowedRedirectUris],
];
const connector = program.command("connector-client").description("OAuth clients of the assistant connector flow");
listAndShow(connector, "/connector-clients", "connectorClients", connectorColumns, {
  list: "list connector clients",
  show: "show one client",
  argument: "<clientId>",
});
connector
  .command("create")
  .requiredOption("--name <name>", "the name users see on the consent page")
  .requiredOption("--redirect-uri <uris...>", "its callback URLs (https, or http on loopback)")
  .option("--confidential", "issue a client secret (shown once) instead of a public PKCE client")
  .description("register a client; its redirect URIs are allowed for it")
  .action(
    run(async (o) => {
      const created = await api("POST", "/connector-clients", {
        name: o.name,
        redirectUris: o.redirectUri,
        confidential: Boolean(o.confidential),
      });
      output(o, created, fields);
      if (created.clientSecret) warnShownOnce("client secret");
    }),
  );
const redirect = connector.command("redirect-uri").description("redirect URIs the operator allows for one client");
redirect
  .command("add")
  .argument("<clientId>")
  .argument("<uri>")
  .description("allow a redirect URI")
  .action(
    run(async (o, id, uri) => output(o, await api("POST", `/connector-clients/${enc(id)}/redirect-uris`, { redirectUri: uri }), fields)),
  );
redirect
  .command("remove")
  .argument("<clientId>")
  .argument("<uri>")
  .description("stop allowing a redirect URI")
  .action(
    run(async (o, id, uri) =>
      output(o, await api("DELETE", `/connector-clients/${enc(id)}/redirect-uris?redirectUri=${enc(uri)}`), fields),
    ),
  );
connector
  .command("delete")
  .argument("<clientId>")
  .description("delete a client: its tokens stop within 5 s, its sessions end")
  .action(
    run(async (o, id) => {
      await api("DELETE", `/connector-clients/${enc(id)}`);
      output(o, { deleted: id }, () => `Deleted connector client ${id}.`);
    }),
  );

// The provider picks client IDs from the base64url alphabet, so one may begin with "-": read it as the ID, not an option.
for (const command of [...connector.commands, ...redirect.commands]) {
  if (command.registeredArguments.some((argument) => argument.name() === "clientId")) command.allowUnknownOption();
}

// --- content ----------------------------------------------------------------------------------------
const formatOption = () => new Option("--format <format>", "file format (default: from the file name)").choices(["ndjson", "json", "csv"]);
/** A progress bar on stderr; `always` draws it (every few seconds, and at the end) even where stderr is no terminal. */
const progressBar = (label, { unit = "", always = false } = {}) =>
  new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {value}/{total}${unit && ` ${unit}`}`,
      stream: process.stderr,
      hideCursor: true,
      noTTYOutput: always,
      notTTYSchedule: 5000,
    },
    cliProgress.Presets.shades_classic,
  );

function describePlan(plan, heading) {
  const { entities, faqs, translations } = plan.summary;
  const ids = (label, list) =>
    list.length === 0 ? [] : [`${label}: ${list.slice(0, 20).join(", ")}${list.length > 20 ? `, … (${list.length} in all)` : ""}`];
  return [
    heading,
    `Entities: ${entities.added} added, ${entities.changed} changed, ${entities.removed} removed, ${entities.unchanged} unchanged`,
    `FAQs:     ${faqs.added} added, ${faqs.changed} changed, ${faqs.removed} removed`,
    `Translations: ${translations.added} added, ${translations.changed} changed, ${translations.removed} removed`,
    ...ids("Added", plan.added),
    ...ids("Changed", plan.changed),
    ...ids("Removed", plan.removed),
  ].join("\n");
}

/** The text of a content file's bytes, decoded as the Worker decodes an upload (src/http/text-files.ts), or why not. */
async function decodedText(file, bytes) {
  const { decodeTextFile } = await importSource("src/http/text-files.ts");
  const read = decodeTextFile(new Uint8Array(bytes));
  if (!("text" in read)) throw new CliError(`${file}: line ${read.line} ${read.message}; nothing was applied`);
  return read.text;
}

const content = program.command("content").description("brands, properties, destinations, airports and their FAQs");
content
  .command("import")
  .argument("<file>", "NDJSON (one record per line), JSON (an array of records) or CSV (one FAQ a row)")
  .addOption(formatOption())
  .option("--dry-run", "show what would be added, changed and removed, and apply nothing")
  .description("import a content file: every bad row is reported and nothing is applied; otherwise all of it at once")
  .addHelpText(
    "after",
    `
A record: {"id":"HO-AUR-0001","kind":"property","name":"...","brandId":"HO-AUR","propertyId":123456,"faqs":[{"category":"...","question":"...","answer":"..."}]}
Other languages: "translations":[{"language":"pt","name":"...","faqs":[{"source":"<the question it translates>","question":"...","answer":"..."}]}]
A brand in the file brings its whole roster: its stored properties missing from the file are removed.
An entity's FAQs are replaced by the file's list. Importing the same file again changes nothing.
CSV: columns entity,position,category,question,answer,language,source; one FAQ a row, a translation row names its
language and source question. It replaces the FAQ lists of stored entities (a brand's hotels stay).`,
  )
  .action(
    run(async (o, file) => {
      const bytes = await readFile(file).catch((error) => {
        throw new CliError(`cannot read ${file}: ${error.code ?? error.message}`);
      });
      // Decoded here as the Worker decodes it; a CSV file still goes up as its bytes, and the Worker says how it read them.
      const text = await decodedText(file, bytes);
      const format = detectFormat(file, text, o.format);
      const unit = format === "json" ? "record" : "line";
      const { rows, errors: syntaxErrors } = format === "csv" ? { rows: [], errors: [] } : parseContent(text, format);
      const { id } = await api("POST", "/imports");
      try {
        if (format === "csv") {
          const { encoding } = await api("POST", `/imports/${id}/csv`, new Uint8Array(bytes), { contentType: "text/csv" });
          console.error(`Read ${file} as ${encoding}.`);
        } else {
          // Every row goes up, even beside unreadable ones, so one run reports every problem of the file.
          const bar = progressBar("Uploading");
          bar.start(rows.length, 0);
          for (const chunk of chunkRows(rows)) {
            await api("POST", `/imports/${id}/rows`, { rows: chunk });
            bar.increment(chunk.length);
          }
          bar.stop();
        }
        const plan = await api("POST", `/imports/${id}/plan`);
        const errors = [...syntaxErrors, ...plan.errors].sort((a, b) => a.line - b.line);
        if (errors.length > 0) {
          const count = syntaxErrors.length + plan.errorCount;
          throw new CliError(
            `${file}: ${count} ${count === 1 ? "problem" : "problems"}; nothing was applied`,
            errors.map((e) => ({ ...e, line: undefined, field: `${unit} ${e.line}: ${e.field}` })),
          );
        }
        if (o.dryRun) {
          output(o, plan, (p) => describePlan(p, `Dry run of ${file} (${plural(p.rows, unit)}): nothing was applied.`));
          return;
        }
        const committed = await api("POST", `/imports/${id}/commit`);
        output(
          o,
          committed,
          (p) => `${describePlan(p, `Imported ${file} (${plural(p.rows, unit)}).`)}\nContent version: ${p.contentVersion}`,
        );
      } finally {
        // A committed import is gone already; anything else is discarded.
        await api("DELETE", `/imports/${id}`).catch(() => {});
      }
    }),
  );
content
  .command("export")
  .argument("<file>", "where to write, or - for standard output")
  .addOption(formatOption())
  .description("export all content in the import format (the operator's backup; importing it changes nothing)")
  .action(
    run(async (o, file) => {
      const format = o.format ?? detectFormat(file, "", undefined);
      const records = [];
      const bar = file === "-" ? null : progressBar("Exporting");
      bar?.start(0, 0);
      for (let after = ""; ;) {
        const page = await api("GET", `/content/export?limit=500&after=${enc(after)}`);
        records.push(...page.records);
        bar?.setTotal(records.length);
        bar?.update(records.length);
        if (!page.next) break;
        after = page.next;
      }
      bar?.stop();
      const text =
        format === "csv" ? (await importSource("src/catalogue/csv.ts")).serializeCsv(records) : serializeContent(records, format);
      if (file === "-") process.stdout.write(text);
      else {
        await writeFile(file, text);
        console.error(`Exported ${plural(records.length, "record")} to ${file} (${format}).`);
      }
    }),
  );
content
  .command("template")
  .argument("<file>", "where to write, or - for standard output")
  .description("write a CSV file to start from: the columns, one example FAQ and its translation (the console's template)")
  .action(
    run(async (o, file) => {
      const text = (await importSource("src/catalogue/csv.ts")).csvTemplate();
      if (file === "-") process.stdout.write(text);
      else {
        await writeFile(file, text);
        console.error(`Wrote the CSV template to ${file}.`);
      }
    }),
  );
content
  .command("phrasings")
  .argument("<entityId>")
  .argument("<position>", "the FAQ's position, 1 for the first", positiveInt)
  .option("--add <question...>", "ways guests ask it to attach (an unanswered question as listed, or any wording)")
  .option("--remove <question...>", "ways of asking to detach (their unanswered questions are open again)")
  .description("attach ways guests ask an FAQ to it, or detach them: the search gives a guest who asks one of them this FAQ")
  .action(
    run(async (o, entityId, position) => {
      if (!o.add && !o.remove) throw new CliError("give --add, --remove or both");
      const body = { add: o.add ?? [], remove: o.remove ?? [] };
      const list = await api("POST", `/content/entities/${enc(entityId)}/faqs/${position}/phrasings`, body, {
        headers: { "If-Match": "*" },
      });
      const faq = list.faqs[position - 1];
      output(o, list, () =>
        [`${entityId} FAQ ${position}: ${faq.question}`, "Guests also ask:", ...(faq.phrasings ?? ["(none)"]).map((p) => `  ${p}`)].join(
          "\n",
        ),
      );
    }),
  );
content
  .command("remove")
  .argument("<entityId>")
  .description("remove an entity with its FAQs (a brand with its properties)")
  .action(
    run(async (o, entityId) => {
      await api("DELETE", `/content/entities/${enc(entityId)}`);
      output(o, { removed: entityId }, () => `Removed ${entityId}.`);
    }),
  );

// One FAQ's translations. The CLI reads nothing first, so it changes whatever is stored (If-Match: *).
const faqAt = (entityId, position) => `/content/entities/${enc(entityId)}/faqs/${position}`;
content
  .command("translate")
  .argument("<entityId>")
  .argument("<position>", "the FAQ's position, 1 for the first", positiveInt)
  .argument("<language>", "BCP 47 tag of the translation (pt, pt-BR, de…)")
  .requiredOption("--question <text>", "the question in that language")
  .requiredOption("--answer <text>", "the answer in that language")
  .description("add or replace an FAQ's translation into a language")
  .action(
    run(async (o, entityId, position, language) => {
      const list = await api(
        "PUT",
        `${faqAt(entityId, position)}/translations/${enc(language)}`,
        { question: o.question, answer: o.answer },
        { headers: { "If-Match": "*" } },
      );
      output(o, list, () => `Translated FAQ ${position} of ${entityId} into ${language}.`);
    }),
  );
content
  .command("untranslate")
  .argument("<entityId>")
  .argument("<position>", "the FAQ's position, 1 for the first", positiveInt)
  .argument("<language>", "BCP 47 tag of the translation to remove")
  .description("remove an FAQ's translation into a language")
  .action(
    run(async (o, entityId, position, language) => {
      const list = await api("DELETE", `${faqAt(entityId, position)}/translations/${enc(language)}`, undefined, {
        headers: { "If-Match": "*" },
      });
      output(o, list, () => `Removed the ${language} translation of FAQ ${position} of ${entityId}.`);
    }),
  );
content
  .command("untranslated")
  .argument("<brandId>")
  .description("per language, how many FAQs of a brand and its properties are not translated yet, and where")
  .action(
    run(async (o, brandId) => {
      const answer = await api("GET", `/content/brands/${enc(brandId)}/untranslated`);
      output(o, answer, () =>
        answer.languages.length === 0
          ? `${brandId}'s content is in one language only.`
          : answer.languages
              .map(
                (language) =>
                  `${language.language}: ${language.missing} of ${language.of} FAQs not translated` +
                  language.entities
                    .slice(0, 10)
                    .map((entity) => `\n  ${entity.id} ${entity.name}: ${entity.missing}`)
                    .join("") +
                  (language.entities.length > 10
                    ? `\n  … and ${plural(language.entities.length - 10, "more entity", "more entities")}`
                    : ""),
              )
              .join("\n"),
      );
    }),
  );
content
  .command("find")
  .argument("<words>", "words every FAQ found has in its question or answer, in any language")
  .option("--entity <entityId>", "only this entity's FAQs (a brand's: its hotels' too)")
  .description("find FAQs by their words (at most 50)")
  .action(
    run(async (o, words) => {
      const query = new URLSearchParams({ q: words, ...(o.entity ? { entity: o.entity } : {}) });
      output(o, await api("GET", `/content/faqs/search?${query}`), (d) =>
        [
          table(d.faqs, [
            ["ENTITY", (f) => f.entityId],
            ["FAQ", (f) => f.position],
            ["LANGUAGE", (f) => f.language],
            ["QUESTION", (f) => f.question],
            ["FOUND", (f) => `${f.field}: ${f.excerpt}`],
          ]),
          d.faqs.length < d.total ? `The first ${d.faqs.length} of ${d.total}.` : plural(d.total, "FAQ") + " found.",
        ].join("\n"),
      );
    }),
  );
content
  .command("replace")
  .argument("<scope>", "a brand (with its hotels), or one hotel, destination or airport")
  .argument("<find>", "the text to find, as written")
  .argument("<replacement>", "what it becomes")
  .option("--case-sensitive", "match capital letters exactly")
  .option("--language <codes>", "only FAQs in these languages, comma-separated (pt,es)")
  .option("--apply", "make every change listed (at most 500 at once); without it, only list them")
  .description("replace a text in FAQs' questions and answers: lists every change, and with --apply makes them")
  .action(
    run(async (o, scope, find, replacement) => {
      const request = {
        scope,
        find,
        replacement,
        caseSensitive: Boolean(o.caseSensitive),
        ...(o.language ? { languages: o.language.split(",").map((tag) => tag.trim()) } : {}),
      };
      const preview = await api("POST", "/content/replace/preview", request);
      if (!o.apply || preview.changes.length === 0) {
        output(o, preview, (p) =>
          [
            table(p.changes, [
              ["ENTITY", (c) => c.entityId],
              ["FAQ", (c) => c.position],
              ["LANGUAGE", (c) => c.language],
              ["FIELD", (c) => c.field],
              ["BEFORE", (c) => c.before],
              ["AFTER", (c) => c.after],
            ]),
            `${plural(p.changes.length, "change")}${p.more ? " (the first 500; apply them, then run again for the rest)" : ""}.`,
            ...(p.changes.length > 0 ? ["Nothing was changed: run again with --apply to make them."] : []),
          ].join("\n"),
        );
        return;
      }
      const applied = await api("POST", "/content/replace", {
        ...request,
        changes: preview.changes.map((c) => c.key),
        versions: preview.versions,
      });
      output(o, applied, (a) => `Replaced: ${plural(a.changes, "change")} in ${plural(a.entities.length, "entity", "entities")}.`);
    }),
  );

// --- search: the lexicon, plans, re-analysis, unanswered questions -------------------------------
const LANGUAGES = ["en", "pt", "es", "fr", "de", "it", "nl"];
const languageOption = () => new Option("--language <code>", "the term's language").choices(LANGUAGES).default("en");
const KINDS = ["topic", "facet", "word"];
const lexicon = program.command("lexicon").description("the hospitality lexicon: built-in terms and this deployment's");
lexicon
  .command("list")
  .option("--concept <concept>", "only this concept")
  .addOption(new Option("--language <code>", "only this language").choices(LANGUAGES))
  .addOption(new Option("--kind <kind>", "only this kind of concept").choices(KINDS))
  .description("list concepts with their terms (operator terms marked *)")
  .action(
    run(async (o) => {
      const query = new URLSearchParams({
        ...(o.concept ? { concept: o.concept } : {}),
        ...(o.language ? { language: o.language } : {}),
        ...(o.kind ? { kind: o.kind } : {}),
      });
      output(o, await api("GET", `/lexicon?${query}`), (d) =>
        table(d.concepts, [
          ["CONCEPT", (c) => c.concept],
          ["KIND", (c) => c.kind],
          ["LANGUAGE", (c) => c.language],
          ["TERMS", (c) => c.terms.map((t) => (t.source === "operator" ? `${t.term}*` : t.term)).join(", ")],
        ]),
      );
    }),
  );
lexicon
  .command("add")
  .argument("<concept>", "an existing concept (see lexicon list) or a new one, e.g. loyalty")
  .argument("<term>", 'a word or phrase, e.g. "Aurora Rewards"')
  .addOption(languageOption())
  .addOption(
    new Option(
      "--kind <kind>",
      "word for a word and its equivalents (e.g. a hotel's own name for its lounge); for a new concept: topic (default) or facet",
    ).choices(KINDS),
  )
  .description("add a term; questions use it within 10 s")
  .action(
    run(async (o, concept, term) =>
      output(o, await api("POST", "/lexicon/terms", { concept, term, language: o.language, ...(o.kind ? { kind: o.kind } : {}) }), fields),
    ),
  );
lexicon
  .command("remove")
  .argument("<concept>")
  .argument("<term>")
  .addOption(languageOption())
  .addOption(new Option("--kind <kind>", "word for a word's term").choices(["word"]))
  .description("remove a term this deployment added")
  .action(
    run(async (o, concept, term) => {
      await api(
        "DELETE",
        `/lexicon/terms?${new URLSearchParams({ concept, term, language: o.language, ...(o.kind ? { kind: o.kind } : {}) })}`,
      );
      output(o, { removed: { concept, term, language: o.language } }, () => `Removed "${term}" (${o.language}) from ${concept}.`);
    }),
  );

const search = program.command("search").description("what questions search for, and the search index");
search
  .command("plan")
  .argument("<question>")
  .addOption(new Option("--language <code>", "the question's language (detected when omitted)").choices(LANGUAGES))
  .description("show what a question searches for: its words and their alternatives, concepts, topics and the kind of answer")
  .action(
    run(async (o, question) =>
      output(o, await api("POST", "/search/plan", { question, ...(o.language ? { language: o.language } : {}) }), (p) =>
        [
          `Language:  ${p.language}${p.detected ? "" : " (assumed)"}`,
          `Concepts:  ${p.concepts.map((c) => `${c.concept} (${c.kind})`).join(", ") || "-"}`,
          `Answer:    ${p.kinds.join(", ") || "-"}`,
          `Groups:`,
          ...p.groups.map(
            (g) =>
              `  ${g.key} ×${g.weight}: ${g.alternatives.map((a) => `${a.phrase}${a.weight === 1 ? "" : ` ×${a.weight}`}`).join(", ")}`,
          ),
          `Topics:    ${p.topics.map((t) => `${t.concept} +${t.boost}`).join(", ") || "-"}`,
        ].join("\n"),
      ),
    ),
  );
search
  .command("reindex")
  .description(
    "analyse every stored FAQ and name again now (after an upgrade that changes the analysis, the scheduled upkeep does the FAQs within minutes)",
  )
  .action(
    run(async (o) => {
      const status = await api("GET", "/search/reindex");
      const bar = progressBar("Analysing", { unit: "entities", always: true });
      bar.start(status.entities, 0);
      const total = { scanned: 0, entities: 0, faqs: 0 };
      for (let after = ""; ;) {
        const page = await api("POST", "/search/reindex", { after });
        total.scanned += page.scanned;
        total.entities += page.entities;
        total.faqs += page.faqs;
        bar.update(total.scanned);
        if (!page.next) break;
        after = page.next;
      }
      // Entities added or removed while it ran: the bar ends at what was read.
      bar.setTotal(total.scanned);
      bar.stop();
      output(
        o,
        { entities: total.entities, faqs: total.faqs },
        (t) => `Analysed again: ${plural(t.faqs, "FAQ")} and ${plural(t.entities, "name")}.`,
      );
    }),
  );

const insights = program.command("insights").description("what the content does not answer");
insights
  .command("unanswered")
  .option("--org <organizationId>", "only this organization's")
  .option("--entity <entityId>", "only those asked of this entity, or of a hotel of this brand")
  .option("--language <code>", "only those asked in this language (pt takes pt-BR)")
  .option("--since <days>", "how far back: 7d, or a date such as 2026-11-01 (default 30d, the most kept)")
  .option("--limit <n>", "how many (default 100)", positiveInt)
  .addOption(
    new Option("--state <state>", "only open questions, or only handled ones (attached, answered, dismissed)").choices(["open", "handled"]),
  )
  .description("questions the content did not answer, or only weakly, most asked first, with what was done about them")
  .action(
    run(async (o) => {
      const query = new URLSearchParams({
        ...(o.org ? { organizationId: o.org } : {}),
        ...(o.entity ? { entityId: o.entity } : {}),
        ...(o.language ? { language: o.language } : {}),
        ...(o.since ? { since: o.since } : {}),
        ...(o.limit ? { limit: String(o.limit) } : {}),
        ...(o.state ? { state: o.state } : {}),
      });
      output(o, await api("GET", `/insights/unanswered?${query}`), (d) =>
        [
          `Since ${d.since}:`,
          table(d.questions, [
            ["COUNT", (q) => q.count],
            ["ORGANIZATION", (q) => q.organizationId],
            ["ENTITY", (q) => q.entityId ?? "-"],
            ["LANGUAGE", (q) => q.language ?? "-"],
            ["QUESTION", (q) => q.question],
            ["TOOLS", (q) => q.tools],
            ["LAST SEEN", (q) => q.lastSeenAt],
            [
              "HANDLED",
              (q) =>
                q.handled ? `${q.handled.outcome}${q.handled.faqQuestion ? ` (${q.handled.faqQuestion})` : ""} by ${q.handled.actor}` : "-",
            ],
          ]),
        ].join("\n"),
      );
    }),
  );
insights
  .command("dismiss")
  .argument("<entityId>", "the entity the questions were asked of")
  .argument("<question...>", "the questions as listed")
  .description("dismiss unanswered questions: they are listed as handled, no longer as open")
  .action(
    run(async (o, entityId, questions) => {
      const done = await api("POST", "/insights/unanswered/dismiss", { entityId, questions });
      output(o, done, (d) => `Dismissed ${plural(d.dismissed, "question")} of ${d.entityId}.`);
    }),
  );

// --- webhooks ------------------------------------------------------------------------------------
const webhookColumns = [
  ["ID", (w) => w.id],
  ["URL", (w) => w.url],
  ["BRANDS", (w) => w.brands],
  ["STATUS", (w) => w.status],
  ["PENDING", (w) => w.deliveries.pending],
  ["DEAD", (w) => w.deliveries.dead],
  ["DISABLED BECAUSE", (w) => w.disabledReason],
];
const lastResult = (d) => {
  const last = d.attempts[d.attempts.length - 1];
  return last ? (last.error ?? `HTTP ${last.responseStatus}`) : "-";
};
const deliveryColumns = [
  ["ID", (d) => d.id],
  ["EVENT", (d) => d.eventType],
  ["CHANGES", (d) => d.changes],
  ["STATUS", (d) => d.status],
  ["ATTEMPTS", (d) => d.attempts.length],
  ["LAST RESULT", lastResult],
  ["NEXT ATTEMPT", (d) => d.nextAttemptAt],
  ["CREATED", (d) => d.createdAt],
];
const webhook = program.command("webhook").description("partner endpoints that receive signed content-change events");
listAndShow(webhook, "/webhooks", "webhooks", webhookColumns, { list: "list endpoints (never their secrets)", show: "show one endpoint" });
webhook
  .command("create")
  .argument("<url>", "https on a public host (http://localhost only in development)")
  .requiredOption("--brand <brandIds...>", "the brands whose changes it receives (each with its properties)")
  .option("--description <text>", "what the endpoint is, for operators")
  .description("register an endpoint; its signing secret is shown once")
  .action(
    run(async (o, url) => {
      output(o, await api("POST", "/webhooks", { url, brands: o.brand, ...(o.description ? { description: o.description } : {}) }), fields);
      warnShownOnce("signing secret");
    }),
  );
webhook
  .command("deliveries")
  .argument("<id>")
  .addOption(new Option("--status <status>", "only these").choices(["pending", "delivered", "dead"]))
  .option("--limit <n>", "how many (default 50)", positiveInt)
  .description("the delivery log: each event, its attempts and their results; dead ones are not retried")
  .action(
    run(async (o, id) => {
      const query = new URLSearchParams({ ...(o.status ? { status: o.status } : {}), ...(o.limit ? { limit: String(o.limit) } : {}) });
      output(o, await api("GET", `/webhooks/${enc(id)}/deliveries?${query}`), (d) => table(d.deliveries, deliveryColumns));
    }),
  );
webhook
  .command("test")
  .argument("<id>")
  .description("send a signed webhook.test event now, once, and show what the endpoint answered")
  .action(run(async (o, id) => output(o, await api("POST", `/webhooks/${enc(id)}/test`), (d) => table([d], deliveryColumns))));
webhook
  .command("enable")
  .argument("<id>")
  .description("send to a disabled endpoint again, from the next change on")
  .action(run(async (o, id) => output(o, await api("POST", `/webhooks/${enc(id)}/enable`), fields)));
webhook
  .command("delete")
  .argument("<id>")
  .description("delete an endpoint and its delivery log")
  .action(
    run(async (o, id) => {
      await api("DELETE", `/webhooks/${enc(id)}`);
      output(o, { deleted: id }, () => `Deleted webhook endpoint ${id}.`);
    }),
  );

// --- FAQ history -------------------------------------------------------------------------------
const versionColumns = [
  ["VERSION", (v) => v.id],
  ["AT", (v) => v.at],
  ["BY", (v) => v.actor ?? "(before its first recorded change)"],
  ["ACTION", (v) => (v.removed ? "removed" : v.action)],
  ["QUESTION", (v) => v.faq.question],
  ["LANGUAGES", (v) => v.faq.translations.map((t) => t.language).join(" ")],
];
const faqHistory = program.command("faq").description("an FAQ's earlier versions, and restoring one");
faqHistory
  .command("history")
  .argument("<entityId>")
  .argument("<position>", "the FAQ's position, 1 for the first", positiveInt)
  .description("the versions of the FAQ at a position, newest first (--json: each whole, with its translations)")
  .action(
    run(async (o, entityId, position) =>
      output(o, await api("GET", `/content/entities/${enc(entityId)}/faqs/${position}/versions`), (d) => table(d.versions, versionColumns)),
    ),
  );
faqHistory
  .command("removed")
  .argument("<entityId>")
  .description("the entity's FAQs removed and not restored since, newest first")
  .action(
    run(async (o, entityId) =>
      output(o, await api("GET", `/content/entities/${enc(entityId)}/removed-faqs`), (d) => table(d.versions, versionColumns)),
    ),
  );
faqHistory
  .command("restore")
  .argument("<entityId>")
  .argument("<versionId>", "a version from `faq history` or `faq removed`", positiveInt)
  .description("bring a version back, with its translations: in place of the FAQ as it is now, or a removed FAQ where it was")
  .action(
    run(async (o, entityId, versionId) => {
      const list = await api("POST", `/content/entities/${enc(entityId)}/faq-versions/${versionId}/restore`, undefined, {
        headers: { "If-Match": "*" },
      });
      output(o, list, (d) => `Restored version ${versionId}; ${entityId} has ${plural(d.faqs.length, "FAQ")} now.`);
    }),
  );

// --- audit, realm, API description --------------------------------------------------------------
program
  .command("audit")
  .option("--target <target>", "only changes to this ID")
  .option("--limit <n>", "how many (default 50)", positiveInt)
  .description("recent changes made through the operator API")
  .action(
    run(async (o) => {
      const query = new URLSearchParams({ ...(o.target ? { target: o.target } : {}), ...(o.limit ? { limit: String(o.limit) } : {}) });
      output(o, await api("GET", `/audit?${query}`), (d) =>
        table(d.entries, [
          ["ID", (e) => e.id],
          ["AT", (e) => e.at],
          ["ACTOR", (e) => e.actor],
          ["ACTION", (e) => e.action],
          ["TARGET", (e) => e.target],
          ["CHANGES", (e) => e.detail],
        ]),
      );
    }),
  );
program
  .command("signing-key")
  .description("the realm's token signing key")
  .command("rotate")
  .description("sign with a new key; the old one stays published until its tokens expire")
  .action(run(async (o) => output(o, await api("POST", "/signing-keys/rotate"), fields)));
program
  .command("registry")
  .description("print the MCP Registry's server.json for this deployment (ADMIN_URL), made from its server card")
  .action(
    run(async () => {
      const response = await fetch(`${ADMIN_URL}/.well-known/mcp/server-card.json`);
      if (!response.ok) throw new CliError(`${ADMIN_URL} has no server card (HTTP ${response.status}).`);
      const document = registryServerJson(await response.json());
      const problems = serverJsonProblems(document);
      if (problems.length > 0) throw new CliError(`the server.json is not valid against the registry's schema: ${problems.join("; ")}`);
      console.log(JSON.stringify(document, null, 2));
      if (document.remotes.some((remote) => !remote.url.startsWith("https://")))
        console.error("note: the registry accepts only HTTPS remotes; print this from the deployment's public host.");
    }),
  );
program
  .command("openapi")
  .description("print the operator API's OpenAPI 3.1 document")
  .action(run(async () => output({ json: true }, await api("GET", "/openapi.json"))));

await program.parseAsync(process.argv);
