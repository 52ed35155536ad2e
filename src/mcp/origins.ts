import { isDevelopment, listVar, type Env } from "../env";
import { isLoopback } from "../http/plain-http";

/**
 * Origins a browser may call the MCP endpoint from (DNS-rebinding protection): ALLOWED_ORIGINS, the
 * service's own origins, and in development any loopback origin.
 */
export function isAllowedOrigin(origin: string, env: Env, requestUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const own = [env.BASE_URL, env.AUTH_URL, env.API_URL, requestUrl].flatMap((u) => (u ? [new URL(u).origin] : []));
  return [...own, ...listVar(env.ALLOWED_ORIGINS)].includes(url.origin) || (isDevelopment(env) && isLoopback(url));
}
