import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { entitiesByIdOrBrand } from "../storage/entities";
import {
  deleteOrganization,
  deleteScope,
  insertOrganization,
  insertScope,
  listOrganizations,
  renameOrganization,
  setApiKeyQuota,
  type OrganizationRow,
} from "../storage/organizations";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, OrganizationId, SafeId, Timestamp } from "./openapi";
import { resource } from "./operation";

const Organization = z
  .object({
    id: OrganizationId,
    name: z.string(),
    scope: z.array(z.string()).openapi({ description: "Entity IDs the organization sees; a brand brings its properties." }),
    users: z.number().int(),
    identityClients: z.number().int(),
    apiKeyQuota: z.number().int().openapi({
      description: "The most requests an hour the organization's partner keys may add up to (those neither revoked nor expired).",
    }),
    createdAt: Timestamp,
  })
  .openapi("Organization");

const OrganizationName = z.string().trim().min(1).max(200);
const OrganizationCreate = z.strictObject({ id: OrganizationId, name: OrganizationName, scope: z.array(SafeId).max(1000).default([]) });
const quotaMessage = "must be a whole number from 0 to 1,000,000,000,000";
const ApiKeyQuota = z
  .number({ error: quotaMessage })
  .int(quotaMessage)
  .min(0, quotaMessage)
  .max(1_000_000_000_000, quotaMessage)
  .openapi({ description: "Requests an hour its keys may add up to; its administrators cannot pass it." });
const OrganizationPatch = z
  .strictObject({ name: OrganizationName.optional(), apiKeyQuota: ApiKeyQuota.optional() })
  .refine((patch) => patch.name !== undefined || patch.apiKeyQuota !== undefined, "give name, apiKeyQuota or both")
  .openapi({ anyOf: [{ required: ["name"] }, { required: ["apiKeyQuota"] }] });
const ScopeEntities = z.array(SafeId).min(1).max(1000);
// One entity (`entityId`) or many (`entityIds`), all or nothing.
const ScopeChange = z.union([z.strictObject({ entityId: SafeId }), z.strictObject({ entityIds: ScopeEntities })]);
const scopeEntities = (change: z.output<typeof ScopeChange>) => ("entityId" in change ? [change.entityId] : [...new Set(change.entityIds)]);
const ScopeRemove = z.strictObject({ entityIds: ScopeEntities });
const IdParam = z.object({ id: OrganizationId.openapi({ param: { name: "id", in: "path" } }) });
const ScopeParam = IdParam.extend({ entityId: SafeId.openapi({ param: { name: "entityId", in: "path" } }) });

const view = (row: OrganizationRow) => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  users: row.users,
  identityClients: row.clients,
  apiKeyQuota: row.api_key_quota,
  createdAt: row.created_at,
});

