import { createMiddleware } from "hono/factory";
import { surfaceError } from "./surface-errors";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const isLoopback = (url: URL): boolean => LOOPBACK_HOSTS.has(url.hostname);

/** Plain HTTP is refused (DESIGN §1) except on loopback, which keeps `wrangler dev` usable. */
export const refusePlainHttp = createMiddleware(async (c, next) => {
  const url = new URL(c.req.url);
  if (url.protocol === "http:" && !isLoopback(url)) {
    return surfaceError(url.pathname, 403, "Plain HTTP is not accepted; use HTTPS.");
  }
  await next();
});
