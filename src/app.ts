import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { adminApi } from "./admin/routes";
import { consoleFallback } from "./console/answers";
import { consoleRoutes } from "./console/routes";
import { contentApi } from "./content/routes";
import { contentError, requestPath } from "./content/errors";
import type { AppEnv } from "./env";
import { healthRoutes } from "./health/routes";
import { isDependencyOutage } from "./http/outage";
import { refusePlainHttp } from "./http/plain-http";
import { identityRoutes, realmDiscoveryRoutes } from "./identity/routes";
import { mcpRoutes } from "./mcp/routes";
import { oauthRoutes } from "./oauth/routes";
import { surfaceError } from "./surface-error";

/** The content console's paths answer in pages, errors included. */
const isConsolePath = (path: string) => path === "/console" || path.startsWith("/console/");

/** One Worker, every surface, routed by path (DESIGN §1). */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(
    "*",
    refusePlainHttp((path) => surfaceError(path, 403, "Plain HTTP is not accepted; use HTTPS.")),
  );
  app.route("/", healthRoutes);
  app.route("/", contentApi());
  app.route("/", identityRoutes);
  app.route("/", realmDiscoveryRoutes);
  app.route("/", mcpRoutes);
  app.route("/", oauthRoutes);
  app.route("/", adminApi());
  app.route("/", consoleRoutes);
  app.notFound((c) =>
    isConsolePath(c.req.path)
      ? consoleFallback(404)
      : surfaceError(requestPath(c.req.raw), 404, `No route for ${c.req.method} ${c.req.path}.`),
  );
  app.onError((error, c) => {
    const path = requestPath(c.req.raw);
    // Thrown by Hono for requests it cannot read (a malformed JSON body): the client's mistake, in its surface's shape.
    if (error instanceof HTTPException && error.status >= 400 && error.status < 500) {
      return surfaceError(path, error.status === 413 ? 413 : 400, error.message || "The request could not be read.");
    }
    // The cause goes to the logs, never to the client.
    console.error(JSON.stringify({ event: "unhandled_error", path, message: String(error), stack: error.stack }));
    if (path.startsWith("/api/") && isDependencyOutage(error)) {
      return contentError(503, "A dependency is temporarily unavailable; retry with exponential backoff.", path, { "Retry-After": "5" });
    }
    if (isConsolePath(c.req.path)) return consoleFallback(500);
    return surfaceError(path, 500, "An unexpected error occurred; retry with exponential backoff.");
  });
  return app;
}
