import { applyD1Migrations, env } from "cloudflare:test";
import { loadDemoFixture } from "../../src/fixture/load";

// Every test file starts from the migrated schema and the demo fixture (a no-op when already loaded).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await loadDemoFixture(env);
