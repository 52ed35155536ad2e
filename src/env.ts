/**
 * Bindings and vars of the Worker (wrangler.toml); every var is optional and has a documented default.
 * The Durable Object namespaces are typed by the module of their class (`rateCounter`, `sessionObject`),
 * so that this file, which every module reads, imports none of them.
 */
export interface Env {
  DB: D1Database;
  RATE_COUNTER: DurableObjectNamespace;
  MCP_SESSION: DurableObjectNamespace;
  FAILURE_BACKOFF: DurableObjectNamespace;
  /** Grants, tokens (as hashes) and clients of the connector flow, kept by workers-oauth-provider. */
  OAUTH_KV: KVNamespace;
  /** Webhook work (src/webhooks/): requests to make events from content changes, and each delivery's next attempt. */
  WEBHOOK_QUEUE: Queue;
  ENVIRONMENT?: string;
  REALM?: string;
  BASE_URL?: string;
  AUTH_URL?: string;
  API_URL?: string;
  MAX_GRAPH_ENTITIES?: string;
  MAX_GRAPH_BYTES?: string;
  HEALTH_TIMEOUT_MS?: string;
  ADMIN_TOKEN?: string;
  /** Audience of MCP access tokens (default `hospitality-mcp`). */
  MCP_AUDIENCE?: string;
  /** An external OpenID provider to trust instead of (or besides) the built-in realm. */
  OIDC_ISSUER?: string;
  OIDC_JWKS_URL?: string;
  /** Secret (≥ 32 random characters) under which the realm's private signing keys are sealed in D1. */
  KEY_ENCRYPTION_KEY?: string;
  /** Secret (≥ 32 random characters) every password is HMAC-ed with before PBKDF2, so a copy of D1 alone cannot test guesses. */
  PASSWORD_PEPPER?: string;
  /** Private ES256 JWK (JSON) to sign with instead of keys kept in D1. */
  SIGNING_KEY_JWK?: string;
  TOKEN_TTL_SECONDS?: string;
  /** Longest lifetime (`exp − iat`) accepted in a bearer token, from any issuer (default 86400). */
  MAX_TOKEN_LIFETIME_SECONDS?: string;
  MCP_RATE_LIMIT?: string;
  /** Token requests (realm and connector flow) per calling address per hour (default 3000). */
  TOKEN_RATE_LIMIT_PER_ADDRESS?: string;
  /** Token requests naming one client per hour (default 3000). */
  TOKEN_RATE_LIMIT_PER_CLIENT?: string;
  TOKEN_FAILURES_PER_CLIENT_ADDRESS?: string;
  AUTHORIZE_REQUESTS_PER_ADDRESS?: string;
  REGISTRATIONS_PER_ADDRESS?: string;
  /** Failed password sign-ins from one address an hour before it must wait (default 50). */
  SIGN_IN_FAILURES_PER_ADDRESS?: string;
  /** Failed password sign-ins of one account from anywhere an hour before it must wait (default 100). */
  SIGN_IN_FAILURES_PER_ACCOUNT?: string;
  /**
   * The request header that carries the caller's address for per-address limits: CF-Connecting-IP (the default),
   * which Cloudflare's edge sets and overwrites; "none" where no proxy sets one, so every caller shares one address.
   */
  CLIENT_ADDRESS_HEADER?: string;
  SERVICE_NAME?: string;
  SERVICE_LOGO_URL?: string;
  SUPPORT_URL?: string;
  /** The privacy policy and terms of use shown at /privacy and /terms, as plain text (oauth/policies.ts); defaults say what is kept. */
  PRIVACY_POLICY?: string;
  TERMS_OF_USE?: string;
  /** The service's reverse-DNS name in the MCP Registry and its server card (`com.example/hotel-content`). */
  REGISTRY_NAME?: string;
  SESSION_IDLE_SECONDS?: string;
  SESSION_MAX_SECONDS?: string;
  /** Seconds between keep-alive comments on the GET /v1/sse stream (default 25). */
  SSE_KEEP_ALIVE_SECONDS?: string;
  /** Comma-separated origins allowed to call /v1/sse from a browser. */
  ALLOWED_ORIGINS?: string;
  /** Comma-separated redirect URIs any connector client may use (default: Claude's connector callbacks). */
  ALLOWED_REDIRECT_URIS?: string;
  /** Milliseconds a webhook receiver has to answer (default 10000). */
  WEBHOOK_TIMEOUT_MS?: string;
  /** Seconds between a webhook delivery's attempts, comma-separated (default 5,300,1800,7200,18000,36000,36000). */
  WEBHOOK_RETRY_DELAYS?: string;
}

export type AppEnv = { Bindings: Env };

export const isDevelopment = (env: Env): boolean => env.ENVIRONMENT === "development";

/** Reads a positive integer var, falling back to its default when unset or not a positive integer. */
export function intVar(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** A comma-separated list var as its trimmed, non-empty members. */
export const listVar = (value: string | undefined): string[] =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** Absolute origin of a surface: the configured URL, else the origin the request came in on. */
export function surfaceOrigin(configured: string | undefined, requestUrl: string): string {
  return (configured ?? new URL(requestUrl).origin).replace(/\/+$/, "");
}

export const DEFAULT_REALM = "hospitality";
export const DEFAULT_MCP_AUDIENCE = "hospitality-mcp";

/** The built-in realm's issuer: `<auth_url>/realms/<realm>`. */
export const realmIssuer = (env: Env, requestUrl: string): string =>
  `${surfaceOrigin(env.AUTH_URL, requestUrl)}/realms/${env.REALM ?? DEFAULT_REALM}`;

export const mcpAudience = (env: Env): string => env.MCP_AUDIENCE ?? DEFAULT_MCP_AUDIENCE;

export const tokenTtlSeconds = (env: Env): number => intVar(env.TOKEN_TTL_SECONDS, 300);
/** MCP requests an organization may make per hour (each request of a batch counts). */
export const mcpRateLimit = (env: Pick<Env, "MCP_RATE_LIMIT">): number => intVar(env.MCP_RATE_LIMIT, 3600);
