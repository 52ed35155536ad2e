import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { hashPassword } from "../crypto/password";
import { randomId, randomSecret } from "../crypto/random";
import { normalizeEmail } from "../oauth/sign-in";
import { removeUserGrants } from "../oauth/revoke";
import { findOrganization } from "../storage/organizations";
import { disableUser, enableUser, findUser, findUserByEmail, insertUser, listUsers, setUserPassword, type UserRow } from "../storage/users";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, ERRORS, json, jsonBody, notFound, OrganizationId, Timestamp } from "./openapi";

const User = z
  .object({
    id: z.string(),
    email: z.string(),
    organizationId: OrganizationId,
    disabled: z.boolean(),
    disabledAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi("User");
const GeneratedPassword = z.string().optional().openapi({ description: "Only when the server chose the password: shown once." });
const UserWithPassword = z.object({ user: User, password: GeneratedPassword }).openapi("UserWithPassword");

const Password = z.string().min(10, "must be at least 10 characters").max(200);
const UserCreate = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email().max(254)),
  organizationId: OrganizationId,
  password: Password.optional().openapi({ description: "A random one is chosen (and returned once) when omitted." }),
});
const PasswordReset = z.strictObject({ password: Password.optional() });
const IdParam = z.object({ id: z.string().min(1).max(64).openapi({ param: { name: "id", in: "path" } }) });
const ListQuery = z.object({ organizationId: OrganizationId.optional().openapi({ param: { name: "organizationId", in: "query" } }) });

const tags = ["Users"];
const view = (row: UserRow) => ({
  id: row.id,
  email: row.email,
  organizationId: row.organization_id,
  disabled: row.disabled_at !== null,
  disabledAt: row.disabled_at,
  createdAt: row.created_at,
});

export function userRoutes(app: OpenAPIHono<AdminEnv>): void {
  app.openapi(
    createRoute({ method: "get", path: "/users", tags, summary: "List connector users, all or of one organization", request: { query: ListQuery }, responses: { 200: { description: "Users by email.", content: json(z.object({ users: z.array(User) })) }, ...ERRORS } }),
    async (c) => c.json({ users: (await listUsers(c.env.DB, c.req.valid("query").organizationId)).map(view) }, 200),
  );

  app.openapi(
    createRoute({ method: "get", path: "/users/{id}", tags, summary: "One user", request: { params: IdParam }, responses: { 200: { description: "The user.", content: json(User) }, ...ERRORS } }),
    async (c) => {
      const row = await findUser(c.env.DB, c.req.valid("param").id);
      return row ? c.json(view(row), 200) : notFound(c, "such user");
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/users", tags, summary: "Create a user who can sign in to connect assistants", request: jsonBody(UserCreate), responses: { 201: { description: "Created.", content: json(UserWithPassword) }, ...ERRORS } }),
    async (c) => {
      const input = c.req.valid("json");
      const email = normalizeEmail(input.email);
      if (await findUserByEmail(c.env.DB, email)) return adminError(c, 409, `A user with the email ${email} already exists.`);
      if (!(await findOrganization(c.env.DB, input.organizationId))) {
        return adminError(c, 400, `No organization ${input.organizationId}.`, [{ field: "organizationId", message: `no organization ${input.organizationId}` }]);
      }
      const password = input.password ?? randomSecret(18);
      const row: UserRow = {
        id: randomId("user_"),
        email,
        organization_id: input.organizationId,
        password_hash: await hashPassword(password),
        disabled_at: null,
        tokens_valid_after: null,
        created_at: new Date().toISOString(),
      };
      await c.env.DB.batch([insertUser(c.env.DB, row), audit(c, "user.create", row.id, { email, organizationId: row.organization_id })]);
      return c.json({ user: view(row), ...(input.password === undefined ? { password } : {}) }, 201);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/users/{id}/disable", tags, summary: "Disable a user: their tokens stop working within 5 s and their sessions end", request: { params: IdParam }, responses: { 200: { description: "Disabled.", content: json(User) }, ...ERRORS } }),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await findUser(c.env.DB, id);
      if (!row) return notFound(c, "such user");
      if (row.disabled_at !== null) return adminError(c, 409, `User ${id} is already disabled.`);
      const at = new Date().toISOString();
      await c.env.DB.batch([disableUser(c.env.DB, id, at), audit(c, "user.disable", id, { email: row.email })]);
      await removeUserGrants(c.env, c.req.url, id);
      return c.json(view({ ...row, disabled_at: at, tokens_valid_after: at }), 200);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/users/{id}/enable", tags, summary: "Enable a user again; their earlier authorizations stay revoked", request: { params: IdParam }, responses: { 200: { description: "Enabled.", content: json(User) }, ...ERRORS } }),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await findUser(c.env.DB, id);
      if (!row) return notFound(c, "such user");
      if (row.disabled_at === null) return adminError(c, 409, `User ${id} is not disabled.`);
      await c.env.DB.batch([enableUser(c.env.DB, id), audit(c, "user.enable", id, { email: row.email })]);
      return c.json(view({ ...row, disabled_at: null }), 200);
    },
  );

  app.openapi(
    createRoute({ method: "post", path: "/users/{id}/password", tags, summary: "Set a new password; every earlier authorization of the user is revoked", request: { params: IdParam, ...jsonBody(PasswordReset) }, responses: { 200: { description: "Set.", content: json(UserWithPassword) }, ...ERRORS } }),
    async (c) => {
      const { id } = c.req.valid("param");
      const input = c.req.valid("json");
      const row = await findUser(c.env.DB, id);
      if (!row) return notFound(c, "such user");
      const password = input.password ?? randomSecret(18);
      const at = new Date().toISOString();
      await c.env.DB.batch([setUserPassword(c.env.DB, id, await hashPassword(password), at), audit(c, "user.reset_password", id, { email: row.email })]);
      await removeUserGrants(c.env, c.req.url, id);
      return c.json({ user: view(row), ...(input.password === undefined ? { password } : {}) }, 200);
    },
  );
}
