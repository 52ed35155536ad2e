import { createMiddleware } from "hono/factory";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const isLoopback = (url: URL): boolean => LOOPBACK_HOSTS.has(url.hostname);

/**
 * Plain HTTP is refused (DESIGN §1) except on loopback, which keeps `wrangler dev` usable; `refuse`
 * answers in the error body of the surface the path belongs to.
 */
export const refusePlainHttp = (refuse: (path: string) => Response) =>
  createMiddleware(async (c, next) => {
    const url = new URL(c.req.url);
    if (url.protocol === "http:" && !isLoopback(url)) return refuse(url.pathname);
    await next();
  });
