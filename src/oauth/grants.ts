import type { Env } from "../env";
import { oauthHelpers } from "./server";

/** A connector client a user allowed to act for them, as the provider keeps it. */
export interface ConnectorAuthorization {
  userId: string;
  clientId: string;
  /** What the client calls itself; null for one known only by its metadata document or since deleted. */
  clientName: string | null;
  scope: string[];
  /** When the user allowed it (ISO 8601). */
  grantedAt: string;
}

/** At most this many grants are read per user: a page shows who connected what, not an export. */
const GRANTS_PER_USER = 100;

/** The connector clients `userIds` allowed, newest first: grants read from the provider's store (KV), clients looked up once each. */
export async function connectorAuthorizations(env: Env, requestUrl: string, userIds: string[]): Promise<ConnectorAuthorization[]> {
  const oauth = oauthHelpers(env, requestUrl);
  const pages = await Promise.all(userIds.map((userId) => oauth.listUserGrants(userId, { limit: GRANTS_PER_USER })));
  const grants = pages.flatMap((page) => page.items);
  const clientIds = [...new Set(grants.map((grant) => grant.clientId))];
  const names = new Map(
    await Promise.all(clientIds.map(async (id) => [id, (await oauth.lookupClient(id).catch(() => null))?.clientName ?? null] as const)),
  );
  return grants
    .map((grant) => ({
      userId: grant.userId,
      clientId: grant.clientId,
      clientName: names.get(grant.clientId) ?? null,
      scope: grant.scope,
      grantedAt: new Date(grant.createdAt * 1000).toISOString(),
    }))
    .sort((a, b) => b.grantedAt.localeCompare(a.grantedAt));
}
