import { nameKey } from "../../search/normalize";
import { candidateFilter, looksLikeId, MAX_CANDIDATES, resolveEntity } from "../../search/resolve";
import type { EntityKind } from "../../storage/entities";
import { exactScopedEntities, nameCandidates, type EntityCandidate, type ScopedEntity } from "../../storage/scoped-content";
import type { ToolContext } from "./tool";

/** How many in-scope entities a name as written is compared with, at most (those sharing the most of its words first). */
const MAX_COMPARED = 500;

export type MatchedBy = "id" | "name" | "fuzzy";

export interface EntityReference {
  entity: (EntityCandidate & { matchedBy: MatchedBy }) | null;
  /** When no entity was picked: the in-scope entities the reference may mean, the most likely first. */
  candidates: EntityCandidate[];
}

/**
 * The entity in the caller's scope that `reference` names: by ID or registered name (any case, diacritics
 * aside), else as people write names (src/search/resolve.ts). Two entities registered under the one name are
 * both candidates. Another organization's entities are never considered, so they are never named or
 * suggested. `kinds` keeps only entities of those kinds.
 */
export async function referencedEntity(ctx: ToolContext, reference: string, kinds?: readonly EntityKind[]): Promise<EntityReference> {
  const id = reference.trim();
  const only = kinds ?? null;
  const exact = await exactScopedEntities(ctx.db, ctx.organizationId, { id, key: nameKey(reference), kinds: only, limit: MAX_CANDIDATES });
  const [first, second] = exact;
  if (first && first.id.toLowerCase() === id.toLowerCase()) return { entity: { ...first, matchedBy: "id" }, candidates: [] };
  if (first && !second) return { entity: { ...first, matchedBy: "name" }, candidates: [] };
  if (second) return { entity: null, candidates: exact };
  const compared = await nameCandidates(ctx.db, ctx.organizationId, { ...candidateFilter(reference), only, limit: MAX_COMPARED });
  const byId = new Map(compared.map((e) => [e.id, e]));
  const resolution = resolveEntity(
    reference,
    compared.map((e) => ({ id: e.id, name: e.name, kind: e.kind, brandName: e.brand_name })),
  );
  if (resolution.entity) return { entity: { ...byId.get(resolution.entity.id)!, matchedBy: "fuzzy" }, candidates: [] };
  return { entity: null, candidates: resolution.candidates.map((c) => byId.get(c.id)!) };
}

/**
 * What a filter narrows by: the ID of the entity `reference` names in scope, or a reference written as an ID
 * as it is, for an entity that is not itself in scope (the brand of hotels an organization sees one by one);
 * the scoped reads keep only what is in scope either way. Null, with candidates, when it names nothing.
 */
export async function filterEntity(
  ctx: ToolContext,
  reference: string,
  kinds?: readonly EntityKind[],
): Promise<EntityReference & { id: string | null }> {
  const found = await referencedEntity(ctx, reference, kinds);
  return { ...found, id: found.entity?.id ?? (looksLikeId(reference) ? reference.trim() : null) };
}

/** An entity as the tools describe it. */
export const entitySummary = (e: ScopedEntity) => ({
  id: e.id,
  name: e.name,
  kind: e.kind,
  ...(e.brand_id === null ? {} : { brandId: e.brand_id }),
});