export function organizationRoutes(app: OpenAPIHono<AdminEnv>): void {
  const load = async (db: D1Database, id: string) => (await listOrganizations(db, id))[0];
  const reloaded = async (db: D1Database, id: string) => view((await load(db, id))!);
  const organizations = resource(app, {
    tag: "Organizations",
    path: "/organizations",
    noun: "organization",
    params: IdParam,
    item: Organization,
    load: (c, { params }) => load(c.env.DB, params.id),
    view,
  });

  organizations.list("organizations", { summary: "List organizations with their scope", description: "Organizations by ID." }, (c) =>
    listOrganizations(c.env.DB),
  );
  organizations.get("One organization", "The organization.");

  organizations.create(
    {
      summary: "Create an organization, optionally with its scope",
      description: "Created.",
      body: OrganizationCreate,
      schema: Organization,
    },
    async (c, { id, name, scope }) => {
      if (await load(c.env.DB, id)) return adminError(c, 409, `Organization ${id} already exists.`);
      const known = new Set((await entitiesByIdOrBrand(c.env.DB, scope, [])).map((e) => e.id));
      const unknown = scope.flatMap((entityId, i) =>
        known.has(entityId) ? [] : [{ field: `scope.${i}`, message: `no entity ${entityId}` }],
      );
      if (unknown.length > 0) return adminError(c, 400, "The scope names entities that do not exist.", unknown);
      const at = new Date().toISOString();
      const unique = [...new Set(scope)];
      await c.env.DB.batch([
        insertOrganization(c.env.DB, { id, name, created_at: at }),
        ...unique.map((entityId) => insertScope(c.env.DB, id, entityId)),
        audit(c, "organization.create", id, { name, scope: unique }),
      ]);
      return reloaded(c.env.DB, id);
    },
  );

  organizations.on(
    {
      method: "patch",
      body: OrganizationPatch,
      summary: "Rename an organization, or set the most its partner keys may add up to an hour",
      description: "The organization as changed.",
    },
    async (c, row, { body: { name, apiKeyQuota } }) => {
      await c.env.DB.batch([
        ...(name === undefined ? [] : [renameOrganization(c.env.DB, row.id, name), audit(c, "organization.rename", row.id, { name })]),
        ...(apiKeyQuota === undefined
          ? []
          : [
              setApiKeyQuota(c.env.DB, row.id, apiKeyQuota),
              audit(c, "organization.api_key_quota", row.id, { apiKeyQuota: { from: row.api_key_quota, to: apiKeyQuota } }),
            ]),
      ]);
      return reloaded(c.env.DB, row.id);
    },
  );

  organizations.remove(
    { summary: "Delete an organization that has no users and no identity clients", description: "Deleted." },
    async (c, row) => {
      // Deleting would silently cut users and clients off; the operator moves or removes them first.
      if (row.users > 0 || row.clients > 0) {
        return adminError(
          c,
          409,
          `Organization ${row.id} still has ${row.users} users and ${row.clients} identity clients; move or remove them first.`,
        );
      }
      await c.env.DB.batch([deleteOrganization(c.env.DB, row.id), audit(c, "organization.delete", row.id)]);
    },
  );

  organizations.on(
    {
      method: "post",
      path: "/scope",
      body: ScopeChange,
      summary: "Add entities to an organization's scope",
      description: "The organization with its new scope.",
    },
    async (c, row, { body }) => {
      const entityIds = scopeEntities(body);
      const field = "entityId" in body ? () => "entityId" : (i: number) => `entityIds.${i}`;
      const known = new Set((await entitiesByIdOrBrand(c.env.DB, entityIds, [])).map((e) => e.id));
      const missing = entityIds.flatMap((id, i) => (known.has(id) ? [] : [{ id, field: field(i), message: `no entity ${id}` }]));
      if (missing.length > 0) {
        return adminError(
          c,
          400,
          `No entity ${missing.map((m) => m.id).join(", ")}.`,
          missing.map(({ field, message }) => ({ field, message })),
        );
      }
      const present = entityIds.filter((id) => row.scope.includes(id));
      if (present.length > 0)
        return adminError(c, 409, `${present.join(", ")} ${present.length === 1 ? "is" : "are"} already in ${row.id}'s scope.`);
      await c.env.DB.batch([
        ...entityIds.map((entityId) => insertScope(c.env.DB, row.id, entityId)),
        audit(c, "organization.scope.add", row.id, { entityIds }),
      ]);
      return reloaded(c.env.DB, row.id);
    },
  );

  organizations.on(
    {
      method: "post",
      path: "/scope/remove",
      body: ScopeRemove,
      summary: "Remove entities from an organization's scope",
      description: "The organization with its new scope.",
    },
    async (c, row, { body }) => {
      const entityIds = [...new Set(body.entityIds)];
      const absent = entityIds.filter((id) => !row.scope.includes(id));
      if (absent.length > 0)
        return adminError(c, 404, `${absent.join(", ")} ${absent.length === 1 ? "is" : "are"} not in ${row.id}'s scope.`);
      await c.env.DB.batch([
        ...entityIds.map((entityId) => deleteScope(c.env.DB, row.id, entityId)),
        audit(c, "organization.scope.remove", row.id, { entityIds }),
      ]);
      return reloaded(c.env.DB, row.id);
    },
  );

  // One entity of the scope is a resource of its own: its path names the organization and the entity.
  organizations.on(
    {
      method: "delete",
      path: "/scope/{entityId}",
      params: ScopeParam,
      summary: "Remove an entity from an organization's scope",
      description: "The organization with its new scope.",
    },
    async (c, row, { params: { entityId } }) => {
      if (!row.scope.includes(entityId)) return adminError(c, 404, `${entityId} is not in ${row.id}'s scope.`);
      await c.env.DB.batch([deleteScope(c.env.DB, row.id, entityId), audit(c, "organization.scope.remove", row.id, { entityId })]);
      return reloaded(c.env.DB, row.id);
    },
  );
}
