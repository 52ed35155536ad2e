import { z } from "@hono/zod-openapi";
import { Hono, type Context } from "hono";
import { apiKeysWithUse, type ApiKeyUse } from "../catalogue/api-keys";
import { mcpRateLimit } from "../env";
import { connectorAuthorizations, type ConnectorAuthorization } from "../oauth/grants";
import { counterNames, usedThisHour } from "../rate-limit/rate-counter";
import { auditOfOrganization, type AuditEntry } from "../storage/admin-audit";
import { listIdentityClients, REALM_ISSUER_KEY, type IdentityClientView } from "../storage/identity-clients";
import { entityIdsWithin } from "../storage/entities";
import { scopeOf } from "../storage/organizations";
import { listPeople } from "../storage/people";
import { listUsers, type UserRow } from "../storage/users";
import { listWebhookEndpoints, type WebhookEndpointView } from "../storage/webhook-endpoints";
import { page } from "./answers";
import { actionWords, changeLines } from "./change-words";
import type { ConsoleEnv } from "./context";
import { issueKey, KeysSection, readNewKey } from "./keys";
import { notAdministrator } from "./people";
import { Page, render, type Viewer } from "./pages";

/**
 * Partners and access, for the organization's administrators: the content API keys issued for it (with their use
 * this hour; keys.tsx changes them), the assistants that connect to its MCP server (clients with a secret, and the
 * connector clients its users allowed), the webhook endpoints that follow only its brands, with their deliveries,
 * and the audit log of what its people did, what was done to them and to its keys, filtered by person, entity and
 * time. Keys and clients of no organization are the operator's (npm run admin) and not shown here.
 */

const AUDIT_LIMIT = 200;
const Day = z
  .string()
  .trim()
  .regex(/^(\d{4}-\d{2}-\d{2})?$/, "must be a date, like 2026-11-25")
  .refine((day) => day === "" || !Number.isNaN(Date.parse(day)), "must be a date, like 2026-11-25");
/** The audit filter of the page's form: every field may be left empty. */
const AuditFilter = z.object({
  person: z.string().trim().toLowerCase().max(254, "is too long").default(""),
  entity: z.string().trim().max(200, "is too long").default(""),
  from: Day.default(""),
  to: Day.default(""),
});
type AuditFilterValues = z.output<typeof AuditFilter>;
const FILTER_LABELS: Record<string, string> = { person: "The person", entity: "The entity ID", from: "From", to: "Until" };

const nextDay = (day: string) => new Date(Date.parse(day) + 86_400_000).toISOString();

const ownedOnly = (endpoint: WebhookEndpointView, scope: string[]) =>
  endpoint.brands.length > 0 && endpoint.brands.every((brand) => scope.includes(brand));

interface Assistants {
  clients: IdentityClientView[];
  users: UserRow[];
  authorizations: ConnectorAuthorization[];
  used: number;
  limit: number;
}

