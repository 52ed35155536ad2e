import type { Env } from "../env";
import { revokeClientGrants } from "../storage/oauth-clients";
import { disableUser as disableUserRow } from "../storage/users";
import { oauthHelpers } from "./server";

/**
 * Withdrawing connector access. D1 is the authority: `/v1/sse` and `/token` read it (through a cache
 * of at most CONNECTOR_ACCESS_CACHE_MS), so access ends within that bound everywhere. The provider's
 * KV records are removed too, but KV reaches other locations only eventually.
 */

/** Disables a user: their tokens and refresh tokens stop working and their MCP sessions end. */
export async function disableConnectorUser(env: Env, requestUrl: string, userId: string, at = new Date()): Promise<boolean> {
  if (!(await disableUserRow(env.DB, userId, at.toISOString()))) return false;
  const oauth = oauthHelpers(env, requestUrl);
  for (let cursor: string | undefined; ; ) {
    const page = await oauth.listUserGrants(userId, { cursor });
    await Promise.all(page.items.map((grant) => oauth.revokeGrant(grant.id, userId)));
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  return true;
}

/** Deletes an OAuth client: its grants, tokens and MCP sessions end; a metadata-document client may authorize anew. */
export async function deleteConnectorClient(env: Env, requestUrl: string, clientId: string, at = new Date()): Promise<void> {
  await revokeClientGrants(env.DB, clientId, at.toISOString()).run();
  await oauthHelpers(env, requestUrl).deleteClient(clientId);
}
