import { Hono, type Context } from "hono";
import {
  ApiKeyCreate,
  ApiKeyPatch,
  changeApiKeyTerms,
  findApiKey,
  issueApiKey,
  overQuotaMessage,
  revokeApiKey,
  type ApiKeyCreateInput,
  type ApiKeyUse,
  type KeyChangeOutcome,
  type OverQuota,
} from "../catalogue/api-keys";
import { problemsOf, type Problem } from "../catalogue/people";
import type { ApiKeyListing } from "../storage/api-keys";
import { page, problem, seeOther } from "./answers";
import type { ConsoleEnv } from "./context";
import { notAdministrator } from "./people";
import { Csrf, Field, Page, render, type Viewer } from "./pages";

/**
 * The content API keys issued for the organization, for its administrators: issue one (shown once), change its
 * hourly limit or the day it stops working, revoke it; the same service as the operator API (catalogue/api-keys.ts).
 * A key of another organization, or of the operator, is "not found", whether it exists or not.
 */

type KeysContext = Context<ConsoleEnv>;

const FIELD_LABELS: Record<string, string> = {
  partner: "The partner's name",
  hourlyLimit: "The hourly limit",
  expiresAt: "The day it stops working",
};
const problemsByField = (problems: Problem[]) =>
  Object.fromEntries(problems.map(({ field, message }) => [field, `${FIELD_LABELS[field] ?? "The form"} ${message}.`]));

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The form's values as the service's schemas take them: a limit typed as digits is a number, a day is its UTC midnight. */
function termsOf(form: URLSearchParams) {
  const limit = (form.get("hourlyLimit") ?? "").replace(/[\s,]/g, "");
  const day = (form.get("expiresOn") ?? "").trim();
  const values = { partner: form.get("partner") ?? "", hourlyLimit: form.get("hourlyLimit") ?? "", expiresOn: day };
  const dayProblem = day !== "" && (!DAY.test(day) || Number.isNaN(Date.parse(day)));
  return {
    values,
    hourlyLimit: limit === "" ? undefined : /^\d+$/.test(limit) ? Number(limit) : limit,
    expiresAt: day === "" ? undefined : `${day}T00:00:00Z`,
    dayProblem: dayProblem ? { expiresAt: `${FIELD_LABELS.expiresAt} must be a day, like 2027-01-31.` } : undefined,
  };
}
type KeyFormValues = ReturnType<typeof termsOf>["values"];

const keyState = (key: ApiKeyListing) =>
  key.revoked_at !== null
    ? `Revoked on ${key.revoked_at.slice(0, 10)}`
    : key.expires_at !== null && !(Date.parse(key.expires_at) > Date.now())
      ? `Stopped working on ${key.expires_at.slice(0, 10)}`
      : "Working";

/** A key's terms as a form's fields: its limit per hour and the day it stops working. */
const TermsFields = ({
  hourlyLimit,
  expiresOn,
  problems,
}: {
  hourlyLimit: string;
  expiresOn: string;
  problems: Record<string, string>;
}) => (
  <>
    <Field
      id="hourlyLimit"
      label="Limit per hour"
      inputmode="numeric"
      required
      value={hourlyLimit}
      problem={problems.hourlyLimit}
      autocomplete="off"
    />
    <Field
      id="expiresOn"
      label="Stops working on (day, UTC; leave empty for never)"
      type="date"
      value={expiresOn}
      problem={problems.expiresAt}
    />
  </>
);

