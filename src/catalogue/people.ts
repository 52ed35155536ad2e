import { z } from "@hono/zod-openapi";
import { hashPassword } from "../crypto/password";
import { randomId, randomSecret } from "../crypto/random";
import { insertAudit } from "../storage/admin-audit";
import { deleteGrant, grantsOf, insertGrant, type ConsoleGrantRow } from "../storage/console-grants";
import { deleteMadePasswordsOf } from "../storage/console-made-passwords";
import { deleteSessionsOf, insertSession, type ConsoleSessionRow } from "../storage/console-sessions";
import { findOrganization } from "../storage/organizations";
import {
  disablePerson,
  enablePerson,
  findPersonByEmail,
  findPersonListing,
  findSignInPerson,
  insertPerson,
  setPersonPasswordHash,
  type PersonListing,
  type PersonRow,
} from "../storage/people";
import type { Env } from "../env";
import { checkPassword } from "../rate-limit/password-sign-in";
import { nameKey } from "../search/normalize";
import { exactScopedEntities, listScopedEntities } from "../storage/scoped-content";

/**
 * The people of an organization who sign in to the content console, and their roles: invite, grant, revoke,
 * disable. The operator API (admin/people.ts) and the console's people pages (console/people.tsx) both call these,
 * so a change from either is checked and audited the same way. Each change goes in one D1 batch with its audit row
 * (actor, the person's ID, the e-mail and the grants before and after), so a refused change writes nothing.
 *
 * `organizationId` in a change limits it to that organization's people: a person of another one is "no_person",
 * exactly as one that does not exist. The operator passes none and reaches everyone.
 */

/** The backoff of console sign-in, which a password change shares: guessing there costs as much as here. */
export const CONSOLE_SIGN_IN_REALM = "console-sign-in";

/** A password a person is given or chooses. */
export const NewPassword = z.string().min(10, "must be at least 10 characters").max(200, "is too long (200 characters at most)");

/** The messages read "<field label> <message>." in the console and "<field> <message>." in the operator API. */
export const PersonInvite = z.strictObject({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email("must be an e-mail address, like name@example.com").max(254, "is too long"))
    .openapi({ format: "email", maxLength: 254 }),
  displayName: z.string().trim().min(1, "is needed").max(200, "is too long (200 characters at most)"),
  password: NewPassword.optional().openapi({ description: "A random one is chosen (and returned once) when omitted." }),
});
export type PersonInviteInput = z.input<typeof PersonInvite>;

const GrantEntityId = z
  .string({ error: "is needed for a viewer or editor" })
  .trim()
  .min(1, "is needed for a viewer or editor")
  .max(200, "is too long")
  .openapi({
    description:
      "The brand, hotel or page the role is on (a brand's covers its hotels): its ID in any case, or its name as the " +
      "organization's scope holds it (any case, accents aside).",
  });
/** An administrator's role is on the whole organization; a viewer's or editor's on one entity of its scope. */
export const GrantChange = z.discriminatedUnion(
  "role",
  [
    z.strictObject({
      role: z.literal("administrator"),
      entityId: z.string().max(0, "must be left empty for an administrator").optional(),
    }),
    z.strictObject({ role: z.enum(["viewer", "editor"]), entityId: GrantEntityId }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? "must be viewer, editor or administrator" : undefined) },
);
export type GrantChangeInput = z.input<typeof GrantChange>;

export type Problem = { field: string; message: string };
export const problemsOf = (error: z.ZodError): Problem[] =>
  error.issues.map((issue) => ({ field: issue.path.join(".") || "(form)", message: issue.message }));

export interface Person extends PersonListing {
  grants: ConsoleGrantRow[];
}

/** Who makes a change: the operator's fingerprint, or `person:<email>` with the person's ID (for "not yourself"). */
export interface Actor {
  name: string;
  personId?: string;
}

export type InviteOutcome =
  | { outcome: "invited"; person: Person; password?: string }
  | { outcome: "invalid"; problems: Problem[] }
  /** The e-mail is in use: by one of the organization's own people, or (`elsewhere`) not, which says no more. */
  | { outcome: "taken"; email: string; elsewhere: boolean }
  | { outcome: "no_organization" };

