import { Hono, type Context } from "hono";
import {
  changeGrant,
  disablePersonAccount,
  enablePersonAccount,
  findPersonWithGrants,
  grantableEntities,
  invitePerson,
  setPersonPassword,
  type GrantCandidate,
  type GrantOutcome,
  type KeepMadePassword,
  type Person,
  type Problem,
} from "../catalogue/people";
import { seal, SealingError, unseal } from "../crypto/sealed";
import { listAudit, type AuditEntry } from "../storage/admin-audit";
import { grantsOfOrganization, type ConsoleGrantRow } from "../storage/console-grants";
import { deleteMadePassword, findMadePassword, insertMadePassword, type MadePasswordRow } from "../storage/console-made-passwords";
import { entitiesByIdOrBrand } from "../storage/entities";
import { listPeople } from "../storage/people";
import { page, problem as problemAnswer, seeOther } from "./answers";
import { actionWords, changeLines, grantWords } from "./change-words";
import type { ConsoleEnv } from "./context";
import { Csrf, Field, Page, render, whenWords, type Viewer } from "./pages";
import { sessionHash } from "./session";

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
  entityId: "The brand, hotel or page",
};
const problemsByField = (problems: Problem[]) =>
  Object.fromEntries(problems.map(({ field, message }) => [field, `${FIELD_LABELS[field] ?? "The form"} ${message}.`]));

const ROLE_CHOICES = { viewer: "Can read", editor: "Can edit", administrator: "Administrator of the organization" } as const;

/** Up to this many entities of the scope are offered in the grant form's list; a larger scope gets a field to type in. */
const LISTED_AT_MOST = 500;
/** How long a password the console made is shown again to the administrator who made it. */
const MADE_PASSWORD_SHOWN_MS = 10 * 60_000;
/** The latest changes to a person shown on their page. */
const CHANGES_SHOWN = 20;

/** The names of the entities `ids` names, for roles and changes in words. */
async function entityNames(db: D1Database, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  return new Map((await entitiesByIdOrBrand(db, wanted, [])).map((entity) => [entity.id, entity.name]));
}

const canSignIn = (person: Person) =>
  person.disabled_at !== null ? "No, disabled" : person.must_choose_password === 1 ? "Yes, once they choose a password" : "Yes";

interface InviteValues {
  email: string;
  displayName: string;
}

const peoplePage = ({
  viewer,
  people,
  names,
  values = { email: "", displayName: "" },
  problems = {},
}: {
  viewer: Viewer;
  people: Person[];
  names: ReadonlyMap<string, string>;
  values?: InviteValues;
  problems?: Record<string, string>;
}) => (
  <Page title="People" viewer={viewer}>
    <h1>People of {viewer.organizationName}</h1>
    <table class="cards">
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
            <td data-label="Roles">
              {person.grants.length === 0 ? "No role yet" : person.grants.map((grant) => grantWords(grant, names)).join("; ")}
            </td>
            <td data-label="Can sign in">{canSignIn(person)}</td>
          </tr>
        ))}
      </tbody>
    </table>
    <h2 id="invite">Invite a person</h2>
    <p class="muted">
      They get no role until you give them one. Give them their first password yourself; when they first sign in at /console, they choose
      their own.
    </p>
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
  invite: "The person was invited. Give them a role below.",
  grant: "The role was given.",
  revoke: "The role was removed.",
  disable: "The person was disabled: they are signed out everywhere and can no longer sign in.",
  enable: "The person can sign in again, with the roles they had.",
  password: "The new password is set: they were signed out everywhere, and choose their own when they next sign in.",
};

/** What the scope holds, grouped as the grant form lists it: each brand with its hotels, then the rest by kind. */
function groupedEntities(entities: GrantCandidate[]): { label: string; options: { id: string; text: string }[] }[] {
  const byName = [...entities].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const option = (entity: GrantCandidate) => ({ id: entity.id, text: `${entity.name} (${entity.id})` });
  const brands = byName.filter((entity) => entity.kind === "brand");
  const listed = new Set(brands.map((brand) => brand.id));
  const others: [string, (entity: GrantCandidate) => boolean][] = [
    ["Hotels", (entity) => entity.kind === "property" && !listed.has(entity.brand_id ?? "")],
    ["Destinations", (entity) => entity.kind === "destination"],
    ["Airports", (entity) => entity.kind === "airport"],
  ];
  return [
    ...brands.map((brand) => ({
      label: `${brand.name} (${brand.id})`,
      options: [
        { id: brand.id, text: `The whole brand, with its hotels (${brand.id})` },
        ...byName.filter((entity) => entity.brand_id === brand.id).map(option),
      ],
    })),
    ...others.map(([label, keep]) => ({ label, options: byName.filter(keep).map(option) })),
  ].filter((group) => group.options.length > 0);
}