/** The access page's section: the keys with their use this hour, and the form that issues one. */
export const KeysSection = ({
  viewer,
  keys,
  values = { partner: "", hourlyLimit: "1000", expiresOn: "" },
  problems = {},
}: {
  viewer: Viewer;
  keys: ApiKeyUse[];
  values?: KeyFormValues;
  problems?: Record<string, string>;
}) => (
  <>
    <h2 id="keys">Content API keys</h2>
    <p class="muted">
      Partners send a key with each request to the content API. Each key has its own hourly limit; "used this hour" counts since the top of
      the current hour (UTC).
    </p>
    {keys.length === 0 ? (
      <p>No key was issued for your organization.</p>
    ) : (
      <table>
        <thead>
          <tr>
            <th scope="col">Partner</th>
            <th scope="col">Used this hour</th>
            <th scope="col">Limit per hour</th>
            <th scope="col">Stops working</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr>
              <td>
                <a href={`/console/access/keys/${key.id}`}>{key.partner}</a> <span class="muted">({key.id})</span>
              </td>
              <td>{key.used_this_hour.toLocaleString("en")}</td>
              <td>{key.hourly_limit.toLocaleString("en")}</td>
              <td>{key.expires_at === null ? "Never" : key.expires_at.slice(0, 10)}</td>
              <td>{keyState(key)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
    <h3 id="issue">Issue a key</h3>
    <form method="post" action="/console/access/keys">
      <Csrf token={viewer.csrf} />
      <Field id="partner" label="Partner's name" required value={values.partner} problem={problems.partner} autocomplete="off" />
      <TermsFields hourlyLimit={values.hourlyLimit} expiresOn={values.expiresOn} problems={problems} />
      {problems.form && (
        <p class="notice error" role="alert">
          {problems.form}
        </p>
      )}
      <button class="primary" type="submit">
        Issue the key
      </button>
    </form>
  </>
);

const DONE: Record<string, string> = {
  terms: "The key's terms were changed. Partners see the new limit within a few seconds.",
  revoke: "The key was revoked: it stops working within a few seconds.",
};

const keyPage = ({
  viewer,
  key,
  secret,
  done,
  values,
  problems = {},
}: {
  viewer: Viewer;
  key: ApiKeyListing;
  secret?: string;
  done?: string;
  values?: KeyFormValues;
  problems?: Record<string, string>;
}) => (
  <Page title={`API key for ${key.partner}`} viewer={viewer}>
    <p>
      <a href="/console/access#keys">Partners and access</a>
    </p>
    <h1>API key for {key.partner}</h1>
    {secret && (
      <p class="notice warn" role="status">
        The key is <code>{secret}</code>. It is shown only now: copy it and give it to {key.partner} over a safe channel. They send it in
        the X-API-Key header.
      </p>
    )}
    {done && DONE[done] && (
      <p class="notice ok" role="status">
        {DONE[done]}
      </p>
    )}
    <dl>
      <dt>ID</dt>
      <dd>{key.id}</dd>
      <dt>Limit per hour</dt>
      <dd>{key.hourly_limit.toLocaleString("en")}</dd>
      <dt>Stops working</dt>
      <dd>{key.expires_at === null ? "Never" : key.expires_at.slice(0, 10)}</dd>
      <dt>State</dt>
      <dd>{keyState(key)}</dd>
      <dt>Issued</dt>
      <dd>{key.created_at.slice(0, 10)}</dd>
    </dl>
    {problems.form && (
      <p class="notice error" role="alert">
        {problems.form}
      </p>
    )}
    {key.revoked_at === null && (
      <>
        <h2>Change its terms</h2>
        <form method="post" action={`/console/access/keys/${key.id}`}>
          <Csrf token={viewer.csrf} />
          <TermsFields
            hourlyLimit={values?.hourlyLimit ?? String(key.hourly_limit)}
            expiresOn={values?.expiresOn ?? key.expires_at?.slice(0, 10) ?? ""}
            problems={problems}
          />
          <button class="primary" type="submit">
            Save the terms
          </button>
        </form>
        <h2>Revoke</h2>
        <p>The key stops working within a few seconds, for good. {key.partner} will need a new key.</p>
        <form method="post" action={`/console/access/keys/${key.id}/revoke`}>
          <Csrf token={viewer.csrf} />
          <button type="submit">Revoke the key for {key.partner}</button>
        </form>
      </>
    )}
  </Page>
);

export const keyRoutes = new Hono<ConsoleEnv>();

const actorOf = (c: KeysContext) => ({ name: `person:${c.get("person").email}`, personId: c.get("person").id });
const noSuchKey = (c: KeysContext) =>
  problem(404, "Not found", "There is no API key with this ID for your organization. Nothing was changed.", c.get("viewer"));
const keyOf = (c: KeysContext) => findApiKey(c.env.DB, c.req.param("keyId") ?? "", c.get("person").organization_id);

/** The issue form's values as the service takes them, or its problems by field (the form's values to show again). */
export function readNewKey(
  form: URLSearchParams,
): { input: ApiKeyCreateInput; values: KeyFormValues } | { values: KeyFormValues; problems: Record<string, string> } {
  const terms = termsOf(form);
  const parsed = ApiKeyCreate.safeParse({
    partner: terms.values.partner,
    ...(terms.hourlyLimit === undefined ? {} : { hourlyLimit: terms.hourlyLimit }),
    ...(terms.expiresAt === undefined || terms.dayProblem ? {} : { expiresAt: terms.expiresAt }),
  });
  if (parsed.success && !terms.dayProblem) return { input: parsed.data, values: terms.values };
  return { values: terms.values, problems: { ...(parsed.success ? {} : problemsByField(problemsOf(parsed.error))), ...terms.dayProblem } };
}

/** Issues a key for the person's organization and shows it, once; past the organization's quota, `refused` answers. */
export async function issueKey(
  c: KeysContext,
  input: ApiKeyCreateInput,
  refused: (problems: Record<string, string>) => Promise<Response>,
): Promise<Response> {
  const issued = await issueApiKey(c.env.DB, input, c.get("person").organization_id, actorOf(c));
  if (issued.outcome === "no_organization") return noSuchKey(c);
  if (issued.outcome === "over_quota") return refused(quotaProblem(issued));
  return page(render(keyPage({ viewer: c.get("viewer"), key: issued.key, secret: issued.secret })), 201);
}

keyRoutes.get("/console/access/keys/:keyId", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const key = await keyOf(c);
  if (!key) return noSuchKey(c);
  return page(render(keyPage({ viewer: c.get("viewer"), key, done: c.req.query("done") })));
});

/** The limit's problem past the organization's quota: only the operator raises it. */
const quotaProblem = (outcome: OverQuota): Record<string, string> => ({
  hourlyLimit: `The hourly limit ${overQuotaMessage(outcome)}. Ask your operator to raise it, or lower another key's limit.`,
});

const refusedChange = (outcome: KeyChangeOutcome): Record<string, string> =>
  outcome.outcome === "revoked"
    ? { form: `This key was revoked on ${outcome.revokedAt.slice(0, 10)} (perhaps by someone else just now). Nothing was changed.` }
    : outcome.outcome === "over_quota"
      ? quotaProblem(outcome)
      : {};

keyRoutes.post("/console/access/keys/:keyId", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const key = await keyOf(c);
  if (!key) return noSuchKey(c);
  const terms = termsOf(c.get("form"));
  const parsed = ApiKeyPatch.safeParse({
    hourlyLimit: terms.hourlyLimit ?? "",
    expiresAt: terms.dayProblem ? undefined : (terms.expiresAt ?? null),
  });
  const again = (status: number, problems: Record<string, string>) =>
    page(render(keyPage({ viewer: c.get("viewer"), key, values: terms.values, problems })), status);
  if (!parsed.success || terms.dayProblem)
    return again(400, { ...(parsed.success ? {} : problemsByField(problemsOf(parsed.error))), ...terms.dayProblem });
  const outcome = await changeApiKeyTerms(c.env.DB, key, parsed.data, actorOf(c));
  return outcome.outcome === "saved" ? seeOther(`/console/access/keys/${key.id}?done=terms`) : again(409, refusedChange(outcome));
});

keyRoutes.post("/console/access/keys/:keyId/revoke", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const key = await keyOf(c);
  if (!key) return noSuchKey(c);
  const outcome = await revokeApiKey(c.env.DB, key, actorOf(c));
  return outcome.outcome === "saved"
    ? seeOther(`/console/access/keys/${key.id}?done=revoke`)
    : page(render(keyPage({ viewer: c.get("viewer"), key, problems: refusedChange(outcome) })), 409);
});
