import type { Env } from "../env";
import { oauthHelpers } from "./server";
import { forgetValidatedTokens } from "./tokens";

/**
 * Cleaning the provider's store after connector access was withdrawn in D1. D1 is the authority:
 * `/v1/sse` and `/token` read it (through a cache of at most CONNECTOR_ACCESS_CACHE_MS), so access ends
 * within that bound everywhere; KV reaches other locations only eventually.
 */

/** Removes every grant of a user (and the tokens of each). */
export async function removeUserGrants(env: Env, requestUrl: string, userId: string): Promise<void> {
  const oauth = oauthHelpers(env, requestUrl);
  for (let cursor: string | undefined; ;) {
    const page = await oauth.listUserGrants(userId, { cursor });
    await Promise.all(page.items.map((grant) => oauth.revokeGrant(grant.id, userId)));
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  forgetValidatedTokens();
}

/** Removes a client with its grants and tokens; a metadata-document client may authorize anew. */
export async function removeProviderClient(env: Env, requestUrl: string, clientId: string): Promise<void> {
  await oauthHelpers(env, requestUrl).deleteClient(clientId);
  forgetValidatedTokens();
}