export type GrantOutcome =
  | { outcome: "saved"; person: Person }
  | { outcome: "invalid"; problems: Problem[] }
  | { outcome: "no_person" }
  /**
   * Nothing the organization's scope holds has this ID or name, whether it exists elsewhere or not: the same answer
   * either way. `candidates`: what the scope holds whose name contains it, to choose from.
   */
  | { outcome: "out_of_scope"; entityId: string; candidates: GrantCandidate[] }
  /** Several entities of the scope have this name: one of them is to be chosen by ID. */
  | { outcome: "ambiguous"; entityId: string; candidates: GrantCandidate[] }
  | { outcome: "already" }
  | { outcome: "no_grant" }
  | { outcome: "own_administrator" };

/** An entity of the scope a grant may name, as it is offered and suggested. */
export interface GrantCandidate {
  id: string;
  name: string;
  kind: string;
  brand_id: string | null;
}

export type DisableOutcome =
  { outcome: "saved"; person: Person } | { outcome: "no_person" } | { outcome: "already" } | { outcome: "own_account" };

export type EnableOutcome = { outcome: "saved"; person: Person } | { outcome: "no_person" } | { outcome: "already" };

export type PasswordOutcome =
  | { outcome: "saved"; person: Person; password?: string }
  | { outcome: "invalid"; problems: Problem[] }
  | { outcome: "no_person" }
  | { outcome: "own_password" };

export type OwnPasswordOutcome =
  | { outcome: "saved" }
  | { outcome: "invalid"; problems: Problem[] }
  | { outcome: "wrong_current" }
  | { outcome: "throttled"; retryAfterSeconds?: number };

/**
 * Where the console keeps a password it made, for the administrator's session that made it: a statement that goes
 * in the same batch as the change, so the password is kept exactly when it is set.
 */
export type KeepMadePassword = (personId: string, password: string) => Promise<D1PreparedStatement>;

const audit = (
  db: D1Database,
  actor: Actor,
  action: string,
  person: Pick<PersonListing, "id" | "email">,
  detail: Record<string, unknown>,
) =>
  insertAudit(db, {
    at: new Date().toISOString(),
    actor: actor.name,
    action,
    target: person.id,
    detail: { email: person.email, ...detail },
  });

/** A person with their grants, or null when there is none in `organizationId` (any organization when undefined). */
export async function findPersonWithGrants(db: D1Database, id: string, organizationId?: string): Promise<Person | null> {
  const person = await findPersonListing(db, id);
  if (!person || (organizationId !== undefined && person.organization_id !== organizationId)) return null;
  return { ...person, grants: await grantsOf(db, id) };
}

/** Invites a person to `organizationId` with no role yet, and a password given or chosen here (returned once). */
export async function invitePerson(
  env: { DB: D1Database; PASSWORD_PEPPER?: string },
  organizationId: string,
  input: unknown,
  actor: Actor,
  keep?: KeepMadePassword,
): Promise<InviteOutcome> {
  const parsed = PersonInvite.safeParse(input);
  if (!parsed.success) return { outcome: "invalid", problems: problemsOf(parsed.error) };
  const { email, displayName, password: given } = parsed.data;
  if (!(await findOrganization(env.DB, organizationId))) return { outcome: "no_organization" };
  const holder = await findPersonByEmail(env.DB, email);
  // E-mails sign people in, so one belongs to one person in one organization; who holds it elsewhere is not said.
  if (holder) return { outcome: "taken", email, elsewhere: holder.organization_id !== organizationId };
  const password = given ?? randomSecret(18);
  const person: PersonListing = {
    id: randomId("person_"),
    organization_id: organizationId,
    email,
    display_name: displayName,
    created_at: new Date().toISOString(),
    disabled_at: null,
    // Someone else chose it: the person chooses their own at their first sign-in.
    must_choose_password: 1,
  };
  const { disabled_at: _, ...row } = person;
  await env.DB.batch([
    insertPerson(env.DB, { ...row, password_hash: await hashPassword(password, env.PASSWORD_PEPPER) }),
    audit(env.DB, actor, "person.invite", person, { organizationId, displayName, mustChoosePassword: true }),
    ...(given === undefined && keep ? [await keep(person.id, password)] : []),
  ]);
  return { outcome: "invited", person: { ...person, grants: [] }, ...(given === undefined ? { password } : {}) };
}

const sameGrant = (a: ConsoleGrantRow, b: ConsoleGrantRow) => a.role === b.role && a.entity_id === b.entity_id;

/** How many entities a grant's name or ID that matches none exactly suggests, at most. */
const MAX_SUGGESTED = 10;

/**
 * The entity of the organization's scope (a brand in it holds its hotels) that `reference` names: its ID in any case,
 * or its name (any case, accents aside). Another organization's entity is never found nor suggested, so its answer
 * is that of an ID that does not exist.
 */
