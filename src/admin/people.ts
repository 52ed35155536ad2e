import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  changeGrant,
  disablePersonAccount,
  enablePersonAccount,
  findPersonWithGrants,
  GrantChange,
  invitePerson,
  NewPassword,
  PersonInvite,
  setPersonPassword,
  type GrantOutcome,
  type Person,
  type Problem,
} from "../catalogue/people";
import { PepperError } from "../crypto/password";
import { envelopeError } from "../http/surface-errors";
import { CONSOLE_ROLES, grantsOf } from "../storage/console-grants";
import { listPeople } from "../storage/people";
import type { AdminEnv } from "./auth";
import { adminError, IdParam, OrganizationId, Timestamp } from "./openapi";
import { resource } from "./operation";

/**
 * The console's people (who sign in at /console) and their roles, with the same service as the console's people
 * pages (catalogue/people.ts). Every change is audited with the operator's fingerprint as the actor.
 */

const PersonView = z
  .object({
    id: z.string(),
    email: z.string(),
    displayName: z.string(),
    organizationId: OrganizationId,
    grants: z.array(z.object({ role: z.enum(CONSOLE_ROLES), entityId: z.string().nullable() })),
    disabled: z.boolean(),
    disabledAt: Timestamp.nullable(),
    mustChoosePassword: z
      .boolean()
      .openapi({ description: "Their password was set by someone else: at their next sign-in they must choose their own first." }),
    createdAt: Timestamp,
  })
  .openapi("ConsolePerson");
const PersonWithPassword = z
  .object({
    person: PersonView,
    password: z.string().optional().openapi({ description: "Only when the server chose the password: shown once." }),
  })
  .openapi("ConsolePersonWithPassword");
const PersonCreate = PersonInvite.extend({ organizationId: OrganizationId });
const PasswordSet = z.strictObject({
  password: NewPassword.optional().openapi({ description: "A random one is chosen (and returned once) when omitted." }),
});
const ListQuery = z.object({ organizationId: OrganizationId.optional().openapi({ param: { name: "organizationId", in: "query" } }) });

const view = (person: Person) => ({
  id: person.id,
  email: person.email,
  displayName: person.display_name,
  organizationId: person.organization_id,
  grants: person.grants.map((grant) => ({ role: grant.role, entityId: grant.entity_id })),
  disabled: person.disabled_at !== null,
  disabledAt: person.disabled_at,
  mustChoosePassword: person.must_choose_password === 1,
  createdAt: person.created_at,
});

const invalid = (c: Context, problems: Problem[]) =>
  adminError(c, 400, `Invalid request body: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}.`, problems);

function grantAnswer(c: Context<AdminEnv>, outcome: GrantOutcome) {
  switch (outcome.outcome) {
    case "saved":
      return view(outcome.person);
    case "invalid":
      return invalid(c, outcome.problems);
    case "no_person":
      return adminError(c, 404, "No such person.");
    case "out_of_scope":
      return adminError(c, 400, `The person's organization's scope does not hold ${outcome.entityId}.`, [
        { field: "entityId", message: "is not in the organization's scope" },
      ]);
    case "ambiguous":
      return adminError(
        c,
        400,
        `Several entities of the organization's scope are named ${outcome.entityId}: ${outcome.candidates.map((e) => e.id).join(", ")}. Give one's ID.`,
        [{ field: "entityId", message: "names several entities: give an ID" }],
      );
    case "already":
      return adminError(c, 409, "The person already has this role.");
    case "no_grant":
      return adminError(c, 409, "The person does not have this role.");
    case "own_administrator":
      return adminError(c, 409, "A person cannot remove their own administrator role.");
  }
}

