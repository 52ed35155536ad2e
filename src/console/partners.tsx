import { Hono, type Context } from "hono";
import { apiKeysWithUse, type ApiKeyUse } from "../catalogue/api-keys";
import { mcpRateLimit } from "../env";
import { connectorAuthorizations, type ConnectorAuthorization } from "../oauth/grants";
import { counterNames, usedThisHour } from "../rate-limit/rate-counter";
import { listIdentityClients, REALM_ISSUER_KEY, type IdentityClientView } from "../storage/identity-clients";
import { scopeOf } from "../storage/organizations";
import { listUsers, type UserRow } from "../storage/users";
import { listWebhookEndpoints, type WebhookEndpointView } from "../storage/webhook-endpoints";
import { page } from "./answers";
import type { ConsoleEnv } from "./context";
import { issueKey, KeysSection, readNewKey } from "./keys";
import { notAdministrator } from "./people";
import { Page, render, type Viewer } from "./pages";

/**
 * Partners and access, for the organization's administrators: the content API keys issued for it (with their use
 * this hour; keys.tsx changes them), the assistants that connect to its MCP server (clients with a secret, and the
 * connector clients its users allowed), and the webhook endpoints that follow only its brands, with their
 * deliveries (its changes are on their own page, audit.tsx). Keys and clients of no organization are the operator's (npm run admin) and not shown here.
 */

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
}: {
  viewer: Viewer;
  keys: ApiKeyUse[];
  keyForm?: Pick<Parameters<typeof KeysSection>[0], "values" | "problems">;
  assistants: Assistants;
  webhooks: WebhookEndpointView[];
}) => (
  <Page title="Partners and access" viewer={viewer}>
    <h1>Partners and access</h1>
    <p>
      <a href="/console/people">People and their roles</a> and <a href="/console/audit">the changes</a> are on their own pages.
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
  const limit = mcpRateLimit(c.env);
  const scope = await scopeOf(c.env.DB, organizationId);
  const [endpoints, keys, clients, users, used] = await Promise.all([
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
  return page(
    render(
      accessPage({
        viewer: c.get("viewer"),
        keys,
        keyForm,
        assistants: { clients, users, authorizations, used, limit },
        webhooks: endpoints.filter((endpoint) => ownedOnly(endpoint, scope)),
      }),
    ),
    keyForm ? 400 : 200,
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
