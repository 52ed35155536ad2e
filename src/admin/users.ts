import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { hashPassword, PepperError } from "../crypto/password";
import { randomId, randomSecret } from "../crypto/random";
import { envelopeError } from "../http/surface-errors";
import { normalizeEmail } from "../rate-limit/password-sign-in";
import { removeUserGrants } from "../oauth/revoke";
import { findOrganization } from "../storage/organizations";
import { disableUser, enableUser, findUser, findUserByEmail, insertUser, listUsers, setUserPassword, type UserRow } from "../storage/users";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, IdParam, OrganizationId, Timestamp } from "./openapi";
import { resource } from "./operation";

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
  // Trimmed and lower-cased before it is checked: the document states the address itself.
  email: z.string().trim().toLowerCase().pipe(z.email().max(254)).openapi({ format: "email", maxLength: 254 }),
  organizationId: OrganizationId,
  password: Password.optional().openapi({ description: "A random one is chosen (and returned once) when omitted." }),
});
const PasswordReset = z.strictObject({ password: Password.optional() });
const ListQuery = z.object({ organizationId: OrganizationId.optional().openapi({ param: { name: "organizationId", in: "query" } }) });

/** The stored form of a new password, or the operator's answer when none can be made (PASSWORD_PEPPER is missing). */
async function storedPassword(pepper: string | undefined, password: string): Promise<string | Response> {
  try {
    return await hashPassword(password, pepper);
  } catch (error) {
    // The operator is trusted with the reason: it is theirs to fix.
    if (error instanceof PepperError) return envelopeError(500, error.message);
    throw error;
  }
}

const view = (row: UserRow) => ({
  id: row.id,
  email: row.email,
  organizationId: row.organization_id,
  disabled: row.disabled_at !== null,
  disabledAt: row.disabled_at,
  createdAt: row.created_at,
});

export function userRoutes(app: OpenAPIHono<AdminEnv>): void {
  const users = resource(app, {
    tag: "Users",
    path: "/users",
    noun: "user",
    params: IdParam,
    item: User,
    load: (c, { params }) => findUser(c.env.DB, params.id),
    view,
  });

  users.list(
    "users",
    { query: ListQuery, summary: "List connector users, all or of one organization", description: "Users by email." },
    (c, query) => listUsers(c.env.DB, query.organizationId),
  );
  users.get("One user", "The user.");

  users.create(
    { summary: "Create a user who can sign in to connect assistants", description: "Created.", body: UserCreate, schema: UserWithPassword },
    async (c, input) => {
      const email = normalizeEmail(input.email);
      if (await findUserByEmail(c.env.DB, email)) return adminError(c, 409, `A user with the email ${email} already exists.`);
      if (!(await findOrganization(c.env.DB, input.organizationId))) {
        return adminError(c, 400, `No organization ${input.organizationId}.`, [
          { field: "organizationId", message: `no organization ${input.organizationId}` },
        ]);
      }
      const password = input.password ?? randomSecret(18);
      const passwordHash = await storedPassword(c.env.PASSWORD_PEPPER, password);
      if (passwordHash instanceof Response) return passwordHash;
      const row: UserRow = {
        id: randomId("user_"),
        email,
        organization_id: input.organizationId,
        password_hash: passwordHash,
        disabled_at: null,
        tokens_valid_after: null,
        created_at: new Date().toISOString(),
      };
      await c.env.DB.batch([insertUser(c.env.DB, row), audit(c, "user.create", row.id, { email, organizationId: row.organization_id })]);
      return { user: view(row), ...(input.password === undefined ? { password } : {}) };
    },
  );

  users.on(
    {
      method: "post",
      path: "/disable",
      summary: "Disable a user: their tokens stop working within 5 s and their sessions end",
      description: "Disabled.",
    },
    async (c, row) => {
      if (row.disabled_at !== null) return adminError(c, 409, `User ${row.id} is already disabled.`);
      const at = new Date().toISOString();
      await c.env.DB.batch([disableUser(c.env.DB, row.id, at), audit(c, "user.disable", row.id, { email: row.email })]);
      await removeUserGrants(c.env, c.req.url, row.id);
      return view({ ...row, disabled_at: at, tokens_valid_after: at });
    },
  );

  users.on(
    { method: "post", path: "/enable", summary: "Enable a user again; their earlier authorizations stay revoked", description: "Enabled." },
    async (c, row) => {
      if (row.disabled_at === null) return adminError(c, 409, `User ${row.id} is not disabled.`);
      await c.env.DB.batch([enableUser(c.env.DB, row.id), audit(c, "user.enable", row.id, { email: row.email })]);
      return view({ ...row, disabled_at: null });
    },
  );

  users.on(
    {
      method: "post",
      path: "/password",
      body: PasswordReset,
      schema: UserWithPassword,
      summary: "Set a new password; every earlier authorization of the user is revoked",
      description: "Set.",
    },
    async (c, row, { body: input }) => {
      const password = input.password ?? randomSecret(18);
      const passwordHash = await storedPassword(c.env.PASSWORD_PEPPER, password);
      if (passwordHash instanceof Response) return passwordHash;
      const at = new Date().toISOString();
      await c.env.DB.batch([
        setUserPassword(c.env.DB, row.id, passwordHash, at),
        audit(c, "user.reset_password", row.id, { email: row.email }),
      ]);
      await removeUserGrants(c.env, c.req.url, row.id);
      return { user: view(row), ...(input.password === undefined ? { password } : {}) };
    },
  );
}
