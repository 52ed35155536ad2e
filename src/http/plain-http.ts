import { createMiddleware } from "hono/factory";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const isLoopback = (url: URL): boolean => LOOPBACK_HOSTS.has(url.hostname);

/** Browsers that reached the service over HTTPS keep to it for a year, on every host below its own. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/**
 * Plain HTTP is refused (DESIGN §1) except on loopback, which keeps `wrangler dev` usable; `refuse`
 * answers in the error body of the surface the path belongs to. Every answer over HTTPS says so for the future
 * (HSTS), whichever surface gave it; an answer another middleware already marked keeps its own.
 */
export const refusePlainHttp = (refuse: (path: string) => Response) =>
  createMiddleware(async (c, next) => {
    const url = new URL(c.req.url);
    if (url.protocol === "http:" && !isLoopback(url)) return refuse(url.pathname);
    await next();
    if (url.protocol === "https:" && !c.res.headers.has("Strict-Transport-Security")) {
      // Responses from fetch or a cache may be immutable: copy before adding the header.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    }
  });
