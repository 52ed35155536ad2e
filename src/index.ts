import { createApp } from "./app";
import type { Env } from "./env";
import { scheduledUpkeep } from "./upkeep";
import { handleWebhookBatch } from "./webhooks/queue";

export { McpSession } from "./mcp/session";
export { FailureBackoff } from "./rate-limit/failure-backoff";
export { RateCounter } from "./rate-limit/rate-counter";

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
  scheduled: (controller, env, ctx) => scheduledUpkeep(controller, env, (work) => ctx.waitUntil(work)),
  queue: (batch, env) => handleWebhookBatch(batch, env),
} satisfies ExportedHandler<Env>;
