import type { ConsoleGrantRow } from "../storage/console-grants";
import type { EntityRow } from "../storage/entities";

/**
 * What a person may do with an entity: their grants, within their organization's scope. A brand (in a grant or
 * the scope) covers its properties; the administrator's grant covers the whole scope. An entity outside the scope
 * is out of reach whatever a grant names, so nobody ever sees another organization's content.
 */

export interface ConsoleAccess {
  grants: ConsoleGrantRow[];
  /** The entities the organization's scope names. */
  scope: string[];
}

export type EntityRole = "viewer" | "editor";

const covers = (ids: string[], entity: Pick<EntityRow, "id" | "brand_id">): boolean =>
  ids.includes(entity.id) || (entity.brand_id !== null && ids.includes(entity.brand_id));

/** The person's role on `entity`, or null when they may not see it. */
export function roleOn(access: ConsoleAccess, entity: Pick<EntityRow, "id" | "brand_id">): EntityRole | null {
  if (!covers(access.scope, entity)) return null;
  let role: EntityRole | null = null;
  for (const grant of access.grants) {
    const reaches = grant.role === "administrator" || (grant.entity_id !== null && covers([grant.entity_id], entity));
    if (!reaches) continue;
    if (grant.role !== "viewer") return "editor";
    role = "viewer";
  }
  return role;
}

/** The entities whose grants reach them and their properties: the whole scope for the administrator. */
export const reachOf = (access: ConsoleAccess): string[] =>
  access.grants.some((grant) => grant.role === "administrator")
    ? access.scope
    : access.grants.flatMap((grant) => (grant.entity_id === null ? [] : [grant.entity_id]));
