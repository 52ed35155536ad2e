import { ANALYZER_VERSION } from "../search/analyze";
import { nameKey } from "../search/normalize";
import { storedEntitiesAfter, updateEntities } from "../storage/entities";
import { faqsOfEntities, updateFaqs } from "../storage/faqs";
import { indexed } from "./apply";

/**
 * One page of `search reindex`: for the `limit` entities after `after` (by ID), the name keys and FAQ index
 * terms written by an older analysis are written again by the current one. Nothing else changes: no text,
 * no `dateModified`, so no ETag moves. `next` is where the following page starts, absent after the last.
 */
export async function reindexPage(
  db: D1Database,
  after: string,
  limit: number,
): Promise<{ entities: number; faqs: number; next?: string }> {
  const entities = await storedEntitiesAfter(db, after, limit);
  const renamed = entities.filter((e) => e.name_key !== nameKey(e.name)).map((e) => ({ ...e, name_key: nameKey(e.name) }));
  const stale = (
    await faqsOfEntities(
      db,
      entities.map((e) => e.id),
    )
  )
    .filter((f) => f.analyzer < ANALYZER_VERSION)
    .map(indexed);
  const writes = [...updateEntities(db, renamed), ...updateFaqs(db, stale)];
  if (writes.length > 0) await db.batch(writes);
  const next = entities.length === limit ? entities[entities.length - 1]!.id : undefined;
  return { entities: renamed.length, faqs: stale.length, ...(next ? { next } : {}) };
}