export async function grantedEntity(
  db: D1Database,
  organizationId: string,
  reference: string,
): Promise<{ entity: GrantCandidate } | { entity: null; ambiguous: boolean; candidates: GrantCandidate[] }> {
  const exact = await exactScopedEntities(db, organizationId, {
    id: reference,
    key: nameKey(reference),
    kinds: null,
    limit: MAX_SUGGESTED,
  });
  const [first, second] = exact;
  const shown = (list: GrantCandidate[]) => list.map(({ id, name, kind, brand_id }) => ({ id, name, kind, brand_id }));
  if (first && (first.id.toLowerCase() === reference.toLowerCase() || !second)) return { entity: shown([first])[0]! };
  if (second) return { entity: null, ambiguous: true, candidates: shown(exact) };
  const key = nameKey(reference);
  const similar = key === "" ? [] : await listScopedEntities(db, organizationId, { nameContains: key, afterId: "", limit: MAX_SUGGESTED });
  return { entity: null, ambiguous: false, candidates: shown(similar) };
}

/** What an organization's scope holds that a grant may name: its brands with their hotels, destinations, airports. */
export const grantableEntities = (db: D1Database, organizationId: string, limit: number): Promise<GrantCandidate[]> =>
  listScopedEntities(db, organizationId, { afterId: "", limit });

/** Grants or revokes a role of a person of `organizationId` (any organization's for the operator). */
export async function changeGrant(
  db: D1Database,
  change: { personId: string; organizationId?: string; action: "grant" | "revoke"; grant: unknown },
  actor: Actor,
): Promise<GrantOutcome> {
  const parsed = GrantChange.safeParse(change.grant);
  if (!parsed.success) return { outcome: "invalid", problems: problemsOf(parsed.error) };
  const person = await findPersonWithGrants(db, change.personId, change.organizationId);
  if (!person) return { outcome: "no_person" };
  const named = parsed.data.role === "administrator" ? null : parsed.data.entityId;
  let entityId = named;
  if (named !== null && change.action === "revoke") {
    // A held grant is named by its ID in any case, also when the scope no longer holds its entity.
    entityId = person.grants.find((g) => g.entity_id?.toLowerCase() === named.toLowerCase())?.entity_id ?? named;
    if (!person.grants.some((g) => g.entity_id === entityId)) {
      const found = await grantedEntity(db, person.organization_id, named);
      if (found.entity) entityId = found.entity.id;
    }
  } else if (named !== null) {
    const found = await grantedEntity(db, person.organization_id, named);
    if (!found.entity) return { outcome: found.ambiguous ? "ambiguous" : "out_of_scope", entityId: named, candidates: found.candidates };
    entityId = found.entity.id;
  }
  const grant: ConsoleGrantRow = { role: parsed.data.role, entity_id: entityId };
  const held = person.grants.some((g) => sameGrant(g, grant));
  let after: ConsoleGrantRow[];
  let statement: D1PreparedStatement;
  if (change.action === "grant") {
    if (held) return { outcome: "already" };
    after = [...person.grants, grant];
    statement = insertGrant(db, person.id, grant, new Date().toISOString());
  } else {
    if (!held) return { outcome: "no_grant" };
    if (grant.role === "administrator" && actor.personId === person.id) return { outcome: "own_administrator" };
    after = person.grants.filter((g) => !sameGrant(g, grant));
    statement = deleteGrant(db, person.id, grant);
  }
  await db.batch([statement, audit(db, actor, `person.${change.action}`, person, { before: person.grants, after })]);
  return { outcome: "saved", person: { ...person, grants: after } };
}

/** Disables a person: they can no longer sign in, and every session of theirs ends now. */
export async function disablePersonAccount(
  db: D1Database,
  change: { personId: string; organizationId?: string },
  actor: Actor,
): Promise<DisableOutcome> {
  const person = await findPersonWithGrants(db, change.personId, change.organizationId);
  if (!person) return { outcome: "no_person" };
  if (person.disabled_at !== null) return { outcome: "already" };
  if (actor.personId === person.id) return { outcome: "own_account" };
  const at = new Date().toISOString();
  await db.batch([
    disablePerson(db, person.id, at),
    deleteSessionsOf(db, person.id),
    audit(db, actor, "person.disable", person, { before: { disabledAt: null }, after: { disabledAt: at } }),
  ]);
  return { outcome: "saved", person: { ...person, disabled_at: at } };
}

