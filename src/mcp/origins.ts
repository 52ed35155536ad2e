import { isDevelopment, listVar, type Env } from "../env";
import { isLoopback } from "../http/plain-http";

/**
 * Origins a browser may call the MCP endpoint from (DNS-rebinding protection): the configured origins
 * of the service (BASE_URL, AUTH_URL, API_URL), ALLOWED_ORIGINS, and in development any loopback origin.
 * Never the request's own Host: a rebound name sends a Host and an Origin that agree.
 */
export function isAllowedOrigin(origin: string, env: Env): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const configured = [env.BASE_URL, env.AUTH_URL, env.API_URL, ...listVar(env.ALLOWED_ORIGINS)].flatMap((u) => {
    try {
      return u ? [new URL(u).origin] : [];
    } catch {
      return [];
    }
  });
  return configured.includes(url.origin) || (isDevelopment(env) && isLoopback(url));
}
