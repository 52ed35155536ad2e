import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { htmlResponse } from "../http/html-page";
import { auditOfOrganization, type AuditEntry } from "../storage/admin-audit";
import { listPeople } from "../storage/people";
import { scopeOf } from "../storage/organizations";
import { listWebhookEndpoints, type WebhookEndpointView } from "../storage/webhook-endpoints";
import type { ConsoleEnv } from "./context";
import { notAdministrator } from "./people";
import { Page, render, STYLESHEET, type Viewer } from "./pages";

/**
 * Partners and access, for the organization's administrators, read-only: the webhook endpoints that follow only its
 * brands, with their deliveries, and the audit log of what its people did or had done to them, filtered by person,
 * entity and time. API keys and connector clients belong to the whole deployment, not to an organization, so they
 * are the operator's (npm run admin) and not shown here.
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

const accessPage = ({
  viewer,
  webhooks,
  filter,
  problems,
  entries,
}: {
  viewer: Viewer;
  webhooks: WebhookEndpointView[];
  filter: AuditFilterValues;
  problems: string[];
  entries: (AuditEntry & { id: number })[];
}) => (
  <Page title="Partners and access" viewer={viewer}>
    <h1>Partners and access</h1>
    <p class="muted">API keys and connector clients belong to the whole service, not to one organization: ask the operator about them.</p>
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
    <p class="muted">What your organization's people changed, and the changes to them, newest first (the last {AUDIT_LIMIT}).</p>
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
              <td>{entry.at}</td>
              <td>{entry.actor.startsWith("person:") ? entry.actor.slice("person:".length) : "The operator"}</td>
              <td>{entry.action}</td>
              <td>{entry.target}</td>
              <td>
                <code>{JSON.stringify(entry.detail)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </Page>
);

export const partnerRoutes = new Hono<ConsoleEnv>();

partnerRoutes.get("/console/access", async (c) => {
  const refused = notAdministrator(c);
  if (refused) return refused;
  const organizationId = c.get("person").organization_id;
  const parsed = AuditFilter.safeParse(c.req.query());
  const filter = parsed.success ? parsed.data : { person: "", entity: "", from: "", to: "" };
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${FILTER_LABELS[String(issue.path[0])] ?? "The filter"} ${issue.message}.`);
  const [people, scope, endpoints] = await Promise.all([
    listPeople(c.env.DB, organizationId),
    scopeOf(c.env.DB, organizationId),
    listWebhookEndpoints(c.env.DB),
  ]);
  const chosen = filter.person === "" ? undefined : people.find((person) => person.email === filter.person);
  const entries =
    problems.length > 0 || (filter.person !== "" && !chosen)
      ? []
      : await auditOfOrganization(c.env.DB, {
          actors: people.map((person) => `person:${person.email}`),
          targets: people.map((person) => person.id),
          person: chosen && { actor: `person:${chosen.email}`, id: chosen.id },
          entity: filter.entity || undefined,
          from: filter.from ? new Date(Date.parse(filter.from)).toISOString() : undefined,
          to: filter.to ? nextDay(filter.to) : undefined,
          limit: AUDIT_LIMIT,
        });
  const html = await render(
    accessPage({
      viewer: c.get("viewer"),
      webhooks: endpoints.filter((endpoint) => ownedOnly(endpoint, scope)),
      filter,
      problems,
      entries,
    }),
  );
  return htmlResponse(html, problems.length > 0 ? 400 : 200, { stylesheet: STYLESHEET });
});
