import { ANALYZER_VERSION } from "../search/analyze";
import { nameKey } from "../search/normalize";
import { storedEntitiesAfter, updateEntities } from "../storage/entities";
import { faqsOfEntities, staleFaqs, updateFaqTerms } from "../storage/faqs";
import type { D1Reader } from "../storage/reader";
import { indexed } from "./apply";

/**
 * Analysing stored content again after the analysis changed (src/search/analyze.ts raises ANALYZER_VERSION): the
 * FAQs an older analysis wrote get their index terms written again by the current one. Nothing else changes: no
 * text, no `dateModified`, so no ETag moves and the change feed holds nothing new.
 */

/**
 * One page of `search reindex`: for the `limit` entities after `after` (by ID), the name keys and FAQ index
 * terms written by an older analysis are written again by the current one. `scanned` is how many entities the page
 * read; `next` is where the following page starts, absent after the last.
 */
export async function reindexPage(
  db: D1Database,
  after: string,
  limit: number,
): Promise<{ scanned: number; entities: number; faqs: number; next?: string }> {
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
  const writes = [...updateEntities(db, renamed), ...updateFaqTerms(db, stale)];
  if (writes.length > 0) await db.batch(writes);
  const next = entities.length === limit ? entities[entities.length - 1]!.id : undefined;
  return { scanned: entities.length, entities: renamed.length, faqs: stale.length, ...(next ? { next } : {}) };
}

/**
 * At most this many FAQs are analysed again in one step of the scheduled reindex: one read, one batch of writes, so
 * what serves requests meanwhile never waits behind a large write.
 */
export const REINDEX_STEP_FAQS = 500;

/** One step: the next FAQs an older analysis wrote, analysed again; how many there were (none: the index is current). */
export async function reindexStaleStep(db: D1Reader): Promise<number> {
  const stale = (await staleFaqs(db, ANALYZER_VERSION, REINDEX_STEP_FAQS)).map(indexed);
  if (stale.length > 0) await db.batch(updateFaqTerms(db, stale));
  return stale.length;
}

/**
 * Steps until no FAQ of an older analysis is left (`done`) or `deadline` (a time in ms) has passed; the next run
 * goes on where this one stopped, since the rows themselves say which are left.
 */
export async function reindexStale(db: D1Reader, deadline: number): Promise<{ faqs: number; done: boolean }> {
  let faqs = 0;
  while (Date.now() < deadline) {
    const step = await reindexStaleStep(db);
    faqs += step;
    if (step < REINDEX_STEP_FAQS) return { faqs, done: true };
  }
  return { faqs, done: false };
}
