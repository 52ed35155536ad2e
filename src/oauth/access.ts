import { ExpiringCache } from "../cache/expiring-cache";
import type { Env } from "../env";
import { connectorAccessRow, type ConnectorAccessRow } from "../storage/users";

/** What a connector grant carries (encrypted by the provider): who authorized, for which organization, when. */
export interface ConnectorProps {
  userId: string;
  organizationId: string;
  /** ISO time of the authorization; revocations apply to grants made at or before theirs. */
  grantedAt: string;
}

/**
 * How long an isolate trusts what it read about a user and client. Disabling a user or deleting a
 * client therefore stops their tokens within this time (the README promises 5 s).
 */
export const CONNECTOR_ACCESS_CACHE_MS = 4_000;
const cache = new ExpiringCache<ConnectorAccessRow | null>(CONNECTOR_ACCESS_CACHE_MS, 10_000);

async function accessRow(env: Env, userId: string, clientId: string, fresh: boolean): Promise<ConnectorAccessRow | null> {
  const key = `${userId}\n${clientId}`;
  const cached = fresh ? undefined : cache.get(key);
  if (cached !== undefined) return cached;
  const row = await connectorAccessRow(env.DB, userId, clientId);
  cache.set(key, row);
  return row;
}

/**
 * Why a connector grant may no longer be used, or null while it may: the user must exist, be enabled
 * and still belong to the organization they consented for, and neither the user's tokens nor the
 * client may have been revoked since the grant was made. `fresh` skips the isolate cache.
 */
export async function connectorAccessDenial(
  env: Env,
  clientId: string,
  props: ConnectorProps,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<string | null> {
  const row = await accessRow(env, props.userId, clientId, fresh);
  if (!row) return "The user who authorized this access no longer exists.";
  if (row.disabled_at !== null) return "The user who authorized this access is disabled.";
  if (row.organization_id !== props.organizationId)
    return "The user's organization changed since this access was authorized; authorize again.";
  if (!row.organization_scoped) return "The user's organization has no content scope.";
  if (row.tokens_valid_after !== null && props.grantedAt <= row.tokens_valid_after)
    return "This authorization was revoked; authorize again.";
  if (row.client_revoked_at !== null && props.grantedAt <= row.client_revoked_at) return "The operator revoked this client's access.";
  return null;
}