export function personRoutes(app: OpenAPIHono<AdminEnv>): void {
  const people = resource(app, {
    tag: "Console people",
    path: "/people",
    noun: "person",
    params: IdParam,
    item: PersonView,
    load: (c, { params }) => findPersonWithGrants(c.env.DB, params.id),
    view,
  });
  const actor = (c: Context<AdminEnv>) => ({ name: c.get("operator") });

  people.list(
    "people",
    {
      query: ListQuery,
      summary: "List the console's people with their roles, all or of one organization",
      description: "People by e-mail.",
    },
    async (c, query) =>
      Promise.all((await listPeople(c.env.DB, query.organizationId)).map(async (p) => ({ ...p, grants: await grantsOf(c.env.DB, p.id) }))),
  );
  people.get("One person of the console, with their roles", "The person.");

  people.create(
    {
      summary: "Invite a person to an organization's console, with no role yet",
      description: "Invited.",
      body: PersonCreate,
      schema: PersonWithPassword,
    },
    async (c, { organizationId, ...invite }) => {
      try {
        const outcome = await invitePerson(c.env, organizationId, invite, actor(c));
        switch (outcome.outcome) {
          case "invited":
            return { person: view(outcome.person), ...(outcome.password === undefined ? {} : { password: outcome.password }) };
          case "invalid":
            return invalid(c, outcome.problems);
          case "taken":
            return adminError(c, 409, `A person with the e-mail ${outcome.email} already exists.`);
          case "no_organization":
            return adminError(c, 400, `No organization ${organizationId}.`, [
              { field: "organizationId", message: `no organization ${organizationId}` },
            ]);
        }
      } catch (error) {
        if (error instanceof PepperError) return envelopeError(500, error.message);
        throw error;
      }
    },
  );

  for (const action of ["grant", "revoke"] as const) {
    people.on(
      {
        method: "post",
        path: action === "grant" ? "/grants" : "/revoke",
        body: GrantChange,
        summary:
          action === "grant"
            ? "Grant a role: viewer or editor of an entity the organization's scope holds (by ID in any case, or by name), or administrator"
            : "Revoke a role; nobody can remove their own administrator role",
        description: action === "grant" ? "Granted." : "Revoked.",
      },
      async (c, row, { body }) => grantAnswer(c, await changeGrant(c.env.DB, { personId: row.id, action, grant: body }, actor(c))),
    );
  }

  people.on(
    { method: "post", path: "/enable", summary: "Let a disabled person sign in again, with their roles", description: "Enabled." },
    async (c, row) => {
      const outcome = await enablePersonAccount(c.env.DB, { personId: row.id }, actor(c));
      if (outcome.outcome === "saved") return view(outcome.person);
      return outcome.outcome === "already" ? adminError(c, 409, "The person is not disabled.") : adminError(c, 404, "No such person.");
    },
  );

  people.on(
    {
      method: "post",
      path: "/password",
      body: PasswordSet,
      schema: PersonWithPassword,
      summary: "Set a person's password (given, or made and returned once); every session of theirs ends",
      description: "Set.",
    },
    async (c, row, { body }) => {
      try {
        const outcome = await setPersonPassword(c.env, { personId: row.id, password: body.password }, actor(c));
        switch (outcome.outcome) {
          case "saved":
            return { person: view(outcome.person), ...(outcome.password === undefined ? {} : { password: outcome.password }) };
          case "invalid":
            return invalid(c, outcome.problems);
          case "no_person":
            return adminError(c, 404, "No such person.");
          case "own_password":
            return adminError(c, 409, "A person changes their own password by giving their current one.");
        }
      } catch (error) {
        if (error instanceof PepperError) return envelopeError(500, error.message);
        throw error;
      }
    },
  );

  people.on(
    { method: "post", path: "/disable", summary: "Disable a person: they cannot sign in and their sessions end", description: "Disabled." },
    async (c, row) => {
      const outcome = await disablePersonAccount(c.env.DB, { personId: row.id }, actor(c));
      if (outcome.outcome === "saved") return view(outcome.person);
      return outcome.outcome === "already" ? adminError(c, 409, "The person is already disabled.") : adminError(c, 404, "No such person.");
    },
  );
}
