import { listVar, type Env } from "../env";
import { clientRedirectUris } from "../storage/oauth-clients";

/** Claude's connector callbacks: the Claude apps use either host. */
export const DEFAULT_ALLOWED_REDIRECT_URIS = ["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"];

export const configuredRedirectUris = (env: Env): string[] =>
  env.ALLOWED_REDIRECT_URIS === undefined ? DEFAULT_ALLOWED_REDIRECT_URIS : listVar(env.ALLOWED_REDIRECT_URIS);

// Scheme and host are compared as written; only the port of a loopback URI may vary.
const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?([/?].*)?$/;

/**
 * Exact match, except that a loopback redirect URI may change its port (RFC 8252 §7.3, for native
 * clients); scheme, host, path and query always match character for character.
 */
export function redirectUriMatches(presented: string, allowed: string): boolean {
  if (presented === allowed) return true;
  const p = LOOPBACK.exec(presented);
  const a = LOOPBACK.exec(allowed);
  return p !== null && a !== null && p[1] === a[1] && (p[2] ?? "") === (a[2] ?? "");
}

export const matchesAny = (presented: string, allowed: readonly string[]): boolean =>
  allowed.some((uri) => redirectUriMatches(presented, uri));

/** Whether `clientId` may send users back to `redirectUri`: on ALLOWED_REDIRECT_URIS, or added for that client. */
export async function isRedirectUriAllowed(env: Env, clientId: string, redirectUri: string): Promise<boolean> {
  return matchesAny(redirectUri, configuredRedirectUris(env)) || matchesAny(redirectUri, await clientRedirectUris(env.DB, clientId));
}

/** What a redirect URI must look like before the operator may allow it: https, or http on loopback; no fragment, no userinfo. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "is not an absolute URL";
  }
  if (url.hash || uri.includes("#")) return "must not have a fragment";
  if (url.username || url.password) return "must not carry user information";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK.test(uri)) return null;
  return "must use https (or http on localhost, 127.0.0.1 or [::1])";
}
