import { Hono, type Context } from "hono";
import {
  changeGrant,
  disablePersonAccount,
  enablePersonAccount,
  findPersonWithGrants,
  invitePerson,
  setPersonPassword,
  type GrantOutcome,
  type Person,
  type Problem,
} from "../catalogue/people";
import { grantsOfOrganization, type ConsoleGrantRow } from "../storage/console-grants";
import { listPeople } from "../storage/people";
import { page, problem as problemAnswer, seeOther } from "./answers";
import type { ConsoleEnv } from "./context";
import { Csrf, Field, Page, render, type Viewer } from "./pages";

/**
 * People and their roles, for the organization's administrators: list, invite, grant, revoke, disable, with the
 * same service as the operator API (catalogue/people.ts). Everyone else is told they are not allowed, and a person
 * of another organization is "not found", whether they exist or not.
 */

type PeopleContext = Context<ConsoleEnv>;

const problem = (c: PeopleContext, status: number, heading: string, message: string) =>
  problemAnswer(status, heading, message, c.get("viewer"));

export const isAdministrator = (grants: ConsoleGrantRow[]): boolean => grants.some((grant) => grant.role === "administrator");

/** The refusal for anyone but an administrator, or null for an administrator. */
export const notAdministrator = (c: PeopleContext) =>
  isAdministrator(c.get("access").grants)
    ? null
    : problem(
        c,
        403,
        "You are not allowed to do this",
        "Only your organization's administrators can manage people and access. Nothing was changed.",
      );

const noSuchPerson = (c: PeopleContext) =>
  problem(c, 404, "Not found", "There is no person with this ID in your organization. Nothing was changed.");

const FIELD_LABELS: Record<string, string> = {
  email: "The e-mail",
  displayName: "The name",
  password: "The password",
  role: "The role",
  entityId: "The brand, hotel or page ID",
};
const problemsByField = (problems: Problem[]) =>
  Object.fromEntries(problems.map(({ field, message }) => [field, `${FIELD_LABELS[field] ?? "The form"} ${message}.`]));

const ROLE_WORDS: Record<ConsoleGrantRow["role"], string> = {
  viewer: "Can read",
  editor: "Can edit",
  administrator: "Administrator of the organization",
};
const grantWords = (grant: ConsoleGrantRow) =>
  grant.entity_id === null ? ROLE_WORDS[grant.role] : `${ROLE_WORDS[grant.role]} ${grant.entity_id}`;

interface InviteValues {
  email: string;
  displayName: string;
}

const peoplePage = ({
  viewer,
  people,
  values = { email: "", displayName: "" },
  problems = {},
}: {
  viewer: Viewer;
  people: Person[];
  values?: InviteValues;
  problems?: Record<string, string>;
}) => (
  <Page title="People" viewer={viewer}>
    <h1>People of {viewer.organizationName}</h1>
    <table>
      <caption class="muted">{people.length === 1 ? "1 person." : `${people.length} people.`}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">E-mail</th>
          <th scope="col">Roles</th>
          <th scope="col">Can sign in</th>
        </tr>
      </thead>
      <tbody>
        {people.map((person) => (
          <tr>
            <td data-label="Name">
              <a href={`/console/people/${person.id}`}>{person.display_name}</a>
            </td>
            <td data-label="E-mail">{person.email}</td>
            <td data-label="Roles">{person.grants.length === 0 ? "No role yet" : person.grants.map(grantWords).join("; ")}</td>
            <td data-label="Can sign in">{person.disabled_at === null ? "Yes" : "No, disabled"}</td>
          </tr>
        ))}
      </tbody>
    </table>
    <h2 id="invite">Invite a person</h2>
    <p class="muted">They get no role until you give them one. Give them their password yourself; they sign in at /console.</p>
    <form method="post" action="/console/people">
      <Csrf token={viewer.csrf} />
      <Field id="email" label="E-mail" type="email" required value={values.email} problem={problems.email} autocomplete="off" />
      <Field id="displayName" label="Name" required value={values.displayName} problem={problems.displayName} autocomplete="off" />
      <Field
        id="password"
        label="First password (at least 10 characters; leave empty to have one made for you)"
        type="password"
        problem={problems.password}
        autocomplete="new-password"
      />
      <button class="primary" type="submit">
        Invite
      </button>
    </form>
  </Page>
);

const DONE: Record<string, string> = {
  grant: "The role was given.",
  revoke: "The role was removed.",
  disable: "The person was disabled: they are signed out everywhere and can no longer sign in.",
  enable: "The person can sign in again, with the roles they had.",
  password: "The new password is set: they were signed out everywhere. Give it to them in person or by phone.",
};

