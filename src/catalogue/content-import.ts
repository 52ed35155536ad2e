import { sha256Hex } from "../crypto/hash";
import type { Env } from "../env";
import { insertAudit } from "../storage/admin-audit";
import { contentVersionStatement, readContentVersion, type ContentVersion } from "../storage/content-version";
import { entityStillAt, findEntity } from "../storage/entities";
import { requestDispatch } from "../webhooks/messages";
import { changeStatements, currentContentFor } from "./apply";
import { planContent, type ContentPlan, type StagedRecord } from "./plan";
import { questionKey, type FaqRecord } from "./records";
import { forgetContentVersion } from "./snapshot";

/**
 * An import of a whole file at once, for the console: the same plan as the operator's import (catalogue/plan.ts),
 * shown entity by entity (each FAQ's question added, changed or removed), then applied in one D1 batch with an
 * audit row per entity naming its actor and its FAQs before and after. The batch only writes onto the entities as
 * they were planned: if anyone changed one meanwhile, nothing is written.
 */

export interface EntityPreview {
  id: string;
  name: string;
  status: "added" | "changed" | "removed" | "unchanged";
  added: string[];
  changed: string[];
  removed: string[];
  before: FaqRecord[];
  after: FaqRecord[] | null;
}

export interface ImportPreview {
  plan: ContentPlan;
  entities: EntityPreview[];
  /** FAQs (in their default language) the import removes, with those of entities it removes. */
  removals: number;
  /** What the preview shows, hashed: a confirmation applies only the import it was shown. */
  digest: string;
  /** The stored entities the plan writes onto, with the `updated_at` it read. */
  guards: { id: string; updatedAt: string }[];
}

/**
 * What importing `rows` would do. With `faqListsOnly` (a CSV file: FAQ lists of stored entities) a brand's rows
 * change its FAQs only, not its roster: its properties the file has no rows for stay.
 */
export async function previewImport(
  db: D1Database,
  rows: StagedRecord[],
  { faqListsOnly = false, now = new Date().toISOString() } = {},
): Promise<ImportPreview> {
  const read = await currentContentFor(db, rows);
  const named = new Set(rows.map((row) => row.record.id));
  const kept = (id: string, brandId: string | null) => !faqListsOnly || named.has(id) || brandId === null;
  const current = faqListsOnly
    ? { entities: read.entities.filter((e) => kept(e.id, e.brand_id)), faqs: read.faqs.filter((f) => named.has(f.entity_id)) }
    : read;
  const plan = planContent(rows, current, now);
  const storedFaqs = (id: string): FaqRecord[] =>
    current.faqs
      .filter((faq) => faq.entity_id === id && faq.translation === 0)
      .sort((a, b) => a.position - b.position)
      .map(({ category, question, answer }) => ({ category, question, answer }));
  const stored = new Map(current.entities.map((entity) => [entity.id, entity]));
  const entities: EntityPreview[] = rows.map(({ record }) => {
    const before = storedFaqs(record.id);
    const was = new Map(before.map((faq) => [questionKey(faq.question), faq]));
    const now = new Set(record.faqs.map((faq) => questionKey(faq.question)));
    const status = plan.ids.added.includes(record.id) ? "added" : plan.ids.changed.includes(record.id) ? "changed" : "unchanged";
    return {
      id: record.id,
      name: record.name,
      status,
      added: record.faqs.filter((faq) => !was.has(questionKey(faq.question))).map((faq) => faq.question),
      changed: record.faqs
        .filter((faq) => {
          const old = was.get(questionKey(faq.question));
          return old !== undefined && (old.answer !== faq.answer || old.category !== faq.category || old.question !== faq.question);
        })
        .map((faq) => faq.question),
      removed: before.filter((faq) => !now.has(questionKey(faq.question))).map((faq) => faq.question),
      before,
      after: record.faqs,
    };
  });
  for (const id of plan.ids.removed) {
    const before = storedFaqs(id);
    entities.push({
      id,
      name: stored.get(id)?.name ?? id,
      status: "removed",
      added: [],
      changed: [],
      removed: before.map((f) => f.question),
      before,
      after: null,
    });
  }
  const removals = entities.reduce((sum, entity) => sum + entity.removed.length, 0);
  const digest = await sha256Hex(
    JSON.stringify([
      plan.errors,
      entities.map(({ id, status, added, changed, removed, after }) => [id, status, added, changed, removed, after]),
    ]),
  );
  const guards = [...plan.ids.changed, ...plan.ids.removed].flatMap((id) => {
    const entity = stored.get(id);
    return entity ? [{ id, updatedAt: entity.updated_at }] : [];
  });
  return { plan, entities, removals, digest, guards };
}

/**
 * Applies a previewed import, all at once, with an audit row per entity it changes (its FAQs before and after) by
 * `actor`, and `also` (the operator's staged rows to delete) in the same batch. Returns the content version after
 * it, or null, writing nothing, when an entity is no longer as the preview read it.
 */
export async function applyImport(
  env: Pick<Env, "DB" | "WEBHOOK_QUEUE">,
  preview: ImportPreview,
  actor: string,
  waitUntil: (work: Promise<unknown>) => void,
  also: D1PreparedStatement[] = [],
): Promise<ContentVersion | null> {
  const db = env.DB;
  const writes = changeStatements(db, preview.plan.changes);
  const at = new Date().toISOString();
  const changed = writes.length > 0;
  let results: D1Result[];
  try {
    results = await db.batch([
      ...(changed ? preview.guards.map((guard) => entityStillAt(db, guard.id, guard.updatedAt)) : []),
      ...writes,
      ...(changed ? preview.entities : [])
        .filter((entity) => entity.status !== "unchanged")
        .map((entity) =>
          insertAudit(db, {
            at,
            actor,
            action: "content.import",
            target: entity.id,
            detail: { status: entity.status, before: entity.before, after: entity.after },
          }),
        ),
      ...also,
      contentVersionStatement(db),
    ]);
  } catch (error) {
    // A guard failed (the batch wrote nothing) when an entity is no longer as planned.
    const now = await Promise.all(preview.guards.map((guard) => findEntity(db, guard.id)));
    if (now.some((entity, i) => entity?.updated_at !== preview.guards[i]!.updatedAt)) return null;
    throw error;
  }
  if (changed) {
    forgetContentVersion();
    waitUntil(requestDispatch(env));
  }
  return readContentVersion(results[results.length - 1] as D1Result<ContentVersion>);
}
