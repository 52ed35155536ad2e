#!/usr/bin/env node
// `npm run dev`: provides local secrets, applies D1 migrations locally, starts `wrangler dev`, loads the demo fixture into an
// empty database and prints what is listening and the demo credentials. Wrangler's own output goes to a log file
// (.wrangler/dev.log, or dev.log in --persist-to) unless --verbose.
// Options: --port N (8787), --persist-to DIR, --var NAME:VALUE (repeatable, e.g. ALLOWED_REDIRECT_URIS:...), --verbose.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEV_PORT, devOrigin } from "./lib/dev-origin.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "node_modules", ".bin");
// Wrangler needs Node 22: the node@22 devDependency in node_modules/.bin comes first for every child.
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false" };
const { values } = parseArgs({
  options: {
    port: { type: "string", default: String(DEV_PORT) },
    "persist-to": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
    verbose: { type: "boolean", default: false },
  },
});
const persist = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];
const origin = devOrigin(values.port);
// What this script asks the service itself goes where wrangler listens, never to whatever else answers for "localhost".
const listening = `http://127.0.0.1:${values.port}`;
// The CLIs reach the default port by themselves; on another, the banner tells them where.
const offDefaultPort = (text) => (origin === devOrigin() ? "" : text);
// The operator API refuses tokens shorter than 32 characters, this one included.
const ADMIN_TOKEN = "dev-admin-token-not-for-production-use";

/** Whether something listens on `port` at `host` already (an address this computer does not have is free). */
function portTaken(port, host) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error) => resolve(error.code === "EADDRINUSE"));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

const portInUse = (where) =>
  `Port ${values.port} is already in use${where}: another npm run dev, or another server, listens there. ` +
  `Stop it, or start this one on another port: npm run dev -- --port ${Number(values.port) + 1}`;

// Browsers reach "localhost" at either loopback address: a server on either would answer in this one's place.
for (const host of ["127.0.0.1", "::1"]) {
  if (await portTaken(Number(values.port), host)) {
    console.error(`\n  ${portInUse(` on ${host}`)}\n`);
    process.exit(1);
  }
}

