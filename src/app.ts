import { Hono } from "hono";
import { adminRoutes } from "./admin/routes";
import { contentApi } from "./content/routes";
import { contentError, requestPath } from "./content/errors";
import type { AppEnv } from "./env";
import { healthRoutes } from "./health/routes";
import { isDependencyOutage } from "./http/outage";
import { refusePlainHttp } from "./http/plain-http";
import { identityRoutes } from "./identity/routes";
import { mcpRoutes } from "./mcp/routes";
import { oauthRoutes } from "./oauth/routes";
import { surfaceError } from "./http/surface-errors";

/** One Worker, every surface, routed by path (DESIGN §1). */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", refusePlainHttp);
  app.route("/", healthRoutes);
  app.route("/", contentApi());
  app.route("/", identityRoutes);
  app.route("/", mcpRoutes);
  app.route("/", oauthRoutes);
  app.route("/", adminRoutes);
  app.notFound((c) => surfaceError(requestPath(c.req.raw), 404, `No route for ${c.req.method} ${c.req.path}.`));
  app.onError((error, c) => {
    const path = requestPath(c.req.raw);
    // The cause goes to the logs, never to the client.
    console.error(JSON.stringify({ event: "unhandled_error", path, message: String(error), stack: (error as Error).stack }));
    if (path.startsWith("/api/") && isDependencyOutage(error)) {
      return contentError(503, "A dependency is temporarily unavailable; retry with exponential backoff.", path, { "Retry-After": "5" });
    }
    return surfaceError(path, 500, "An unexpected error occurred; retry with exponential backoff.");
  });
  return app;
}