const personPage = ({
  viewer,
  person,
  done,
  password,
  problems = {},
  values = { role: "editor", entityId: "" },
}: {
  viewer: Viewer;
  person: Person;
  done?: string;
  password?: { text: string; invited: boolean };
  problems?: Record<string, string>;
  values?: { role: string; entityId: string };
}) => (
  <Page title={person.display_name} viewer={viewer}>
    <p>
      <a href="/console/people">All people</a>
    </p>
    <h1>
      {person.display_name} ({person.email})
    </h1>
    {password && (
      <p class="notice warn" role="status">
        {password.invited ? `${person.display_name} was invited. Their first password is ` : "Their new password is "}
        <strong>{password.text}</strong>. It is shown only now: give it to them in person or by phone.
      </p>
    )}
    {done && DONE[done] && (
      <p class="notice ok" role="status">
        {DONE[done]}
      </p>
    )}
    {person.disabled_at !== null && (
      <p class="notice warn">This person was disabled on {person.disabled_at.slice(0, 10)}: they cannot sign in.</p>
    )}
    <h2>Roles</h2>
    {problems.form && (
      <p class="notice error" role="alert">
        {problems.form}
      </p>
    )}
    {person.grants.length === 0 ? (
      <p>No role yet: they can sign in but see nothing.</p>
    ) : (
      <ul>
        {person.grants.map((grant) => (
          <li>
            {grantWords(grant)}{" "}
            <form method="post" action={`/console/people/${person.id}/revoke`} class="actions">
              <Csrf token={viewer.csrf} />
              <input type="hidden" name="role" value={grant.role} />
              <input type="hidden" name="entityId" value={grant.entity_id ?? ""} />
              <button type="submit">Remove this role</button>
            </form>
          </li>
        ))}
      </ul>
    )}
    <h2>Give a role</h2>
    <form method="post" action={`/console/people/${person.id}/grants`}>
      <Csrf token={viewer.csrf} />
      <label for="role">Role</label>
      {problems.role && (
        <p class="notice error" id="role-problem" role="alert">
          {problems.role}
        </p>
      )}
      <select id="role" name="role">
        {(["viewer", "editor", "administrator"] as const).map((role) => (
          <option value={role} selected={values.role === role}>
            {ROLE_WORDS[role]}
          </option>
        ))}
      </select>
      <Field
        id="entityId"
        label="Brand, hotel or page ID (for Can read and Can edit; leave empty for Administrator)"
        value={values.entityId}
        problem={problems.entityId}
      />
      <button class="primary" type="submit">
        Give this role
      </button>
    </form>
    <h2>Password</h2>
    <p>For someone who forgot theirs: they are signed out everywhere, and sign in with the new one.</p>
    <form method="post" action={`/console/people/${person.id}/password`}>
      <Csrf token={viewer.csrf} />
      <Field
        id="password"
        label="New password (at least 10 characters; leave empty to have one made for you)"
        type="password"
        problem={problems.password}
        autocomplete="new-password"
      />
      <button type="submit">Set the new password</button>
    </form>
    {person.disabled_at !== null && (
      <>
        <h2>Enable again</h2>
        <p>They can sign in again with their password, and have the roles listed above.</p>
        <form method="post" action={`/console/people/${person.id}/enable`}>
          <Csrf token={viewer.csrf} />
          <button type="submit">Enable {person.display_name}</button>
        </form>
      </>
    )}
    {person.disabled_at === null && (
      <>
        <h2>Disable</h2>
        <p>They are signed out everywhere at once and can no longer sign in. Their roles stay as they are.</p>
        <form method="post" action={`/console/people/${person.id}/disable`}>
          <Csrf token={viewer.csrf} />
          <button type="submit">Disable {person.display_name}</button>
        </form>
      </>
    )}
  </Page>
);

export const peopleRoutes = new Hono<ConsoleEnv>();

async function listOf(c: PeopleContext): Promise<Person[]> {
  const organizationId = c.get("person").organization_id;
  const [people, grants] = await Promise.all([listPeople(c.env.DB, organizationId), grantsOfOrganization(c.env.DB, organizationId)]);
  return people.map((person) => ({ ...person, grants: grants.get(person.id) ?? [] }));
}

const actorOf = (c: PeopleContext) => ({ name: `person:${c.get("person").email}`, personId: c.get("person").id });

peopleRoutes.get("/console/people", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  return page(render(peoplePage({ viewer: c.get("viewer"), people: await listOf(c) })));
});

peopleRoutes.post("/console/people", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const form = c.get("form");
  const values = { email: form.get("email") ?? "", displayName: form.get("displayName") ?? "" };
  const password = form.get("password") ?? "";
  const outcome = await invitePerson(
    c.env,
    c.get("person").organization_id,
    { ...values, ...(password === "" ? {} : { password }) },
    actorOf(c),
  );
  const again = async (status: number, problems: Record<string, string>) =>
    page(render(peoplePage({ viewer: c.get("viewer"), people: await listOf(c), values, problems })), status);
  switch (outcome.outcome) {
    case "invited":
      return page(
        render(
          personPage({
            viewer: c.get("viewer"),
            person: outcome.person,
            password: outcome.password === undefined ? undefined : { text: outcome.password, invited: true },
          }),
        ),
        201,
      );
    case "invalid":
      return again(400, problemsByField(outcome.problems));
    case "taken":
      return again(409, {
        email: outcome.elsewhere
          ? `The e-mail ${outcome.email} cannot be invited here. Use another address for this person, or ask your operator.`
          : `The e-mail ${outcome.email} is already one of your people's: find them on this page.`,
      });
    case "no_organization":
      return noSuchPerson(c);
  }
});