/** The grant form's brand, hotel or page: a list of the scope, or for a large scope a field for a name or an ID. */
const EntityChoice = ({
  entities,
  value,
  problem,
  candidates,
}: {
  entities: GrantCandidate[] | null;
  value: string;
  problem?: string;
  candidates?: GrantCandidate[];
}) => {
  const described = problem ? "entityId-problem" : undefined;
  return (
    <>
      <label for="entityId">Brand, hotel or page (for Can read and Can edit)</label>
      {problem && (
        <div class="notice error" id="entityId-problem" role="alert">
          <p>{problem}</p>
          {candidates && candidates.length > 0 && (
            <ul>
              {candidates.map((entity) => (
                <li>
                  {entity.name} ({entity.id})
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {entities === null ? (
        <input id="entityId" name="entityId" value={value} aria-invalid={problem ? "true" : undefined} aria-describedby={described} />
      ) : (
        <select id="entityId" name="entityId" aria-invalid={problem ? "true" : undefined} aria-describedby={described}>
          <option value="" selected={value === ""}>
            Choose one (none for an administrator)
          </option>
          {groupedEntities(entities).map((group) => (
            <optgroup label={group.label}>
              {group.options.map((entity) => (
                <option value={entity.id} selected={entity.id.toLowerCase() === value.toLowerCase()}>
                  {entity.text}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      )}
    </>
  );
};

interface ShownPassword {
  text: string;
  madeFor: MadePasswordRow["made_for"];
  until: string;
}

const ChangeList = ({ entries, names }: { entries: AuditEntry[]; names: ReadonlyMap<string, string> }) =>
  entries.length === 0 ? (
    <p>No change yet.</p>
  ) : (
    <ol class="history">
      {entries.map((entry) => (
        <li>
          <p>
            <strong>{actionWords(entry.action)}</strong> · {whenWords(entry.at)} ·{" "}
            {entry.actor.startsWith("person:") ? `by ${entry.actor.slice("person:".length)}` : "by the operator"}
          </p>
          <ul class="changes">
            {changeLines(entry.detail, names).map((line) => (
              <li>{line}</li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );

const personPage = ({
  viewer,
  person,
  entities,
  names,
  changes,
  done,
  password,
  problems = {},
  candidates,
  values = { role: "editor", entityId: "" },
}: {
  viewer: Viewer;
  person: Person;
  entities: GrantCandidate[] | null;
  names: ReadonlyMap<string, string>;
  changes: AuditEntry[];
  done?: string;
  password?: ShownPassword;
  problems?: Record<string, string>;
  candidates?: GrantCandidate[];
  values?: { role: string; entityId: string };
}) => (
  <Page title={person.display_name} viewer={viewer}>
    <p>
      <a href="/console/people">All people</a>
    </p>
    <h1>
      {person.display_name} <span class="muted">({person.email})</span>
    </h1>
    {done && DONE[done] && (
      <p class="notice ok" role="status">
        {DONE[done]}
      </p>
    )}
    {password && (
      <p class="notice warn" id="made-password">
        {password.madeFor === "invite" ? "Their first password is " : "Their new password is "}
        <strong>{password.text}</strong>. It is shown to you alone, until {password.until} UTC: give it to them in person or by phone. They
        choose their own when they sign in with it.
      </p>
    )}
    {person.disabled_at !== null && (
      <p class="notice warn">This person was disabled on {person.disabled_at.slice(0, 10)}: they cannot sign in.</p>
    )}
    {person.disabled_at === null && person.must_choose_password === 1 && (
      <p class="muted">They have not chosen their own password yet: when they next sign in, they must.</p>
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
      <ul class="roles">
        {person.grants.map((grant) => (
          <li>
            {grantWords(grant, names)}{" "}
            <form method="post" action={`/console/people/${person.id}/revoke`} class="actions">
              <Csrf token={viewer.csrf} />
              <input type="hidden" name="role" value={grant.role} />
              <input type="hidden" name="entityId" value={grant.entity_id ?? ""} />
              <button type="submit" aria-label={`Remove the role: ${grantWords(grant, names)}`}>
                Remove this role
              </button>
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
      <select id="role" name="role" aria-describedby={problems.role ? "role-problem" : undefined}>
        {(["viewer", "editor", "administrator"] as const).map((role) => (
          <option value={role} selected={values.role === role}>
            {ROLE_CHOICES[role]}
          </option>
        ))}
      </select>
      <EntityChoice entities={entities} value={values.entityId} problem={problems.entityId} candidates={candidates} />
      <button class="primary" type="submit">
        Give this role
      </button>
    </form>
    <h2>Password</h2>
    <p>For someone who forgot theirs: they are signed out everywhere, sign in with the new one and then choose their own.</p>
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
    <h2 id="changes">Changes</h2>
    <p class="muted">
      What was done to {person.display_name}'s account, newest first (the last {CHANGES_SHOWN}).
    </p>
    <ChangeList entries={changes} names={names} />
  </Page>
);

export const peopleRoutes = new Hono<ConsoleEnv>();

async function listOf(c: PeopleContext): Promise<Person[]> {
  const organizationId = c.get("person").organization_id;
  const [people, grants] = await Promise.all([listPeople(c.env.DB, organizationId), grantsOfOrganization(c.env.DB, organizationId)]);
  return people.map((person) => ({ ...person, grants: grants.get(person.id) ?? [] }));
}

async function peopleAnswer(c: PeopleContext, status = 200, form?: { values: InviteValues; problems: Record<string, string> }) {
  const people = await listOf(c);
  const names = await entityNames(
    c.env.DB,
    people.flatMap((person) => person.grants.map((grant) => grant.entity_id)),
  );
  return page(render(peoplePage({ viewer: c.get("viewer"), people, names, ...form })), status);
}

const actorOf = (c: PeopleContext) => ({ name: `person:${c.get("person").email}`, personId: c.get("person").id });

/** What a made password is sealed to: the person it is for, so it cannot be shown as another's. */
const sealedFor = (personId: string) => `console-made-password\n${personId}`;

/**
 * Keeps a password the console made for this session, sealed with its cookie's token (which D1 never holds), so the
 * page after the form can show it again on a reload, to this administrator only, for a few minutes.
 */
const keepForSession =
  (c: PeopleContext, madeFor: MadePasswordRow["made_for"]): KeepMadePassword =>
  async (personId, password) =>
    insertMadePassword(c.env.DB, {
      session_hash: await sessionHash(c.get("token")),
      person_id: personId,
      sealed_password: await seal(c.get("token"), password, sealedFor(personId)),
      made_for: madeFor,
      expires_at: new Date(Date.now() + MADE_PASSWORD_SHOWN_MS).toISOString(),
    });

/** The password this session's administrator had made for `personId`, while it is still shown. */
async function madePassword(c: PeopleContext, personId: string): Promise<ShownPassword | undefined> {
  const token = c.get("token");
  const hash = await sessionHash(token);
  const row = await findMadePassword(c.env.DB, hash, personId);
  if (!row) return undefined;
  if (Date.parse(row.expires_at) <= Date.now()) {
    await deleteMadePassword(c.env.DB, hash, personId).run();
    return undefined;
  }
  try {
    const text = await unseal(token, row.sealed_password, sealedFor(personId));
    return { text, madeFor: row.made_for, until: row.expires_at.slice(11, 16) };
  } catch (error) {
    if (error instanceof SealingError) return undefined;
    throw error;
  }
}

/** A person's page: their roles in words, the grant form, what was done to them. */
async function personAnswer(
  c: PeopleContext,
  person: Person,
  shown: Partial<Pick<Parameters<typeof personPage>[0], "done" | "problems" | "candidates" | "values">> = {},
  status = 200,
) {
  const organizationId = c.get("person").organization_id;
  const [listed, changes, password] = await Promise.all([
    grantableEntities(c.env.DB, organizationId, LISTED_AT_MOST + 1),
    listAudit(c.env.DB, { target: person.id, limit: CHANGES_SHOWN }),
    madePassword(c, person.id),
  ]);
  const entities = listed.length > LISTED_AT_MOST ? null : listed;
  const changed = changes.flatMap((entry) => {
    const detail = entry.detail as { before?: unknown; after?: unknown } | null;
    return [detail?.before, detail?.after].flatMap((grants) =>
      Array.isArray(grants)
        ? grants.map((grant: { entity_id?: unknown }) => (typeof grant.entity_id === "string" ? grant.entity_id : null))
        : [],
    );
  });
  const names = await entityNames(c.env.DB, [...person.grants.map((grant) => grant.entity_id), ...changed]);
  return page(render(personPage({ viewer: c.get("viewer"), person, entities, names, changes, password, ...shown })), status);
}

peopleRoutes.get("/console/people", async (c) => notAdministrator(c) ?? peopleAnswer(c));

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
    keepForSession(c, "invite"),
  );
  switch (outcome.outcome) {
    case "invited":
      // A reload shows the page again, never invites again; a made password is shown from where it was kept.
      return seeOther(`/console/people/${outcome.person.id}?done=invite`);
    case "invalid":
      return peopleAnswer(c, 400, { values, problems: problemsByField(outcome.problems) });
    case "taken":
      return peopleAnswer(c, 409, {
        values,
        problems: {
          email: outcome.elsewhere
            ? `The e-mail ${outcome.email} cannot be invited here. Use another address for this person, or ask your operator.`
            : `The e-mail ${outcome.email} is already one of your people's: find them on this page.`,
        },
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
  return personAnswer(c, person, { done: c.req.query("done") });
});

type Refusal = Exclude<GrantOutcome, { outcome: "saved" | "invalid" | "no_person" }>;
const GRANT_REFUSALS: { [K in Refusal["outcome"]]: (o: Extract<Refusal, { outcome: K }>) => string } = {
  out_of_scope: (o) =>
    o.candidates.length > 0
      ? `Nothing your organization looks after has the name or ID “${o.entityId}”. Names that contain it are listed below: choose one. Nothing was changed.`
      : `Your organization does not look after “${o.entityId}”, or there is no brand, hotel or page with this name or ID. Check it; nothing was changed.`,
  ambiguous: (o) =>
    `Your organization looks after ${o.candidates.length} with the name “${o.entityId}”: give the ID of the one you mean. Nothing was changed.`,
  already: () => "They already have this role. Nothing was changed.",
  no_grant: () => "They do not have this role (someone may have just removed it). Nothing was changed.",
  own_administrator: () =>
    "You cannot remove your own administrator role. Ask another administrator of your organization to do it. Nothing was changed.",
};
const refusalWords = (refusal: Refusal): string => (GRANT_REFUSALS[refusal.outcome] as (o: Refusal) => string)(refusal);

for (const action of ["grant", "revoke"] as const) {
  peopleRoutes.post(`/console/people/:personId/${action === "grant" ? "grants" : "revoke"}`, async (c) => {
    const refused = notAdministrator(c);
    if (refused) return refused;
    const form = c.get("form");
    const role = form.get("role") ?? "";
    // The list offers "none" for an administrator's role, which is on the whole organization.
    const values = { role, entityId: role === "administrator" ? "" : (form.get("entityId") ?? "") };
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
    const aboutEntity = outcome.outcome === "out_of_scope" || outcome.outcome === "ambiguous";
    const problems =
      outcome.outcome === "invalid" ? problemsByField(outcome.problems) : { [aboutEntity ? "entityId" : "form"]: refusalWords(outcome) };
    const status = outcome.outcome === "invalid" || aboutEntity ? 400 : 409;
    return personAnswer(
      c,
      person,
      { problems, candidates: aboutEntity ? outcome.candidates : undefined, values: action === "grant" ? values : undefined },
      status,
    );
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
    keepForSession(c, "reset"),
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
      return personAnswer(c, person, { problems: problemsByField(outcome.problems) }, 400);
    }
    case "saved":
      return seeOther(`/console/people/${outcome.person.id}?done=password`);
  }
});
