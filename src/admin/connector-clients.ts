import type { ClientInfo } from "@cloudflare/workers-oauth-provider";
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { CALLBACK_URL_PATTERN } from "../http/url-shape";
import { CLIENT_ID_PATTERN } from "../identity/tokens";
import { redirectUriProblem } from "../oauth/redirect-uris";
import { removeProviderClient } from "../oauth/revoke";
import { oauthHelpers } from "../oauth/server";
import {
  allClientRedirectUris,
  clientRedirectUris,
  deleteClientRedirectUri,
  deleteClientRedirectUris,
  insertClientRedirectUri,
  revokeClientGrants,
} from "../storage/oauth-clients";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, notFound } from "./openapi";
import { resource } from "./operation";

/**
 * OAuth clients of the connector flow. The provider keeps registered clients in KV; D1 keeps the
 * redirect URIs the operator allowed for each client (a client registered here, by itself, or known
 * only by its metadata-document URL).
 */

const ConnectorClient = z
  .object({
    clientId: z.string(),
    name: z.string().nullable(),
    public: z
      .boolean()
      .nullable()
      .openapi({ description: "No client secret (PKCE only); null for a client known only by its metadata document." }),
    redirectUris: z.array(z.string()).openapi({ description: "What the client registered." }),
    allowedRedirectUris: z
      .array(z.string())
      .openapi({ description: "What the operator allowed for this client, besides ALLOWED_REDIRECT_URIS." }),
    registeredAt: z.string().nullable(),
  })
  .openapi("ConnectorClient");
const ConnectorClientWithSecret = ConnectorClient.extend({
  clientSecret: z.string().optional().openapi({ description: "Confidential clients only: shown once." }),
}).openapi("ConnectorClientWithSecret");

