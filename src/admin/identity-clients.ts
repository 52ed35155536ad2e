import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { sha256Hex } from "../crypto/hash";
import { randomId, randomSecret } from "../crypto/random";
import {
  REALM_ISSUER_KEY,
  deleteIdentityClient,
  findIdentityClient,
  insertIdentityClient,
  listIdentityClients,
  setClientOrganization,
  setClientSecret,
  type IdentityClientView,
} from "../storage/identity-clients";
import { CLIENT_ID_PATTERN } from "../identity/tokens";
import { findOrganization } from "../storage/organizations";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, ERRORS, json, jsonBody, notFound, OrganizationId, SafeId, Timestamp } from "./openapi";

// External issuers choose their own client IDs: any visible ASCII, no spaces or control characters.
const ClientId = z.string().regex(CLIENT_ID_PATTERN, "must be 1-255 visible ASCII characters");
const Issuer = z
  .string()
  .min(1)
  .openapi({ description: "`realm` (the built-in realm) or the external issuer's exact `iss`, which must be OIDC_ISSUER.", example: REALM_ISSUER_KEY });

const IdentityClient = z
  .object({
    issuer: Issuer,
    clientId: ClientId,
    organizationId: OrganizationId.nullable().openapi({ description: "null: the client gets tokens, but /v1/sse refuses them." }),
    createdAt: Timestamp,
  })
  .openapi("IdentityClient");
const IdentityClientWithSecret = IdentityClient.extend({
  clientSecret: z.string().optional().openapi({ description: "Realm clients only; shown once: only its SHA-256 is stored." }),
}).openapi("IdentityClientWithSecret");

const IdentityClientCreate = z
  .strictObject({
    issuer: Issuer.default(REALM_ISSUER_KEY),
    clientId: ClientId.optional().openapi({ description: "Chosen ID; a random one when omitted (realm clients only)." }),
    organizationId: OrganizationId.nullable(),
  })
  // Realm client IDs travel in Basic credentials and logs; an external client is named as its issuer names it.
  .refine((input) => input.issuer !== REALM_ISSUER_KEY || input.clientId === undefined || SafeId.safeParse(input.clientId).success, {
    path: ["clientId"],
    message: "a realm client ID must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit",
  })
  .refine((input) => input.issuer === REALM_ISSUER_KEY || input.clientId !== undefined, { path: ["clientId"], message: "required for an external issuer" });
const IdentityClientPatch = z.strictObject({ organizationId: OrganizationId.nullable() });
const IdParam = z.object({ clientId: ClientId.openapi({ param: { name: "clientId", in: "path" } }) });
const IssuerQuery = z.object({
  issuer: Issuer.default(REALM_ISSUER_KEY).openapi({ param: { name: "issuer", in: "query" } }),
});

const tags = ["Identity clients"];

