import { createMiddleware } from "hono/factory";
import { mcpRateLimit, surfaceOrigin, type Env } from "../env";
import { envelopeError } from "../http/surface-errors";
import { headerParameter } from "../http/untrusted-text";
import { clientOrganization, TokenRejected, verifyAccessToken, type Principal } from "../identity/verify";
import { connectorAccessDenial } from "../oauth/access";
import { isConnectorToken, verifyConnectorToken } from "../oauth/tokens";
import { spendQuota } from "../rate-limit/quota-leases";
import { counterNames, rateLimitHeaders } from "../rate-limit/rate-counter";
import type { McpEnv } from "./context";
import { jsonBody, requestCost } from "./request-checks";

export const protectedResourceMetadataUrl = (env: Env, requestUrl: string): string =>
  `${surfaceOrigin(env.BASE_URL, requestUrl)}/.well-known/oauth-protected-resource`;

/** RFC 6750 §3: without any token only the metadata pointer; with a bad one, why it failed. */
function unauthorized(env: Env, requestUrl: string, description?: string): Response {
  const metadata = `resource_metadata="${protectedResourceMetadataUrl(env, requestUrl)}"`;
  const challenge = description
    ? `Bearer error="invalid_token", error_description="${headerParameter(description)}", ${metadata}`
    : `Bearer ${metadata}`;
  return envelopeError(401, description ?? "A bearer token is required.", { "WWW-Authenticate": challenge });
}

/** A realm (or external issuer) JWT, or an access token of the connector flow, as a principal. */
const verifyBearer = (env: Env, requestUrl: string, token: string): Promise<Principal> =>
  isConnectorToken(token) ? verifyConnectorToken(env, requestUrl, token) : verifyAccessToken(env, requestUrl, token);

/** Whether a principal verified earlier still has access: a long-lived stream asks again as it goes. */
export async function stillAuthorized(env: Env, principal: Principal): Promise<boolean> {
  if (!principal.grant) return (await clientOrganization(env, principal.issuer, principal.clientId)) === principal.organizationId;
  const { userId, grantedAt } = principal.grant;
  return (await connectorAccessDenial(env, principal.clientId, { userId, grantedAt, organizationId: principal.organizationId })) === null;
}

/** Verifies the bearer token and maps it to an organization (SPEC Authentication rule 4). */
export const bearerAuth = createMiddleware<McpEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  if (!header) return unauthorized(c.env, c.req.url);
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (!token) return unauthorized(c.env, c.req.url, "The Authorization header must be Bearer <access token>.");
  try {
    c.set("principal", await verifyBearer(c.env, c.req.url, token));
  } catch (error) {
    if (error instanceof TokenRejected) return unauthorized(c.env, c.req.url, error.message);
    throw error;
  }
  await next();
});

/** Per-organization hourly limit on MCP requests (default 3600); each request of a batch counts. */
export const organizationRateLimit = createMiddleware<McpEnv>(async (c, next) => {
  const { organizationId } = c.get("principal");
  const cost = c.req.method === "POST" ? requestCost(await jsonBody(c).catch(() => undefined)) : 1;
  const decision = await spendQuota(c.env, counterNames.organization(organizationId), mcpRateLimit(c.env), cost);
  if (!decision.allowed) {
    const message =
      cost > 1 && decision.remaining > 0
        ? `This batch counts ${cost} requests and only ${decision.remaining} of the organization's ${decision.limit} per hour are left; send fewer, or retry after ${decision.resetSeconds} s.`
        : `The organization's limit of ${decision.limit} MCP requests per hour is used up; retry after ${decision.resetSeconds} s.`;
    return envelopeError(429, message, rateLimitHeaders(decision), { retry_after: decision.resetSeconds });
  }
  await next();
});
