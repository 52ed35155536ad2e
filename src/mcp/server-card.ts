import { surfaceOrigin, type Env } from "../env";
import { MCP_ENDPOINTS } from "../http/mcp-endpoints";
import { MCP_SCOPE } from "../identity/tokens";
import { branding } from "../oauth/branding";
import { POLICY_PATHS } from "../oauth/policies";
import { KNOWN_PROTOCOL_VERSIONS } from "./request-checks";
import { endpointToolNames, SERVER_INFO } from "./server";
import { LEGACY_SSE_PROTOCOL_VERSION } from "./sse-transport";

/**
 * The server card: what a client or a directory learns of this deployment before connecting, in the shape of the MCP
 * Server Card (scripts/schemas/server-card.schema.json, from the Server Cards extension), served where clients look
 * for it. Its identity and remotes are the MCP Registry's `server.json` too (`npm run admin -- registry`). What the card
 * itself has no field for (the tools, the authorization, the policies) is under `_meta`, named by the service's own
 * namespace.
 */

export const SERVER_CARD_PATH = "/.well-known/mcp/server-card.json";
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
export const SERVICE_DESCRIPTION = "Answers travellers' questions from a hotel group's own content: its hotels' FAQs, in their language.";

/** The registry's name pattern: a reverse-DNS namespace, one slash, a name. */
const REGISTRY_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/**
 * The service's name in the MCP Registry: `REGISTRY_NAME`, or the MCP host's labels reversed
 * (`mcp.example.com` → `com.example.mcp/hospitality-content`), the namespace a registry proves by that domain.
 */
export function registryName(env: Env, origin: string): string {
  const valid = (name: string | undefined): name is string => name !== undefined && REGISTRY_NAME_PATTERN.test(name) && name.length <= 200;
  const configured = env.REGISTRY_NAME?.trim();
  if (valid(configured)) return configured;
  const fromHost = `${new URL(origin).hostname.split(".").reverse().join(".")}/${SERVER_INFO.name}`;
  // An address (127.0.0.1, [::1]) names no domain to prove: the service's own name stands in.
  return valid(fromHost) && /[a-z]/i.test(new URL(origin).hostname) ? fromHost : `${SERVER_INFO.name}/${SERVER_INFO.name}`;
}

/** The namespace of the card's `_meta` keys: the service's own, whatever its registry name (which may fall under MCP's reserved ones). */
const META = SERVER_INFO.name;

export function serverCard(env: Env, requestUrl: string) {
  const origin = surfaceOrigin(env.BASE_URL, requestUrl);
  const name = registryName(env, origin);
  const streamable = [...KNOWN_PROTOCOL_VERSIONS].filter((version) => version !== LEGACY_SSE_PROTOCOL_VERSION);
  const brand = branding(env);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name,
    title: brand.name,
    description: SERVICE_DESCRIPTION,
    version: SERVER_INFO.version,
    remotes: MCP_ENDPOINTS.flatMap((endpoint) => [
      { type: "streamable-http" as const, url: `${origin}${endpoint}`, supportedProtocolVersions: streamable },
      { type: "sse" as const, url: `${origin}${endpoint}`, supportedProtocolVersions: [LEGACY_SSE_PROTOCOL_VERSION] },
    ]),
    _meta: {
      // Which tools each URL serves: SPEC's at /v1/sse, and the search and fetch ChatGPT requires at /v1/chatgpt.
      [`${META}/tools`]: Object.fromEntries(MCP_ENDPOINTS.map((endpoint) => [`${origin}${endpoint}`, endpointToolNames(endpoint)])),
      // OAuth 2.1 as the MCP authorization specification says: each URL's protected-resource metadata names the servers.
      [`${META}/authorization`]: {
        required: true,
        scopes: [MCP_SCOPE],
        protectedResourceMetadata: MCP_ENDPOINTS.map((endpoint) => `${origin}/.well-known/oauth-protected-resource${endpoint}`),
      },
      [`${META}/policies`]: {
        privacy: `${origin}${POLICY_PATHS.privacy}`,
        terms: `${origin}${POLICY_PATHS.terms}`,
        ...(brand.supportUrl ? { support: brand.supportUrl } : {}),
      },
    },
  };
}
