// Starts local servers for end-to-end tests and benchmarks, each in its own process group so that
// stop() ends wrangler and workerd together by process id.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BIN = join(ROOT, "node_modules", ".bin");
const ENV = { ...process.env, PATH: `${BIN}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false" };

/** A new, empty local state directory (D1, Durable Objects, KV) for one server. */
export const freshState = () => mkdtempSync(join(tmpdir(), "hospitality-dev-"));

/** Runs wrangler to completion (Node 22 first on PATH), failing with its output. */
export function wrangler(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(join(BIN, "wrangler"), args, { cwd: ROOT, env: { ...ENV, CI: "true" }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(" ")} exited with ${code}:\n${output}`)),
    );
  });
}

/**
 * A state directory whose database has every migration applied, made once for servers that start from a copy of it:
 * `wrangler d1 migrations apply` takes about 25 s on a new database, and about 3 s when nothing is left to apply.
 */
export async function migratedState() {
  const state = freshState();
  await wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
  return state;
}

/** A TCP port that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a process group and resolves once `readyText` appears in its output; on failure the group is stopped. */
async function startProcess(command, args, readyText, timeoutMs) {
  const child = spawn(command, args, { cwd: ROOT, env: ENV, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      if (output.includes(readyText)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it was ready:\n${output}`));
    });
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // The group has ended already.
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // It ended meanwhile.
      }
    }, 5000);
    await exited;
    clearTimeout(killer);
  };
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, stop, output: () => output };
}

/**
 * `npm run dev` on a free port with a fresh local state directory (or `state`, prepared by the caller, whose
 * database then keeps what it holds; or a copy of `from`, such as migratedState()): migrations, the demo fixture into
 * an empty database, every surface. `vars` are passed to wrangler. Resolves once the demo credentials are printed;
 * stop() removes the state.
 * @param {{ timeoutMs?: number, vars?: Record<string, string>, state?: string, from?: string }} [options]
 */
export async function startDevServer({ timeoutMs = 180_000, vars = {}, state = freshState(), from } = {}) {
  if (from) cpSync(from, state, { recursive: true });
  const port = await freePort();
  const removeState = () => rmSync(state, { recursive: true, force: true });
  const proc = await startProcess(
    process.execPath,
    [
      join(ROOT, "scripts", "dev.mjs"),
      "--port",
      String(port),
      "--persist-to",
      state,
      ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ],
    "Demo fixture:",
    timeoutMs,
  ).catch((error) => {
    removeState();
    throw error;
  });
  return {
    origin: `http://localhost:${port}`,
    pid: proc.child.pid,
    output: proc.output,
    stop: async () => {
      await proc.stop();
      removeState();
    },
  };
}

/** The one-route bare Worker that benchmarks compare against. */
export async function startBareWorker({ timeoutMs = 120_000 } = {}) {
  const port = await freePort();
  const proc = await startProcess(
    join(BIN, "wrangler"),
    [
      "dev",
      "--config",
      join(ROOT, "bench", "bare", "wrangler.toml"),
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--show-interactive-dev-session=false",
    ],
    "Ready on",
    timeoutMs,
  );
  return { origin: `http://localhost:${port}`, pid: proc.child.pid, stop: proc.stop };
}
