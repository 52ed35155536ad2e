import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

/** The Worker's runtime for tests: workerd with the bindings of wrangler.toml, test secrets and `bindings`. */
const runtime = (bindings: Record<string, string> = {}) => ({
  wrangler: { configPath: "./wrangler.toml" },
  miniflare: {
    bindings: {
      ENVIRONMENT: "test",
      ADMIN_TOKEN: "test-admin-token-of-at-least-32-characters",
      KEY_ENCRYPTION_KEY: "test-key-encryption-key-of-32-characters",
      PASSWORD_PEPPER: "test-password-pepper-of-at-least-32-characters",
      TEST_MIGRATIONS: migrations,
      ...bindings,
    },
    // Webhook messages go to a queue nothing consumes: the tests hand them to the consumer themselves
    // (createMessageBatch), so each attempt happens when a test says; `npm run dev` runs the real consumer.
    queueProducers: { WEBHOOK_QUEUE: { queueName: "hospitality-webhooks-unconsumed" } },
    // A second, empty database for tests that apply migrations step by step (test/workers/catalogue/migrations.test.ts).
    d1Databases: { DB: "00000000-0000-0000-0000-000000000000", MIGRATION_TEST_DB: "migration-test" },
  },
});

/**
 * Tests of pure rules (parsing, planning, ranking, wording) that touch no binding and keep no state between tests:
 * they share one runtime instead of starting workerd and loading the demo fixture each. A test file not listed here
 * gets its own runtime and fixture, which is always safe.
 */
const PURE_RULES = [
  "test/workers/catalogue/{audit-detail,csv,languages,plan,records,translations}.test.ts",
  "test/workers/console/change-words.test.ts",
  "test/workers/http/accept-language.test.ts",
  "test/workers/mcp/{request-checks,resource-uris}.test.ts",
  "test/workers/oauth/{page-contrast,redirect-uris}.test.ts",
  "test/workers/rate-limit/token-requests.test.ts",
  "test/workers/search/{analyze,answer-types,lexicon,phrasings,plan,rank,resolve,segment,snippet,unanswered}.test.ts",
  "test/workers/webhooks/endpoint-url.test.ts",
];

export default defineConfig({
  test: {
    // Vitest's default leaves one CPU free, which on a two-CPU machine runs every file one after another. A workers
    // file's time is mostly its own workerd starting and an end-to-end file's mostly waiting for its `npm run dev`,
    // so two files more than there are CPUs keep them busy; the projects share these slots.
    maxWorkers: availableParallelism() + 2,
    projects: [
      {
        plugins: [cloudflareTest(({ inject }) => runtime({ TEST_WEBHOOK_RECEIVER: inject<string>("webhookReceiver") }))],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          exclude: PURE_RULES,
          setupFiles: ["./test/workers/setup.ts"],
          // A local webhook receiver (scripts/lib/webhook-receiver.mjs) for the whole run, stopped after it.
          globalSetup: ["./test/workers/global-setup.mjs"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [cloudflareTest(runtime())],
        test: { name: "pure-rules", include: PURE_RULES, isolate: false, testTimeout: 30_000 },
      },
      {
        // Checks of the repository's data and scripts in Node, with no server: the corpus, the trained files.
        test: { name: "node", include: ["test/node/**/*.test.ts"], environment: "node", testTimeout: 300_000 },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          // The migrations applied once, for every file's `npm run dev` to start from a copy.
          globalSetup: ["./test/e2e/global-setup.mjs"],
          testTimeout: 120_000,
          // A file's `npm run dev` starts beside the other files' on a busy machine: give it five minutes.
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
