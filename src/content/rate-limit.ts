import { createMiddleware } from "hono/factory";
import { spendQuota } from "../rate-limit/quota-leases";
import { counterNames, rateLimitHeaders } from "../rate-limit/rate-counter";
import type { ContentEnv } from "./api-key";
import { contentError, requestPath } from "./errors";

/**
 * Counts the request in the key's hourly window, from a block of it this isolate holds when it can
 * (quota-leases.ts); every response to a valid key carries X-RateLimit-*.
 */
export const hourlyRateLimit = createMiddleware<ContentEnv>(async (c, next) => {
  const key = c.get("apiKey");
  const decision = await spendQuota(c.env, counterNames.apiKey(key.id), key.hourly_limit);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    return contentError(
      429,
      `The hourly limit of ${decision.limit} requests for this API key is used up; the window resets in ${decision.resetSeconds} s.`,
      requestPath(c.req.raw),
      headers,
    );
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