async function personInOrganization(c: PeopleContext) {
  return findPersonWithGrants(c.env.DB, c.req.param("personId") ?? "", c.get("person").organization_id);
}

peopleRoutes.get("/console/people/:personId", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const person = await personInOrganization(c);
  if (!person) return noSuchPerson(c);
  return page(render(personPage({ viewer: c.get("viewer"), person, done: c.req.query("done") })));
});

const GRANT_REFUSALS: Record<Exclude<GrantOutcome["outcome"], "saved" | "invalid" | "no_person">, (o: GrantOutcome) => string> = {
  out_of_scope: (o) =>
    `Your organization does not look after ${"entityId" in o ? o.entityId : "this"}, or there is no brand, hotel or page with this ID. Check the ID; nothing was changed.`,
  already: () => "They already have this role. Nothing was changed.",
  no_grant: () => "They do not have this role (someone may have just removed it). Nothing was changed.",
  own_administrator: () =>
    "You cannot remove your own administrator role. Ask another administrator of your organization to do it. Nothing was changed.",
};

for (const action of ["grant", "revoke"] as const) {
  peopleRoutes.post(`/console/people/:personId/${action === "grant" ? "grants" : "revoke"}`, async (c) => {
    const refused = notAdministrator(c);
    if (refused) return refused;
    const form = c.get("form");
    const values = { role: form.get("role") ?? "", entityId: form.get("entityId") ?? "" };
    const personId = c.req.param("personId");
    const outcome = await changeGrant(
      c.env.DB,
      { personId, organizationId: c.get("person").organization_id, action, grant: values },
      actorOf(c),
    );
    if (outcome.outcome === "saved") return seeOther(`/console/people/${personId}?done=${action}`);
    if (outcome.outcome === "no_person") return noSuchPerson(c);
    const person = await personInOrganization(c);
    if (!person) return noSuchPerson(c);
    const problems =
      outcome.outcome === "invalid"
        ? problemsByField(outcome.problems)
        : { [outcome.outcome === "out_of_scope" ? "entityId" : "form"]: GRANT_REFUSALS[outcome.outcome](outcome) };
    const status = outcome.outcome === "invalid" || outcome.outcome === "out_of_scope" ? 400 : 409;
    return page(render(personPage({ viewer: c.get("viewer"), person, problems, values: action === "grant" ? values : undefined })), status);
  });
}

peopleRoutes.post("/console/people/:personId/disable", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const personId = c.req.param("personId");
  const outcome = await disablePersonAccount(c.env.DB, { personId, organizationId: c.get("person").organization_id }, actorOf(c));
  switch (outcome.outcome) {
    case "saved":
      return seeOther(`/console/people/${personId}?done=disable`);
    case "no_person":
      return noSuchPerson(c);
    case "already":
      return seeOther(`/console/people/${personId}`);
    case "own_account":
      return problem(
        c,
        409,
        "You cannot disable yourself",
        "Ask another administrator of your organization to do it. Nothing was changed.",
      );
  }
});

peopleRoutes.post("/console/people/:personId/enable", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const personId = c.req.param("personId");
  const outcome = await enablePersonAccount(c.env.DB, { personId, organizationId: c.get("person").organization_id }, actorOf(c));
  if (outcome.outcome === "no_person") return noSuchPerson(c);
  return seeOther(`/console/people/${personId}${outcome.outcome === "saved" ? "?done=enable" : ""}`);
});

peopleRoutes.post("/console/people/:personId/password", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const given = c.get("form").get("password") ?? "";
  const outcome = await setPersonPassword(
    c.env,
    { personId: c.req.param("personId"), organizationId: c.get("person").organization_id, password: given === "" ? undefined : given },
    actorOf(c),
  );
  switch (outcome.outcome) {
    case "no_person":
      return noSuchPerson(c);
    case "own_password":
      return problem(
        c,
        409,
        "Change your own password on “Your password”",
        "It asks for your current password, so an open session alone cannot change it. Nothing was changed.",
      );
    case "invalid": {
      const person = await personInOrganization(c);
      if (!person) return noSuchPerson(c);
      return page(render(personPage({ viewer: c.get("viewer"), person, problems: problemsByField(outcome.problems) })), 400);
    }
    case "saved":
      return outcome.password === undefined
        ? seeOther(`/console/people/${outcome.person.id}?done=password`)
        : page(
            render(personPage({ viewer: c.get("viewer"), person: outcome.person, password: { text: outcome.password, invited: false } })),
          );
  }
});