// Local secrets (KEY_ENCRYPTION_KEY, PASSWORD_PEPPER) come from .dev.vars; a fresh clone starts from the committed
// example, and a .dev.vars written before a secret existed gets the example's line for it.
const devVars = join(root, ".dev.vars");
const exampleVars = join(root, ".dev.vars.example");
if (!existsSync(devVars)) copyFileSync(exampleVars, devVars);
else {
  const varName = (line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
  const present = new Set(readFileSync(devVars, "utf8").split("\n").map(varName));
  const missing = readFileSync(exampleVars, "utf8")
    .split("\n")
    .filter((line) => varName(line) && !present.has(varName(line)));
  if (missing.length > 0) appendFileSync(devVars, `\n${missing.join("\n")}\n`);
}

// Wrangler's progress, request log and warnings (an offline machine's failed lookups among them) matter when something
// goes wrong, not on every start: they go to the log file, whose end is printed if the start fails.
const logFile = join(values["persist-to"] ?? join(root, ".wrangler"), "dev.log");
let log = "inherit";
if (!values.verbose) {
  mkdirSync(dirname(logFile), { recursive: true });
  log = openSync(logFile, "w");
}
const failed = (message) => {
  console.error(`\n  ${message}`);
  if (!values.verbose) {
    const tail = readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-30).join("\n    ");
    console.error(`\n  The end of ${logFile}:\n    ${tail}\n`);
  }
};
console.log(`  Starting the service on ${origin} ...${values.verbose ? "" : ` (wrangler's log: ${logFile}; --verbose to show it)`}`);

const migrate = spawnSync(join(bin, "wrangler"), ["d1", "migrations", "apply", "DB", "--local", ...persist], {
  cwd: root,
  env: { ...env, CI: "true" },
  stdio: ["ignore", log, log],
});
if (migrate.status !== 0) {
  failed("Applying the database migrations failed.");
  process.exit(migrate.status ?? 1);
}
const migrations = readdirSync(join(root, "migrations")).filter((name) => name.endsWith(".sql")).length;

const server = spawn(
  join(bin, "wrangler"),
  [
    "dev",
    "--port",
    values.port,
    "--ip",
    "127.0.0.1",
    "--show-interactive-dev-session=false",
    "--var",
    "ENVIRONMENT:development",
    "--var",
    `ADMIN_TOKEN:${ADMIN_TOKEN}`,
    // One public origin for every surface, so a token fetched at 127.0.0.1 also verifies at localhost.
    ...["BASE_URL", "AUTH_URL", "API_URL"].flatMap((name) => ["--var", `${name}:${origin}`]),
    ...values.var.flatMap((v) => ["--var", v]),
    ...persist,
  ],
  { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
);
// Wrangler's output goes to the log (or the terminal with --verbose); until it says it listens, it is also read here.
let started = "";
for (const [from, terminal] of [
  [server.stdout, process.stdout],
  [server.stderr, process.stderr],
]) {
  from.on("data", (chunk) => {
    if (typeof log === "number") writeSync(log, chunk);
    else terminal.write(chunk);
    if (!wranglerListens()) started += chunk;
  });
}
const wranglerListens = () => started.includes("Ready on");
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
let ready = false;
server.on("exit", (code) => {
  if (typeof log === "number") closeSync(log);
  if (!ready) {
    failed(
      started.includes("Address already in use") ? portInUse("") : `wrangler dev stopped before the service was ready (exit code ${code}).`,
    );
  }
  process.exit(ready ? (code ?? 0) : 1);
});

/** Waits for wrangler to say it listens, then for the service to answer there. */
async function waitForHealth() {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if (wranglerListens()) {
        const res = await fetch(`${listening}/health`);
        if (res.status === 200 || res.status === 503) return;
      }
    } catch {
      // Not answering yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`wrangler dev did not answer on ${origin} within 120 s`);
}

try {
  await waitForHealth();
  const res = await fetch(`${listening}/admin/v1/fixture`, { method: "POST", headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!res.ok) throw new Error(`loading the demo fixture failed: ${res.status} ${await res.text()}`);
  const { loaded } = await res.json();
  // A database kept from an earlier version may hold FAQs indexed by an older analysis: analyse them again.
  if (!loaded) {
    for (let after = ""; after !== undefined;) {
      const page = await fetch(`${listening}/admin/v1/search/reindex`, {
        method: "POST",
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify({ after, limit: 500 }),
      });
      if (!page.ok) throw new Error(`analysing the stored content again failed: ${page.status} ${await page.text()}`);
      after = (await page.json()).next;
    }
  }
  ready = true;
  console.log(`
  Hospitality Content & MCP Access Service: ${origin}
    MCP server          ${origin}/v1/sse  (ChatGPT: ${origin}/v1/chatgpt)
    Content API         ${origin}/api/v3/content/...  (OpenAPI: ${origin}/api/v3/openapi.json)
    Identity realm      ${origin}/realms/hospitality
    Operator API        ${origin}/admin/v1  (${offDefaultPort(`ADMIN_URL=${origin} `)}npm run admin -- --help)
  Database: ${migrations} migrations applied locally. Demo fixture: ${loaded ? "loaded into the empty local database" : "already present"}

  Content API keys (X-API-Key):  demo-key (1000/h)  demo-key-small (5/h)  demo-key-expired  bench-key (10,000,000/h)
                                 aurora-partner-key (500/h, issued for org-aurora: its administrators manage it in the console)
  Identity clients (realm hospitality, client_credentials):
    aurora-assistant / aurora-secret  -> org-aurora (HO-AUR, DMO-LIS)
    boreal-assistant / boreal-secret  -> org-boreal (HO-BOR)
    orphan-client / orphan-secret     -> no organization
    kestrel-assistant / kestrel-secret  -> org-kestrel (HO-KES: five hotels with FAQ pages as real hotels publish them)
  Connector sign-in (OAuth, ${origin}/authorize):  ana@aurora.example / aurora-password -> org-aurora,
    marta@kestrel.example / kestrel-password -> org-kestrel
    pre-registered public client demo-connector, redirect http://localhost:8976/callback
  Content console (${origin}/console/sign-in), people of org-aurora:
    ines@aurora.example / aurora-console-admin     administrator of the organization
    bruno@aurora.example / aurora-console-brand    editor of the brand HO-AUR
    helena@aurora.example / aurora-console-hotel   editor of the hotel HO-AUR-0001 only
  Operator token: ${ADMIN_TOKEN}

  Try: curl -H 'X-API-Key: demo-key' ${origin}/api/v3/content/HO-AUR/properties
       npm run connect${offDefaultPort(` -- --url ${origin}`)}   (sign in as an assistant would, and get a token)
  Read on: README.md, then docs/ (the reference of every surface).
`);
} catch (error) {
  failed(String(error));
  server.kill("SIGTERM");
  process.exitCode = 1;
}
