import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { entitiesByIdOrBrand, findEntity } from "../storage/entities";
import {
  deleteOrganization,
  deleteScope,
  insertOrganization,
  insertScope,
  listOrganizations,
  renameOrganization,
  type OrganizationRow,
} from "../storage/organizations";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, ERRORS, json, jsonBody, notFound, OrganizationId, SafeId, Timestamp } from "./openapi";

const Organization = z
  .object({
    id: OrganizationId,
    name: z.string(),
    scope: z.array(z.string()).openapi({ description: "Entity IDs the organization sees; a brand brings its properties." }),
    users: z.number().int(),
    identityClients: z.number().int(),
    createdAt: Timestamp,
  })
  .openapi("Organization");

const OrganizationName = z.string().trim().min(1).max(200);
const OrganizationCreate = z.strictObject({ id: OrganizationId, name: OrganizationName, scope: z.array(SafeId).max(1000).default([]) });
const OrganizationPatch = z.strictObject({ name: OrganizationName });
const ScopeAdd = z.strictObject({ entityId: SafeId });
const IdParam = z.object({ id: OrganizationId.openapi({ param: { name: "id", in: "path" } }) });
const ScopeParam = IdParam.extend({ entityId: SafeId.openapi({ param: { name: "entityId", in: "path" } }) });

const view = (row: OrganizationRow) => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  users: row.users,
  identityClients: row.clients,
  createdAt: row.created_at,
});

const tags = ["Organizations"];

export function organizationRoutes(app: OpenAPIHono<AdminEnv>): void {
  const load = async (db: D1Database, id: string) => (await listOrganizations(db, id))[0];

  app.openapi(
    createRoute({ method: "get", path: "/organizations", tags, summary: "List organizations with their scope", responses: { 200: { description: "Organizations by ID.", content: json(z.object({ organizations: z.array(Organization) })) }, ...ERRORS } }),
    async (c) => c.json({ organizations: (await listOrganizations(c.env.DB)).map(view) }, 200),
  );

  app.openapi(
    createRoute({ method: "get", path: "/organizations/{id}", tags, summary: "One organization", request: { params: IdParam }, responses: { 200: { description: "The organization.", content: json(Organization) }, ...ERRORS } }),
    async (c) => {
      const row = await load(c.env.DB, c.req.valid("param").id);
      return row ? c.json(view(row), 200) : notFound(c, "such organization");
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/organizations", tags, summary: "Create an organization, optionally with its scope", request: jsonBody(OrganizationCreate), responses: { 201: { description: "Created.", content: json(Organization) }, ...ERRORS } }),
    async (c) => {
      const { id, name, scope } = c.req.valid("json");
      if (await load(c.env.DB, id)) return adminError(c, 409, `Organization ${id} already exists.`);
      const known = new Set((await entitiesByIdOrBrand(c.env.DB, scope, [])).map((e) => e.id));
      const unknown = scope.flatMap((entityId, i) => (known.has(entityId) ? [] : [{ field: `scope.${i}`, message: `no entity ${entityId}` }]));
      if (unknown.length > 0) return adminError(c, 400, "The scope names entities that do not exist.", unknown);
      const at = new Date().toISOString();
      const unique = [...new Set(scope)];
      await c.env.DB.batch([
        insertOrganization(c.env.DB, { id, name, created_at: at }),
        ...unique.map((entityId) => insertScope(c.env.DB, id, entityId)),
        audit(c, "organization.create", id, { name, scope: unique }),
      ]);
      return c.json(view((await load(c.env.DB, id))!), 201);
    },
  );

  app.openapi(
    createRoute({ method: "patch", path: "/organizations/{id}", tags, summary: "Rename an organization", request: { params: IdParam, ...jsonBody(OrganizationPatch) }, responses: { 200: { description: "Renamed.", content: json(Organization) }, ...ERRORS } }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { name } = c.req.valid("json");
      if (!(await load(c.env.DB, id))) return notFound(c, "such organization");
      await c.env.DB.batch([renameOrganization(c.env.DB, id, name), audit(c, "organization.rename", id, { name })]);
      return c.json(view((await load(c.env.DB, id))!), 200);
    },
  );

  app.openapi(
    createRoute({ method: "delete", path: "/organizations/{id}", tags, summary: "Delete an organization that has no users and no identity clients", request: { params: IdParam }, responses: { 204: { description: "Deleted." }, ...ERRORS } }),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await load(c.env.DB, id);
      if (!row) return notFound(c, "such organization");
      // Deleting would silently cut users and clients off; the operator moves or removes them first.
      if (row.users > 0 || row.clients > 0) {
        return adminError(c, 409, `Organization ${id} still has ${row.users} users and ${row.clients} identity clients; move or remove them first.`);
      }
      await c.env.DB.batch([deleteOrganization(c.env.DB, id), audit(c, "organization.delete", id)]);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/organizations/{id}/scope", tags, summary: "Add an entity to an organization's scope", request: { params: IdParam, ...jsonBody(ScopeAdd) }, responses: { 200: { description: "The organization with its new scope.", content: json(Organization) }, ...ERRORS } }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { entityId } = c.req.valid("json");
      const row = await load(c.env.DB, id);
      if (!row) return notFound(c, "such organization");
      if (!(await findEntity(c.env.DB, entityId))) return adminError(c, 400, `No entity ${entityId}.`, [{ field: "entityId", message: `no entity ${entityId}` }]);
      if (row.scope.includes(entityId)) return adminError(c, 409, `${entityId} is already in ${id}'s scope.`);
      await c.env.DB.batch([insertScope(c.env.DB, id, entityId), audit(c, "organization.scope.add", id, { entityId })]);
      return c.json(view((await load(c.env.DB, id))!), 200);
    },
  );

  app.openapi(
    createRoute({ method: "delete", path: "/organizations/{id}/scope/{entityId}", tags, summary: "Remove an entity from an organization's scope", request: { params: ScopeParam }, responses: { 200: { description: "The organization with its new scope.", content: json(Organization) }, ...ERRORS } }),
    async (c) => {
      const { id, entityId } = c.req.valid("param");
      const row = await load(c.env.DB, id);
      if (!row) return notFound(c, "such organization");
      if (!row.scope.includes(entityId)) return adminError(c, 404, `${entityId} is not in ${id}'s scope.`);
      await c.env.DB.batch([deleteScope(c.env.DB, id, entityId), audit(c, "organization.scope.remove", id, { entityId })]);
      return c.json(view((await load(c.env.DB, id))!), 200);
    },
  );
}
