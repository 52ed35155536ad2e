import { createApp } from "./app";
import type { Env } from "./env";

export { McpSession } from "./mcp/session";
export { RateCounter } from "./rate-limit/rate-counter";

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
