import { GrantType, OAuthAuthorizationServer, OAuthError, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { surfaceOrigin, type Env } from "../env";
import { MCP_ENDPOINTS } from "../http/mcp-endpoints";
import { MCP_SCOPE } from "../identity/tokens";
import { connectorAccessDenial, type ConnectorProps } from "./access";
import { configuredRedirectUris, matchesAny } from "./redirect-uris";

/** Where the connector flow lives on the MCP origin (SPEC "Endpoints"). */
export const AUTHORIZE_PATH = "/authorize";
export const TOKEN_PATH = "/token";
export const REGISTER_PATH = "/register";

export const CONNECTOR_ACCESS_TOKEN_TTL_S = 3600;
// The provider keeps a code's grant for 10 minutes; a code older than this is refused all the same.
export const AUTHORIZATION_CODE_TTL_S = 120;
export const CONNECTOR_REFRESH_TOKEN_TTL_S = 30 * 86_400;
// A dynamic registration nobody uses is gone after a grant's lifetime; the provider renews one in use.
export const CLIENT_REGISTRATION_TTL_S = CONNECTOR_REFRESH_TOKEN_TTL_S;
// Names are shown on the consent page and to the operator; real apps' names are short.
export const MAX_CLIENT_NAME_LENGTH = 100;

/**
 * The protected resources a connector token may be bound to (RFC 8707): the MCP origin, which the
 * root protected-resource metadata and the 401 challenge name, and each MCP endpoint, which clients
 * that read the path-specific metadata send. Every one is accepted at every endpoint: they are one
 * server, one organization scope and one rate limit.
 */
export const mcpResources = (origin: string): [string, ...string[]] => [origin, ...MCP_ENDPOINTS.map((path) => `${origin}${path}`)];

// The issuer and resources are fixed when a server is built, so there is one per MCP origin (and allow-list).
const servers = new Map<string, OAuthAuthorizationServer<Env>>();
const MAX_SERVERS = 16;

function buildServer(issuer: string, allowedRedirectUris: string[]): OAuthAuthorizationServer<Env> {
  const [origin] = mcpResources(issuer);
  return new OAuthAuthorizationServer<Env>({
    issuer,
    resources: mcpResources(issuer),
    defaultResource: origin,
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    scopesSupported: [MCP_SCOPE],
    accessTokenTTL: CONNECTOR_ACCESS_TOKEN_TTL_S,
    refreshTokenTTL: CONNECTOR_REFRESH_TOKEN_TTL_S,
    clientIdMetadataDocumentEnabled: true,
    clientRegistrationTTL: CLIENT_REGISTRATION_TTL_S,
    // Dynamic registration is open to anyone, so it may only name redirect URIs the operator allowed.
    clientRegistrationCallback: ({ clientMetadata }) => {
      const name = clientMetadata.client_name;
      if (name !== undefined && (typeof name !== "string" || name.length > MAX_CLIENT_NAME_LENGTH || /\p{Cc}/u.test(name))) {
        return {
          code: "invalid_client_metadata",
          description: `client_name must be text of at most ${MAX_CLIENT_NAME_LENGTH} characters, without control characters.`,
        };
      }
      const uris = clientMetadata.redirect_uris;
      const refused = Array.isArray(uris) ? uris.filter((uri) => typeof uri !== "string" || !matchesAny(uri, allowedRedirectUris)) : [];
      if (refused.length === 0) return;
      return {
        code: "invalid_redirect_uri",
        description: `Redirect URI not allowed by this server: ${refused.map(String).join(", ")}. Ask the operator to add it to ALLOWED_REDIRECT_URIS.`,
      };
    },
    // A disabled user or a deleted client must not get tokens from a code or refresh token they still hold.
    // Thrown invalid_grant also makes the provider revoke the grant with its tokens.
    tokenExchangeCallback: async ({ grantType, clientId, props, env }) => {
      if (grantType !== GrantType.AUTHORIZATION_CODE && grantType !== GrantType.REFRESH_TOKEN) return;
      const connector = props as ConnectorProps;
      if (grantType === GrantType.AUTHORIZATION_CODE && Date.now() - Date.parse(connector.grantedAt) > AUTHORIZATION_CODE_TTL_S * 1000) {
        throw new OAuthError("invalid_grant", { description: "The authorization code has expired." });
      }
      const denial = await connectorAccessDenial(env, clientId, connector, { fresh: true });
      if (denial) throw new OAuthError("invalid_grant", { description: denial });
    },
  });
}

/** The connector flow's authorization server for the MCP origin of this request (BASE_URL, else the request's). */
export function authorizationServer(env: Env, requestUrl: string): OAuthAuthorizationServer<Env> {
  const issuer = surfaceOrigin(env.BASE_URL, requestUrl);
  const allowed = configuredRedirectUris(env);
  const key = `${issuer}\n${allowed.join(",")}`;
  let server = servers.get(key);
  if (!server) {
    if (servers.size >= MAX_SERVERS) servers.delete(servers.keys().next().value!);
    servers.set(key, (server = buildServer(issuer, allowed)));
  }
  return server;
}

export const oauthHelpers = (env: Env, requestUrl: string): OAuthHelpers => authorizationServer(env, requestUrl).getOAuthApi(env);