const AssistantsSection = ({ clients, users, authorizations, used, limit }: Assistants) => (
  <>
    <h2 id="assistants">Assistants</h2>
    <p>
      Your organization's assistants made {used.toLocaleString("en")} of their {limit.toLocaleString("en")} requests this hour (UTC) to the
      MCP server.
    </p>
    <h3>Connected with a client ID and secret</h3>
    {clients.length === 0 ? (
      <p>None.</p>
    ) : (
      <table>
        <thead>
          <tr>
            <th scope="col">Client ID</th>
            <th scope="col">Signs in at</th>
            <th scope="col">Since</th>
          </tr>
        </thead>
        <tbody>
          {clients.map((client) => (
            <tr>
              <td>{client.client_id}</td>
              <td>{client.issuer === REALM_ISSUER_KEY ? "This service" : client.issuer}</td>
              <td>{client.created_at.slice(0, 10)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
    <h3>Connected by a person's sign-in</h3>
    {users.length === 0 ? (
      <p>Nobody of your organization may connect an assistant with their own sign-in.</p>
    ) : (
      <table>
        <thead>
          <tr>
            <th scope="col">Signs in as</th>
            <th scope="col">Can sign in</th>
            <th scope="col">Assistants they allowed</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const allowed = authorizations.filter((grant) => grant.userId === user.id);
            return (
              <tr>
                <td>{user.email}</td>
                <td>{user.disabled_at === null ? "Yes" : "No, disabled"}</td>
                <td>
                  {allowed.length === 0
                    ? "None"
                    : allowed.map((grant) => `${grant.clientName ?? grant.clientId} (${grant.grantedAt.slice(0, 10)})`).join("; ")}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    )}
  </>
);

const accessPage = ({
  viewer,
  keys,
  keyForm,
  assistants,
  webhooks,
  filter,
  problems,
  entries,
}: {
  viewer: Viewer;
  keys: ApiKeyUse[];
  keyForm?: Pick<Parameters<typeof KeysSection>[0], "values" | "problems">;
  assistants: Assistants;
  webhooks: WebhookEndpointView[];
  filter: AuditFilterValues;
  problems: string[];
  entries: (AuditEntry & { id: number })[];
}) => (
  <Page title="Partners and access" viewer={viewer}>
    <h1>Partners and access</h1>
    <p>
      <a href="/console/people">People and their roles</a> are on their own page.
    </p>
    <KeysSection viewer={viewer} keys={keys} {...keyForm} />
    <AssistantsSection {...assistants} />
    <h2>Webhook endpoints</h2>
    {webhooks.length === 0 ? (
      <p>No webhook endpoint follows only your organization's brands.</p>
    ) : (
      <table>
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Brands</th>
            <th scope="col">Delivered</th>
            <th scope="col">Waiting</th>
            <th scope="col">Failed</th>
            <th scope="col">Last delivered</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((endpoint) => (
            <tr>
              <td>{endpoint.url}</td>
              <td>{endpoint.brands.join(", ")}</td>
              <td>{endpoint.delivered}</td>
              <td>{endpoint.pending}</td>
              <td>{endpoint.dead}</td>
              <td>{endpoint.last_success_at ?? "Never"}</td>
              <td>{endpoint.disabled_at ? `Stopped: ${endpoint.disabled_reason ?? "by the operator"}` : "Active"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
    <h2 id="audit">Changes</h2>
    <p class="muted">
      What your organization's people changed, and what anyone changed in its content, its people and its keys, newest first (the last{" "}
      {AUDIT_LIMIT}).
    </p>
    <form method="get" action="/console/access#audit">
      <label for="person">Person (e-mail)</label>
      <input id="person" name="person" type="email" value={filter.person} />
      <label for="entity">Brand, hotel or page ID</label>
      <input id="entity" name="entity" value={filter.entity} />
      <label for="from">From (day)</label>
      <input id="from" name="from" type="date" value={filter.from} />
      <label for="to">Until (day, included)</label>
      <input id="to" name="to" type="date" value={filter.to} />
      <button type="submit">Show</button>
    </form>
    {problems.length > 0 ? (
      problems.map((message) => (
        <p class="notice error" role="alert">
          {message}
        </p>
      ))
    ) : entries.length === 0 ? (
      <p>No change matches.</p>
    ) : (
      <table>
        <thead>
          <tr>
            <th scope="col">When (UTC)</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">On</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr>
              <td>{entry.at.slice(0, 16).replace("T", " ")}</td>
              <td>{entry.actor.startsWith("person:") ? entry.actor.slice("person:".length) : "The operator"}</td>
              <td>{actionWords(entry.action)}</td>
              <td>{entry.target}</td>
              <td>
                <ul class="changes">
                  {changeLines(entry.detail).map((line) => (
                    <li>{line}</li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </Page>
);

export const partnerRoutes = new Hono<ConsoleEnv>();

type AccessContext = Context<ConsoleEnv>;

/** The access page, with the issue form's values and problems when it is shown again. */
async function accessAnswer(
  c: AccessContext,
  keyForm?: { values: Parameters<typeof KeysSection>[0]["values"]; problems: Record<string, string> },
) {
  const organizationId = c.get("person").organization_id;
  const parsed = AuditFilter.safeParse(c.req.method === "GET" ? c.req.query() : {});
  const filter = parsed.success ? parsed.data : { person: "", entity: "", from: "", to: "" };
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${FILTER_LABELS[String(issue.path[0])] ?? "The filter"} ${issue.message}.`);
  const limit = mcpRateLimit(c.env);
  const scope = await scopeOf(c.env.DB, organizationId);
  const [people, entities, endpoints, keys, clients, users, used] = await Promise.all([
    listPeople(c.env.DB, organizationId),
    entityIdsWithin(c.env.DB, scope),
    listWebhookEndpoints(c.env.DB),
    apiKeysWithUse(c.env, organizationId),
    listIdentityClients(c.env.DB, organizationId),
    listUsers(c.env.DB, organizationId),
    usedThisHour(c.env, counterNames.organization(organizationId), limit),
  ]);
  const authorizations = await connectorAuthorizations(
    c.env,
    c.req.url,
    users.map((user) => user.id),
  );
  const chosen = filter.person === "" ? undefined : people.find((person) => person.email === filter.person);
  const entries =
    problems.length > 0 || (filter.person !== "" && !chosen)
      ? []
      : await auditOfOrganization(c.env.DB, {
          actors: people.map((person) => `person:${person.email}`),
          // What the operator did to the organization's people, keys and content shows too.
          targets: [...people.map((person) => person.id), ...keys.map((key) => key.id), ...scope, ...entities],
          person: chosen && { actor: `person:${chosen.email}`, id: chosen.id },
          entity: filter.entity || undefined,
          from: filter.from ? new Date(Date.parse(filter.from)).toISOString() : undefined,
          to: filter.to ? nextDay(filter.to) : undefined,
          limit: AUDIT_LIMIT,
        });
  return page(
    render(
      accessPage({
        viewer: c.get("viewer"),
        keys,
        keyForm,
        assistants: { clients, users, authorizations, used, limit },
        webhooks: endpoints.filter((endpoint) => ownedOnly(endpoint, scope)),
        filter,
        problems,
        entries,
      }),
    ),
    keyForm ? 400 : problems.length > 0 ? 400 : 200,
  );
}

partnerRoutes.get("/console/access", (c) => notAdministrator(c) ?? accessAnswer(c));

partnerRoutes.post("/console/access/keys", (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const read = readNewKey(c.get("form"));
  return "input" in read
    ? issueKey(c, read.input, (problems) => accessAnswer(c, { values: read.values, problems }))
    : accessAnswer(c, read);
});
