import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** An empty database of its own, for applying migrations one at a time. */
      MIGRATION_TEST_DB: D1Database;
      /** Origin of the local webhook receiver (test/workers/global-setup.mjs). */
      TEST_WEBHOOK_RECEIVER: string;
    }
  }
}
