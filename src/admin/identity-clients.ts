import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { sha256Hex } from "../crypto/hash";
import { randomId, randomSecret } from "../crypto/random";
import {
  deleteIdentityClient,
  findIdentityClient,
  insertIdentityClient,
  listIdentityClients,
  setClientOrganization,
  setClientSecret,
} from "../storage/identity-clients";
import { findOrganization } from "../storage/organizations";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, ERRORS, json, jsonBody, notFound, OrganizationId, SafeId, Timestamp } from "./openapi";

const IdentityClient = z
  .object({
    clientId: SafeId,
    organizationId: OrganizationId.nullable().openapi({ description: "null: the client gets tokens, but /v1/sse refuses them." }),
    createdAt: Timestamp,
  })
  .openapi("IdentityClient");
const IdentityClientWithSecret = IdentityClient.extend({
  clientSecret: z.string().openapi({ description: "Shown once: only its SHA-256 is stored." }),
}).openapi("IdentityClientWithSecret");

const IdentityClientCreate = z.strictObject({
  clientId: SafeId.optional().openapi({ description: "Chosen ID; a random one when omitted." }),
  organizationId: OrganizationId.nullable(),
});
const IdentityClientPatch = z.strictObject({ organizationId: OrganizationId.nullable() });
const IdParam = z.object({ clientId: SafeId.openapi({ param: { name: "clientId", in: "path" } }) });

const tags = ["Identity clients"];

export function identityClientRoutes(app: OpenAPIHono<AdminEnv>): void {
  const load = findIdentityClient;
  const view = (row: { client_id: string; organization_id: string | null; created_at: string }) => ({
    clientId: row.client_id,
    organizationId: row.organization_id,
    createdAt: row.created_at,
  });
  const organizationExists = async (db: D1Database, id: string | null) => id === null || (await findOrganization(db, id)) !== null;
  const noOrganization = (c: Context<AdminEnv>, id: string | null) =>
    adminError(c, 400, `No organization ${id}.`, [{ field: "organizationId", message: `no organization ${id}` }]);

  app.openapi(
    createRoute({ method: "get", path: "/identity-clients", tags, summary: "List the realm's identity clients (no secrets)", responses: { 200: { description: "Clients by ID.", content: json(z.object({ identityClients: z.array(IdentityClient) })) }, ...ERRORS } }),
    async (c) => c.json({ identityClients: (await listIdentityClients(c.env.DB)).map(view) }, 200),
  );

  app.openapi(
    createRoute({ method: "get", path: "/identity-clients/{clientId}", tags, summary: "One identity client", request: { params: IdParam }, responses: { 200: { description: "The client.", content: json(IdentityClient) }, ...ERRORS } }),
    async (c) => {
      const row = await load(c.env.DB, c.req.valid("param").clientId);
      return row ? c.json(view(row), 200) : notFound(c, "such identity client");
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/identity-clients", tags, summary: "Create an identity client; its secret is shown once", request: jsonBody(IdentityClientCreate), responses: { 201: { description: "Created, with its secret.", content: json(IdentityClientWithSecret) }, ...ERRORS } }),
    async (c) => {
      const input = c.req.valid("json");
      const clientId = input.clientId ?? randomId("client-");
      if (await load(c.env.DB, clientId)) return adminError(c, 409, `Identity client ${clientId} already exists.`);
      if (!(await organizationExists(c.env.DB, input.organizationId))) return noOrganization(c, input.organizationId);
      const clientSecret = randomSecret();
      const createdAt = new Date().toISOString();
      await c.env.DB.batch([
        insertIdentityClient(c.env.DB, { client_id: clientId, secret_hash: await sha256Hex(clientSecret), organization_id: input.organizationId, created_at: createdAt }),
        audit(c, "identity_client.create", clientId, { organizationId: input.organizationId }),
      ]);
      return c.json({ clientId, organizationId: input.organizationId, createdAt, clientSecret }, 201);
    },
  );

  app.openapi(
    createRoute({ method: "patch", path: "/identity-clients/{clientId}", tags, summary: "Move an identity client to another organization (or to none)", request: { params: IdParam, ...jsonBody(IdentityClientPatch) }, responses: { 200: { description: "Moved.", content: json(IdentityClient) }, ...ERRORS } }),
    async (c) => {
      const { clientId } = c.req.valid("param");
      const { organizationId } = c.req.valid("json");
      const row = await load(c.env.DB, clientId);
      if (!row) return notFound(c, "such identity client");
      if (!(await organizationExists(c.env.DB, organizationId))) return noOrganization(c, organizationId);
      await c.env.DB.batch([setClientOrganization(c.env.DB, clientId, organizationId), audit(c, "identity_client.move", clientId, { from: row.organization_id, to: organizationId })]);
      return c.json(view({ ...row, organization_id: organizationId }), 200);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/identity-clients/{clientId}/secret", tags, summary: "Rotate an identity client's secret; the old one stops working at once", request: { params: IdParam }, responses: { 200: { description: "The new secret, shown once.", content: json(IdentityClientWithSecret) }, ...ERRORS } }),
    async (c) => {
      const { clientId } = c.req.valid("param");
      const row = await load(c.env.DB, clientId);
      if (!row) return notFound(c, "such identity client");
      const clientSecret = randomSecret();
      await c.env.DB.batch([setClientSecret(c.env.DB, clientId, await sha256Hex(clientSecret)), audit(c, "identity_client.rotate_secret", clientId)]);
      return c.json({ ...view(row), clientSecret }, 200);
    },
  );

  app.openapi(
    createRoute({ method: "delete", path: "/identity-clients/{clientId}", tags, summary: "Delete an identity client", request: { params: IdParam }, responses: { 204: { description: "Deleted." }, ...ERRORS } }),
    async (c) => {
      const { clientId } = c.req.valid("param");
      if (!(await load(c.env.DB, clientId))) return notFound(c, "such identity client");
      await c.env.DB.batch([deleteIdentityClient(c.env.DB, clientId), audit(c, "identity_client.delete", clientId)]);
      return c.body(null, 204);
    },
  );
}
