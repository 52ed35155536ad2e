import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest(({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ENVIRONMENT: "test",
                ADMIN_TOKEN: "test-admin-token-of-at-least-32-characters",
                KEY_ENCRYPTION_KEY: "test-key-encryption-key-of-32-characters",
                PASSWORD_PEPPER: "test-password-pepper-of-at-least-32-characters",
                TEST_MIGRATIONS: migrations,
                TEST_WEBHOOK_RECEIVER: inject<string>("webhookReceiver"),
              },
              // Webhook messages go to a queue nothing consumes: the tests hand them to the consumer themselves
              // (createMessageBatch), so each attempt happens when a test says; `npm run dev` runs the real consumer.
              queueProducers: { WEBHOOK_QUEUE: { queueName: "hospitality-webhooks-unconsumed" } },
              // A second, empty database for tests that apply migrations step by step (test/workers/catalogue/migrations.test.ts).
              d1Databases: { DB: "00000000-0000-0000-0000-000000000000", MIGRATION_TEST_DB: "migration-test" },
            },
          })),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          setupFiles: ["./test/workers/setup.ts"],
          // A local webhook receiver (scripts/lib/webhook-receiver.mjs) for the whole run, stopped after it.
          globalSetup: ["./test/workers/global-setup.mjs"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