/** Lets a disabled person sign in again; their roles are as they were. */
export async function enablePersonAccount(
  db: D1Database,
  change: { personId: string; organizationId?: string },
  actor: Actor,
): Promise<EnableOutcome> {
  const person = await findPersonWithGrants(db, change.personId, change.organizationId);
  if (!person) return { outcome: "no_person" };
  if (person.disabled_at === null) return { outcome: "already" };
  await db.batch([
    enablePerson(db, person.id),
    audit(db, actor, "person.enable", person, { before: { disabledAt: person.disabled_at }, after: { disabledAt: null } }),
  ]);
  return { outcome: "saved", person: { ...person, disabled_at: null } };
}

/**
 * Sets a person's password, given or made here (returned once), for someone who forgot theirs: every session of
 * theirs ends, so whoever knew the old one is out. The audit row says that it changed, never what to.
 */
export async function setPersonPassword(
  env: { DB: D1Database; PASSWORD_PEPPER?: string },
  change: { personId: string; organizationId?: string; password?: unknown },
  actor: Actor,
  keep?: KeepMadePassword,
): Promise<PasswordOutcome> {
  const parsed = NewPassword.optional().safeParse(change.password);
  if (!parsed.success) return { outcome: "invalid", problems: problemsOf(parsed.error).map((p) => ({ ...p, field: "password" })) };
  const person = await findPersonWithGrants(env.DB, change.personId, change.organizationId);
  if (!person) return { outcome: "no_person" };
  // One's own password is changed by proving the current one (changeOwnPassword), so an open session cannot.
  if (actor.personId === person.id) return { outcome: "own_password" };
  const password = parsed.data ?? randomSecret(18);
  await env.DB.batch([
    setPersonPasswordHash(env.DB, person.id, await hashPassword(password, env.PASSWORD_PEPPER), false),
    deleteSessionsOf(env.DB, person.id),
    deleteMadePasswordsOf(env.DB, person.id),
    audit(env.DB, actor, "person.password", person, {
      by: "administrator",
      sessionsEnded: "all",
      mustChoosePassword: { from: person.must_choose_password === 1, to: true },
    }),
    ...(parsed.data === undefined && keep ? [await keep(person.id, password)] : []),
  ]);
  return { outcome: "saved", person: { ...person, must_choose_password: 1 }, ...(parsed.data === undefined ? { password } : {}) };
}

/**
 * A person changes their own password, proving the current one with sign-in's protections (a backoff per e-mail
 * and address, a cap per address), so a session left open is not a way to guess it. Every session of theirs ends,
 * and `replacementSession` (a new token for the browser that changed it) starts in the same batch.
 */
export async function changeOwnPassword(
  env: Env,
  person: PersonRow,
  attempt: { current: string; next: string; repeated: string; address: string; replacementSession: ConsoleSessionRow },
): Promise<OwnPasswordOutcome> {
  const parsed = NewPassword.safeParse(attempt.next);
  const problems = parsed.success ? [] : problemsOf(parsed.error).map((p) => ({ ...p, field: "next" }));
  if (attempt.repeated !== attempt.next) problems.push({ field: "repeated", message: "is not the same as the new password" });
  // A password someone else set stays known to them: choosing it again would keep it.
  if (parsed.success && attempt.next === attempt.current)
    problems.push({ field: "next", message: "is the same as the current one: choose another" });
  if (problems.length > 0) return { outcome: "invalid", problems };
  const checked = await checkPassword(
    env,
    { realm: CONSOLE_SIGN_IN_REALM, email: person.email, password: attempt.current, address: attempt.address },
    (email) => findSignInPerson(env.DB, email),
  );
  if (!checked.ok)
    return checked.reason === "throttled"
      ? { outcome: "throttled", retryAfterSeconds: checked.retryAfterSeconds }
      : { outcome: "wrong_current" };
  await env.DB.batch([
    setPersonPasswordHash(env.DB, person.id, await hashPassword(attempt.next, env.PASSWORD_PEPPER), true),
    deleteMadePasswordsOf(env.DB, person.id),
    // Every session ends, the one in use too: the browser that changed it goes on with a new token, so a copy of the
    // old cookie elsewhere is worth nothing.
    deleteSessionsOf(env.DB, person.id),
    insertSession(env.DB, attempt.replacementSession),
    audit(env.DB, { name: `person:${person.email}`, personId: person.id }, "person.password", person, {
      by: "themselves",
      sessionsEnded: "all others",
      mustChoosePassword: { from: person.must_choose_password === 1, to: false },
    }),
  ]);
  return { outcome: "saved" };
}
