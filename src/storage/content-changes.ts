import type { EntityKind } from "./entities";
import type { D1Reader } from "./reader";

/**
 * SQL for `content_changes` (written by triggers on `entities`, migration 0013) and its one-row
 * `content_change_feed`: the latest change of every entity in each brand it belongs to, in `seq` order.
 */

export type ChangeKind = "upserted" | "removed";

export interface ChangeRow {
  seq: number;
  entity_id: string;
  kind: EntityKind;
  /** The brand the row belongs to: a property's brand, a brand's own ID, null for a destination or an airport. */
  brand_id: string | null;
  change: ChangeKind;
  changed_at: string;
}

export interface ChangeFeedState {
  feed_id: string;
  /** The newest `seq` of the removals deleted so far; a reader behind it may have missed one. */
  pruned_through: number;
  /** The newest `seq` ever written (never behind `pruned_through`). */
  high_water: number;
}

const CHANGE_COLUMNS = "seq, entity_id, kind, brand_id, change, changed_at";

export const changeFeedStateStatement = (db: D1Reader): D1PreparedStatement =>
  db.prepare(
    `SELECT feed_id, pruned_through, max(pruned_through, coalesce((SELECT max(seq) FROM content_changes), 0)) AS high_water
     FROM content_change_feed WHERE id = 1`,
  );

/** Up to `limit` changes after `afterSeq`, oldest first; of one brand (itself and its properties) when `brandId` is given. */
export const changesAfterStatement = (db: D1Reader, page: { afterSeq: number; brandId?: string; limit: number }): D1PreparedStatement =>
  db
    .prepare(`SELECT ${CHANGE_COLUMNS} FROM content_changes WHERE seq > ?1 AND (?2 IS NULL OR brand_id = ?2) ORDER BY seq LIMIT ?3`)
    .bind(page.afterSeq, page.brandId ?? null, page.limit);

/** Whether the feed has anything of `brandId` as a brand: the brand stored now, or a change recorded for it. */
export const brandKnownStatement = (db: D1Reader, brandId: string): D1PreparedStatement =>
  db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM entities WHERE id = ?1 AND kind = 'brand')
         OR EXISTS (SELECT 1 FROM content_changes WHERE brand_id = ?1) AS known`,
    )
    .bind(brandId);

/** Each entity a brand holds now (itself and its properties) with the `seq` of its latest change. */
export const brandStateStatement = (db: D1Reader, brandId: string): D1PreparedStatement =>
  db.prepare("SELECT entity_id, seq FROM content_changes WHERE brand_id = ? AND change = 'upserted' ORDER BY entity_id").bind(brandId);

/** Up to `limit` changes after `afterSeq` of any of `brandIds`, oldest first. */
export async function changesOfBrandsAfter(db: D1Reader, brandIds: string[], afterSeq: number, limit: number): Promise<ChangeRow[]> {
  if (brandIds.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT ${CHANGE_COLUMNS} FROM content_changes
       WHERE seq > ?1 AND brand_id IN (SELECT value FROM json_each(?2)) ORDER BY seq LIMIT ?3`,
    )
    .bind(afterSeq, JSON.stringify(brandIds), limit)
    .all<ChangeRow>();
  return results;
}

/**
 * Deletes the removals recorded before `before` (ISO 8601), remembering the newest `seq` deleted, so that a
 * cursor from before it is refused rather than silently missing a removal. Entities that exist keep their row.
 */
export const pruneRemovalsBefore = (db: D1Reader, before: string): D1PreparedStatement[] => [
  db
    .prepare(
      `UPDATE content_change_feed SET pruned_through = max(pruned_through,
         coalesce((SELECT max(seq) FROM content_changes WHERE change = 'removed' AND changed_at < ?1), 0))
       WHERE id = 1`,
    )
    .bind(before),
  db.prepare("DELETE FROM content_changes WHERE change = 'removed' AND changed_at < ?").bind(before),
];
