import { sha256Hex } from "../crypto/hash";
import type { Env } from "../env";
import { insertAudit } from "../storage/admin-audit";
import { contentVersionStatement, readContentVersion, type ContentVersion } from "../storage/content-version";
import { entityStillAt, findEntity } from "../storage/entities";
import { requestDispatch } from "../storage/webhook-queue";
import { changeStatements, currentContentFor } from "./apply";
import { faqVersionStatements } from "./faq-versions";
import { planContent, type ContentPlan, type StagedRecord } from "./plan";
import { localizedFaqs } from "../storage/faqs";
import { inStoredOrder } from "./csv";
import { DEFAULT_CONTENT_LANGUAGE } from "../http/language-tags";
import { comparable, recordChanges, type ComparableRecord, type FieldValue, type RecordChanges } from "./record-changes";
import { toRecord } from "./records";

/** The language an entity's own FAQs are in, on whichever side of the import it exists. */
const ownLanguage = (entity: EntityPreview): string => (entity.after ?? entity.before)?.defaultLanguage ?? DEFAULT_CONTENT_LANGUAGE;
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
  /** Every field and FAQ, in each language, that the import changes. */
  changes: RecordChanges;
  /** The entity's record as stored, and as the import leaves it (null: not there). */
  before: ComparableRecord | null;
  after: ComparableRecord | null;
}

export interface ImportPreview {
  plan: ContentPlan;
  entities: EntityPreview[];
  /** FAQs (in their default language) the import removes, with those of entities it removes. */
  removals: number;
  /** Entities the import removes (a brand's properties the file leaves out). */
  entityRemovals: number;
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
  const byEntity = Map.groupBy(inStoredOrder(current.faqs), (faq) => faq.entity_id);
  const stored = new Map(current.entities.map((entity) => [entity.id, entity]));
  const storedRecord = (id: string): ComparableRecord | null => {
    const entity = stored.get(id);
    return entity ? comparable(toRecord(entity, localizedFaqs(byEntity.get(id) ?? []))) : null;
  };
  const preview = (id: string, name: string, status: EntityPreview["status"], after: ComparableRecord | null): EntityPreview => {
    const before = storedRecord(id);
    return { id, name, status, changes: recordChanges(before, after), before, after };
  };
  const entities: EntityPreview[] = rows.map(({ record }) =>
    preview(
      record.id,
      record.name,
      plan.ids.added.includes(record.id) ? "added" : plan.ids.changed.includes(record.id) ? "changed" : "unchanged",
      comparable(record),
    ),
  );
  for (const id of plan.ids.removed) entities.push(preview(id, stored.get(id)?.name ?? id, "removed", null));
  const removals = entities.reduce(
    (sum, entity) => sum + entity.changes.faqs.filter((faq) => faq.change === "removed" && faq.language === ownLanguage(entity)).length,
    0,
  );
  const entityRemovals = plan.ids.removed.length;
  const digest = await sha256Hex(JSON.stringify([plan.errors, entities.map(({ id, status, changes }) => [id, status, changes])]));
  const guards = [...plan.ids.changed, ...plan.ids.removed].flatMap((id) => {
    const entity = stored.get(id);
    return entity ? [{ id, updatedAt: entity.updated_at }] : [];
  });
  return { plan, entities, removals, entityRemovals, digest, guards };
}

/** The most an audit row's detail may hold: D1 binds at most 1 MB a value, and an import writes a row per entity. */
export const MAX_AUDIT_DETAIL_BYTES = 256 * 1024;
const SHORT_TEXT = 300;
const MAX_NAMED = 1_000;

/**
 * What an entity's audit row keeps of an import: its status, every change old and new, and its records before and
 * after, while that fits MAX_AUDIT_DETAIL_BYTES; else the changes alone; else the changes with each text cut at
 * SHORT_TEXT characters, saying so; else the first MAX_NAMED FAQs changed by question and language, and how many
 * more. An entity of many long translations changes, and is audited, all the same.
 */
export function auditDetail(entity: EntityPreview): object {
  const fits = (detail: object) => new TextEncoder().encode(JSON.stringify(detail)).byteLength <= MAX_AUDIT_DETAIL_BYTES;
  const full = { status: entity.status, changes: entity.changes, before: entity.before, after: entity.after };
  if (fits(full)) return full;
  const changesOnly = { status: entity.status, changes: entity.changes, records: "left out: too large to keep" };
  if (fits(changesOnly)) return changesOnly;
  const cut = (value: FieldValue) => (typeof value === "string" && value.length > SHORT_TEXT ? `${value.slice(0, SHORT_TEXT)}…` : value);
  const shortened: RecordChanges = {
    fields: entity.changes.fields.map((f) => ({ ...f, before: cut(f.before), after: cut(f.after) })),
    faqs: entity.changes.faqs.map((faq) => ({
      ...faq,
      question: String(cut(faq.question)),
      fields: faq.fields.map((f) => ({ ...f, before: cut(f.before), after: cut(f.after) })),
    })),
  };
  const short = {
    status: entity.status,
    changes: shortened,
    records: "left out: too large to keep",
    texts: `cut at ${SHORT_TEXT} characters`,
  };
  if (fits(short)) return short;
  // Past that, the FAQs changed are named (the first MAX_NAMED), and the rest counted.
  const named = shortened.faqs.slice(0, MAX_NAMED).map(({ language, change, question }) => ({ language, change, question }));
  return {
    status: entity.status,
    changes: { fields: shortened.fields, faqs: named },
    records: "left out: too large to keep",
    texts: "left out: too many changes to keep",
    ...(shortened.faqs.length > MAX_NAMED ? { moreFaqChanges: shortened.faqs.length - MAX_NAMED } : {}),
  };
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
  const storedAt = new Map(preview.guards.map((guard) => [guard.id, guard.updatedAt]));
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
            detail: auditDetail(entity),
          }),
        ),
      // An entity removed takes its FAQs' versions with it (ON DELETE CASCADE): only those it keeps get new ones.
      ...faqVersionStatements(
        db,
        (changed ? preview.entities : [])
          .filter((entity) => entity.status === "added" || entity.status === "changed")
          .map((entity) => ({
            entityId: entity.id,
            before: entity.before,
            after: entity.after,
            since: storedAt.get(entity.id) ?? at,
            at,
            actor,
            action: "content.import",
          })),
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
