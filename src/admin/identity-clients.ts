import { z, type OpenAPIHono } from "@hono/zod-openapi";
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
import { ENTITY_ID_PATTERN } from "../storage/entities";
import { CLIENT_ID_PATTERN } from "../identity/tokens";
import { findOrganization } from "../storage/organizations";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, OrganizationId, SafeId, Timestamp } from "./openapi";
import { resource } from "./operation";

// External issuers choose their own client IDs: any visible ASCII, no spaces or control characters.
const ClientId = z.string().regex(CLIENT_ID_PATTERN, "must be 1-255 visible ASCII characters");
const Issuer = z.string().min(1).openapi({
  description: "`realm` (the built-in realm) or the external issuer's exact `iss`, which must be OIDC_ISSUER.",
  example: REALM_ISSUER_KEY,
});

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
  // The document says both rules as the two shapes a body may take (anyOf), which the checks cannot produce themselves.
  .refine((input) => input.issuer !== REALM_ISSUER_KEY || input.clientId === undefined || SafeId.safeParse(input.clientId).success, {
    path: ["clientId"],
    message: "a realm client ID must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit",
  })
  .refine((input) => input.issuer === REALM_ISSUER_KEY || input.clientId !== undefined, {
    path: ["clientId"],
    message: "required for an external issuer",
  })
  .openapi({
    anyOf: [
      { properties: { issuer: { enum: [REALM_ISSUER_KEY] }, clientId: { pattern: ENTITY_ID_PATTERN.source } } },
      { properties: { issuer: { not: { enum: [REALM_ISSUER_KEY] } } }, required: ["issuer", "clientId"] },
    ],
  });
const IdentityClientPatch = z.strictObject({ organizationId: OrganizationId.nullable() });
const IdParam = z.object({ clientId: ClientId.openapi({ param: { name: "clientId", in: "path" } }) });
const IssuerQuery = z.object({
  issuer: Issuer.default(REALM_ISSUER_KEY).openapi({ param: { name: "issuer", in: "query" } }),
});

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
    adminError(
      c,
      400,
      `${issuer} is not a trusted issuer; use ${REALM_ISSUER_KEY}${c.env.OIDC_ISSUER ? ` or ${c.env.OIDC_ISSUER}` : " (OIDC_ISSUER is unset)"}.`,
      [{ field: "issuer", message: "not a trusted issuer" }],
    );
  const trusted = (env: AdminEnv["Bindings"], issuer: string) => issuer === REALM_ISSUER_KEY || issuer === env.OIDC_ISSUER;
  const noOrganization = (c: Context<AdminEnv>, id: string | null) =>
    adminError(c, 400, `No organization ${id}.`, [{ field: "organizationId", message: `no organization ${id}` }]);

  const clients = resource(app, {
    tag: "Identity clients",
    path: "/identity-clients",
    noun: "identity client",
    params: IdParam,
    itemQuery: IssuerQuery,
    item: IdentityClient,
    load: (c, { params, query }): Promise<IdentityClientView | null> => load(c.env.DB, query.issuer, params.clientId),
    view,
  });

  clients.list(
    "identityClients",
    { summary: "List identity clients of every issuer (no secrets)", description: "Clients by issuer and ID." },
    (c) => listIdentityClients(c.env.DB),
  );
  clients.get("One identity client", "The client.");

  clients.create(
    {
      summary: "Create an identity client; a realm client's secret is shown once",
      description: "Created (a realm client with its secret).",
      body: IdentityClientCreate,
      schema: IdentityClientWithSecret,
    },
    async (c, input) => {
      if (!trusted(c.env, input.issuer)) return untrustedIssuer(c, input.issuer);
      const clientId = input.clientId ?? randomId("client-");
      if (await load(c.env.DB, input.issuer, clientId))
        return adminError(c, 409, `Identity client ${clientId} of ${input.issuer} already exists.`);
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
      return {
        issuer: input.issuer,
        clientId,
        organizationId: input.organizationId,
        createdAt,
        ...(clientSecret === undefined ? {} : { clientSecret }),
      };
    },
  );

  clients.on(
    {
      method: "patch",
      body: IdentityClientPatch,
      summary: "Move an identity client to another organization (or to none)",
      description: "Moved.",
    },
    async (c, row, { body: { organizationId } }) => {
      if (!(await organizationExists(c.env.DB, organizationId))) return noOrganization(c, organizationId);
      await c.env.DB.batch([
        setClientOrganization(c.env.DB, row.issuer, row.client_id, organizationId),
        audit(c, "identity_client.move", row.client_id, { issuer: row.issuer, from: row.organization_id, to: organizationId }),
      ]);
      return view({ ...row, organization_id: organizationId });
    },
  );

  // Only the realm's clients have a secret here, so rotating one takes no issuer.
  resource(app, {
    ...clients.spec,
    noun: "realm identity client",
    itemQuery: undefined,
    load: (c, { params }) => load(c.env.DB, REALM_ISSUER_KEY, params.clientId),
  }).on(
    {
      method: "post",
      path: "/secret",
      schema: IdentityClientWithSecret,
      summary: "Rotate a realm client's secret; the old one stops working at once",
      description: "The new secret, shown once.",
    },
    async (c, row) => {
      const clientSecret = randomSecret();
      await c.env.DB.batch([
        setClientSecret(c.env.DB, row.client_id, await sha256Hex(clientSecret)),
        audit(c, "identity_client.rotate_secret", row.client_id),
      ]);
      return { ...view(row), clientSecret };
    },
  );

  clients.remove({ summary: "Delete an identity client", description: "Deleted." }, async (c, row) => {
    await c.env.DB.batch([
      deleteIdentityClient(c.env.DB, row.issuer, row.client_id),
      audit(c, "identity_client.delete", row.client_id, { issuer: row.issuer }),
    ]);
  });
}