export function identityClientRoutes(app: OpenAPIHono<AdminEnv>): void {
  const load = findIdentityClient;
  const view = (row: IdentityClientView) => ({
    issuer: row.issuer,
    clientId: row.client_id,
    organizationId: row.organization_id,
    createdAt: row.created_at,
  });
  const organizationExists = async (db: D1Database, id: string | null) => id === null || (await findOrganization(db, id)) !== null;
  // A client of an issuer this deployment does not trust could never get in: refuse it while the operator is looking.
  const untrustedIssuer = (c: Context<AdminEnv>, issuer: string) =>
    adminError(c, 400, `${issuer} is not a trusted issuer; use ${REALM_ISSUER_KEY}${c.env.OIDC_ISSUER ? ` or ${c.env.OIDC_ISSUER}` : " (OIDC_ISSUER is unset)"}.`, [
      { field: "issuer", message: "not a trusted issuer" },
    ]);
  const trusted = (env: AdminEnv["Bindings"], issuer: string) => issuer === REALM_ISSUER_KEY || issuer === env.OIDC_ISSUER;
  const noOrganization = (c: Context<AdminEnv>, id: string | null) =>
    adminError(c, 400, `No organization ${id}.`, [{ field: "organizationId", message: `no organization ${id}` }]);

  app.openapi(
    createRoute({ method: "get", path: "/identity-clients", tags, summary: "List identity clients of every issuer (no secrets)", responses: { 200: { description: "Clients by issuer and ID.", content: json(z.object({ identityClients: z.array(IdentityClient) })) }, ...ERRORS } }),
    async (c) => c.json({ identityClients: (await listIdentityClients(c.env.DB)).map(view) }, 200),
  );

  app.openapi(
    createRoute({ method: "get", path: "/identity-clients/{clientId}", tags, summary: "One identity client", request: { params: IdParam, query: IssuerQuery }, responses: { 200: { description: "The client.", content: json(IdentityClient) }, ...ERRORS } }),
    async (c) => {
      const row = await load(c.env.DB, c.req.valid("query").issuer, c.req.valid("param").clientId);
      return row ? c.json(view(row), 200) : notFound(c, "such identity client");
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/identity-clients", tags, summary: "Create an identity client; a realm client's secret is shown once", request: jsonBody(IdentityClientCreate), responses: { 201: { description: "Created (a realm client with its secret).", content: json(IdentityClientWithSecret) }, ...ERRORS } }),
    async (c) => {
      const input = c.req.valid("json");
      if (!trusted(c.env, input.issuer)) return untrustedIssuer(c, input.issuer);
      const clientId = input.clientId ?? randomId("client-");
      if (await load(c.env.DB, input.issuer, clientId)) return adminError(c, 409, `Identity client ${clientId} of ${input.issuer} already exists.`);
      if (!(await organizationExists(c.env.DB, input.organizationId))) return noOrganization(c, input.organizationId);
      // External clients authenticate at their own issuer: only the realm's clients get a secret here.
      const clientSecret = input.issuer === REALM_ISSUER_KEY ? randomSecret() : undefined;
      const createdAt = new Date().toISOString();
      await c.env.DB.batch([
        insertIdentityClient(c.env.DB, {
          issuer: input.issuer,
          client_id: clientId,
          secret_hash: clientSecret === undefined ? null : await sha256Hex(clientSecret),
          organization_id: input.organizationId,
          created_at: createdAt,
        }),
        audit(c, "identity_client.create", clientId, { issuer: input.issuer, organizationId: input.organizationId }),
      ]);
      return c.json({ issuer: input.issuer, clientId, organizationId: input.organizationId, createdAt, ...(clientSecret === undefined ? {} : { clientSecret }) }, 201);
    },
  );

  app.openapi(
    createRoute({ method: "patch", path: "/identity-clients/{clientId}", tags, summary: "Move an identity client to another organization (or to none)", request: { params: IdParam, query: IssuerQuery, ...jsonBody(IdentityClientPatch) }, responses: { 200: { description: "Moved.", content: json(IdentityClient) }, ...ERRORS } }),
    async (c) => {
      const { clientId } = c.req.valid("param");
      const { issuer } = c.req.valid("query");
      const { organizationId } = c.req.valid("json");
      const row = await load(c.env.DB, issuer, clientId);
      if (!row) return notFound(c, "such identity client");
      if (!(await organizationExists(c.env.DB, organizationId))) return noOrganization(c, organizationId);
      await c.env.DB.batch([
        setClientOrganization(c.env.DB, issuer, clientId, organizationId),
        audit(c, "identity_client.move", clientId, { issuer, from: row.organization_id, to: organizationId }),
      ]);
      return c.json(view({ ...row, organization_id: organizationId }), 200);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/identity-clients/{clientId}/secret", tags, summary: "Rotate a realm client's secret; the old one stops working at once", request: { params: IdParam }, responses: { 200: { description: "The new secret, shown once.", content: json(IdentityClientWithSecret) }, ...ERRORS } }),
    async (c) => {
      const { clientId } = c.req.valid("param");
      const row = await load(c.env.DB, REALM_ISSUER_KEY, clientId);
      if (!row) return notFound(c, "such realm identity client");
      const clientSecret = randomSecret();
      await c.env.DB.batch([setClientSecret(c.env.DB, clientId, await sha256Hex(clientSecret)), audit(c, "identity_client.rotate_secret", clientId)]);
      return c.json({ ...view(row), clientSecret }, 200);
    },
  );

  app.openapi(
    createRoute({ method: "delete", path: "/identity-clients/{clientId}", tags, summary: "Delete an identity client", request: { params: IdParam, query: IssuerQuery }, responses: { 204: { description: "Deleted." }, ...ERRORS } }),
    async (c) => {
      const { clientId } = c.req.valid("param");
      const { issuer } = c.req.valid("query");
      if (!(await load(c.env.DB, issuer, clientId))) return notFound(c, "such identity client");
      await c.env.DB.batch([deleteIdentityClient(c.env.DB, issuer, clientId), audit(c, "identity_client.delete", clientId, { issuer })]);
      return c.body(null, 204);
    },
  );
}