const RedirectUri = z
  .string()
  .max(2048)
  .superRefine((uri, ctx) => {
    const problem = redirectUriProblem(uri);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({ format: "uri", pattern: CALLBACK_URL_PATTERN });
const ConnectorClientCreate = z.strictObject({
  name: z.string().trim().min(1).max(200),
  redirectUris: z.array(RedirectUri).min(1).max(20),
  confidential: z
    .boolean()
    .default(false)
    .openapi({ description: "Issue a client secret (client_secret_basic) instead of a public client." }),
});
const RedirectUriBody = z.strictObject({ redirectUri: RedirectUri });
const IdParam = z.object({
  // The provider keys storage by the client ID, so the bound of every client ID holds here too.
  clientId: z
    .string()
    .regex(CLIENT_ID_PATTERN)
    .openapi({
      param: { name: "clientId", in: "path" },
      description: "1-255 visible characters, URL-encoded; a metadata-document client's ID is its URL.",
    }),
});
const UriQuery = z.object({
  redirectUri: z
    .string()
    .min(1)
    .max(2048)
    .openapi({ param: { name: "redirectUri", in: "query" } }),
});

function view(clientId: string, info: ClientInfo | null, allowed: string[]) {
  return {
    clientId,
    name: info?.clientName ?? null,
    public: info ? info.tokenEndpointAuthMethod === "none" : null,
    redirectUris: info?.redirectUris ?? [],
    allowedRedirectUris: allowed,
    registeredAt: info?.registrationDate === undefined ? null : new Date(info.registrationDate * 1000).toISOString(),
  };
}

/**
 * Waits for the audited D1 batch of a change already made in the provider's KV; should the batch fail,
 * `undo` takes the KV change back before the error is answered, so no change stays without its audit row.
 */
async function undoUnlessWritten(batch: Promise<unknown>, undo: () => Promise<unknown>): Promise<void> {
  try {
    await batch;
  } catch (error) {
    await undo();
    throw error;
  }
}

// A metadata-document client's ID is an https URL; looking it up would fetch a third party's document.
const isMetadataDocumentId = (clientId: string) => clientId.startsWith("https://");

export function connectorClientRoutes(app: OpenAPIHono<AdminEnv>): void {
  /** The provider's record (null for a metadata-document client) and the operator's allowed URIs; null when neither exists. */
  async function load(env: AdminEnv["Bindings"], url: string, clientId: string) {
    const [info, allowed] = await Promise.all([
      isMetadataDocumentId(clientId) ? null : oauthHelpers(env, url).lookupClient(clientId),
      clientRedirectUris(env.DB, clientId),
    ]);
    return info || allowed.length > 0 ? { clientId, info, allowed } : null;
  }
  const clients = resource(app, {
    tag: "Connector clients",
    path: "/connector-clients",
    noun: "connector client",
    params: IdParam,
    item: ConnectorClient,
    load: (c, { params }) => load(c.env, c.req.url, params.clientId),
    view: (client) => view(client.clientId, client.info, client.allowed),
  });

  clients.list("connectorClients", { summary: "List the connector flow's OAuth clients", description: "Clients by ID." }, async (c) => {
    const oauth = oauthHelpers(c.env, c.req.url);
    const registered: ClientInfo[] = [];
    for (let cursor: string | undefined; ;) {
      const page = await oauth.listClients({ limit: 1000, cursor });
      registered.push(...page.items);
      if (!page.cursor) break;
      cursor = page.cursor;
    }
    const allowed = await allClientRedirectUris(c.env.DB);
    const byId = new Map(registered.map((r) => [r.clientId, r]));
    return [...new Set([...byId.keys(), ...allowed.keys()])]
      .sort()
      .map((clientId) => ({ clientId, info: byId.get(clientId) ?? null, allowed: allowed.get(clientId) ?? [] }));
  });
  clients.get("One connector client", "The client.");

  clients.create(
    {
      summary: "Register a connector client with its redirect URIs (all allowed for it)",
      description: "Registered.",
      body: ConnectorClientCreate,
      schema: ConnectorClientWithSecret,
    },
    async (c, input) => {
      const oauth = oauthHelpers(c.env, c.req.url);
      // The provider picks the ID as it writes the client to KV, so the audited D1 batch can only follow.
      const created = await oauth.createClient({
        clientName: input.name,
        redirectUris: input.redirectUris,
        tokenEndpointAuthMethod: input.confidential ? "client_secret_basic" : "none",
        grantTypes: ["authorization_code", "refresh_token"],
        responseTypes: ["code"],
      });
      const at = new Date().toISOString();
      const uris = [...new Set(input.redirectUris)];
      await undoUnlessWritten(
        c.env.DB.batch([
          ...uris.map((uri) => insertClientRedirectUri(c.env.DB, created.clientId, uri, at)),
          audit(c, "connector_client.create", created.clientId, { name: input.name, redirectUris: uris, confidential: input.confidential }),
        ]),
        () => oauth.deleteClient(created.clientId),
      );
      return { ...view(created.clientId, created, uris), ...(created.clientSecret ? { clientSecret: created.clientSecret } : {}) };
    },
  );

  // A metadata-document client may be allowed a URI before it ever authorized, so this route does not need a stored client.
  clients.operation(
    {
      method: "post",
      path: "/connector-clients/{clientId}/redirect-uris",
      params: IdParam,
      body: RedirectUriBody,
      summary: "Allow one more redirect URI for a client",
      description: "The client.",
      schema: ConnectorClient,
    },
    async (c, { params: { clientId }, body: { redirectUri } }) => {
      const client = await load(c.env, c.req.url, clientId);
      if (!client && !isMetadataDocumentId(clientId)) return notFound(c, "such connector client");
      if (client?.allowed.includes(redirectUri)) return adminError(c, 409, `${redirectUri} is already allowed for ${clientId}.`);
      // A client registered here must also list the URI, or the provider refuses it before our allow-list is asked.
      const registered = client?.info?.redirectUris;
      const extendsRegistration = registered !== undefined && !registered.includes(redirectUri);
      const oauth = oauthHelpers(c.env, c.req.url);
      if (extendsRegistration) await oauth.updateClient(clientId, { redirectUris: [...registered, redirectUri] });
      await undoUnlessWritten(
        c.env.DB.batch([
          insertClientRedirectUri(c.env.DB, clientId, redirectUri, new Date().toISOString()),
          audit(c, "connector_client.redirect_uri.add", clientId, { redirectUri }),
        ]),
        async () => {
          if (extendsRegistration) await oauth.updateClient(clientId, { redirectUris: registered });
        },
      );
      const updated = (await load(c.env, c.req.url, clientId))!;
      return view(clientId, updated.info, updated.allowed);
    },
  );

  clients.operation(
    {
      method: "delete",
      path: "/connector-clients/{clientId}/redirect-uris",
      params: IdParam,
      query: UriQuery,
      summary: "Stop allowing a redirect URI for a client",
      description: "The client.",
      schema: ConnectorClient,
    },
    async (c, { params: { clientId }, query: { redirectUri } }) => {
      const client = await load(c.env, c.req.url, clientId);
      if (!client?.allowed.includes(redirectUri)) return adminError(c, 404, `${redirectUri} is not allowed for ${clientId}.`);
      await c.env.DB.batch([
        deleteClientRedirectUri(c.env.DB, clientId, redirectUri),
        audit(c, "connector_client.redirect_uri.remove", clientId, { redirectUri }),
      ]);
      return view(
        clientId,
        client.info,
        client.allowed.filter((uri) => uri !== redirectUri),
      );
    },
  );

  clients.remove(
    { summary: "Delete a client: its tokens stop working within 5 s and its sessions end", description: "Deleted." },
    async (c, { clientId }) => {
      await c.env.DB.batch([
        revokeClientGrants(c.env.DB, clientId, new Date().toISOString()),
        deleteClientRedirectUris(c.env.DB, clientId),
        audit(c, "connector_client.delete", clientId),
      ]);
      await removeProviderClient(c.env, c.req.url, clientId);
    },
  );
}
