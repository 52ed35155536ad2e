import type { LocalizedFaq } from "../storage/faqs";
import { insertFirstVersions, insertVersions, pruneVersions, type FaqVersionInput } from "../storage/faq-versions";
import { questionKey, type FaqRecord, type TranslationRecord } from "./records";
import type { z } from "@hono/zod-openapi";

/**
 * The versions an FAQ change writes, in the same D1 batch as the change: each FAQ added, changed (its text, category
 * or any translation) or removed gets a version holding it whole, with its translations. An FAQ keeps its identity
 * through a reworded question: the FAQs before and after are matched by question (case and spacing aside), then
 * what is left by position, as an edit rewords an FAQ in its place. An FAQ's text from before its first recorded
 * change is written first, so the first change can be undone too.
 */

/** How many versions of one FAQ are kept: the oldest go as a new one is written. */
export const MAX_VERSIONS_PER_FAQ = 20;
/** How long a version is kept (the daily upkeep deletes older ones), so a removed FAQ can be restored within it. */
export const VERSIONS_KEPT_DAYS = 365;

/** The FAQs of a record: what versions compare and keep. */
export interface FaqsOfRecord {
  faqs: z.output<typeof FaqRecord>[];
  translations?: z.output<typeof TranslationRecord>[];
}

/** A record's FAQs, each with its translations in language order (as the FAQ list reads them from D1). */
export function localizedFaqsOf(record: FaqsOfRecord | null): LocalizedFaq[] {
  if (!record) return [];
  const translations = [...(record.translations ?? [])].sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0));
  return record.faqs.map((faq) => ({
    ...faq,
    phrasings: faq.phrasings ?? [],
    translations: translations.flatMap(({ language, faqs = [] }) =>
      faqs.filter((translated) => translated.source === faq.question).map(({ source: _, ...text }) => ({ language, ...text })),
    ),
  }));
}

export interface FaqVersionChange {
  entityId: string;
  before: FaqsOfRecord | null;
  after: FaqsOfRecord | null;
  /** When the FAQs before were written: the time their first version is dated. */
  since: string;
  at: string;
  actor: string;
  /** The audit action that made the change (`faq.replace`, `content.import`…). */
  action: string;
}

/** The versions one entity's change writes: the texts from before their FAQ's first recorded change, then the new ones. */
function versionsOf(change: FaqVersionChange): { firsts: FaqVersionInput[]; versions: FaqVersionInput[] } {
  const before = localizedFaqsOf(change.before);
  const after = localizedFaqsOf(change.after);
  const beforeByKey = new Map(before.map((faq, index) => [questionKey(faq.question), index]));
  const matched = new Set<number>();
  const pairs = after.map((faq) => {
    const index = beforeByKey.get(questionKey(faq.question));
    if (index === undefined) return null;
    matched.add(index);
    return index;
  });
  pairs.forEach((pair, index) => {
    if (pair === null && index < before.length && !matched.has(index)) {
      matched.add(index);
      pairs[index] = index;
    }
  });
  const { entityId, since, at, actor, action } = change;
  const version = (faq: LocalizedFaq, index: number, foundBy: string, removed: 0 | 1): FaqVersionInput => ({
    entity_id: entityId,
    position: index + 1,
    found_by: foundBy,
    question_key: questionKey(faq.question),
    faq,
    removed,
    at,
    actor,
    action,
    new_faq_id: crypto.randomUUID(),
  });
  const first = (index: number): FaqVersionInput => ({
    ...version(before[index]!, index, questionKey(before[index]!.question), 0),
    at: since,
    actor: null,
    action: "before",
  });
  const firsts: FaqVersionInput[] = [];
  const versions: FaqVersionInput[] = [];
  after.forEach((faq, index) => {
    const pair = pairs[index] ?? null;
    if (pair === null) versions.push(version(faq, index, questionKey(faq.question), 0));
    else if (JSON.stringify(before[pair]) !== JSON.stringify(faq)) {
      firsts.push(first(pair));
      versions.push(version(faq, index, questionKey(before[pair]!.question), 0));
    }
  });
  before.forEach((faq, index) => {
    if (matched.has(index)) return;
    firsts.push(first(index));
    versions.push(version(faq, index, questionKey(faq.question), 1));
  });
  return { firsts, versions };
}

/**
 * The statements that write the versions of changes to any number of entities (a few, however many: the rows go as
 * JSON chunks), and keep each FAQ's newest MAX_VERSIONS_PER_FAQ.
 */
export function faqVersionStatements(db: D1Database, changes: FaqVersionChange[]): D1PreparedStatement[] {
  const written = changes
    .map((change) => ({ entityId: change.entityId, ...versionsOf(change) }))
    .filter((entity) => entity.versions.length > 0);
  if (written.length === 0) return [];
  return [
    ...insertFirstVersions(
      db,
      written.flatMap((entity) => entity.firsts),
    ),
    ...insertVersions(
      db,
      written.flatMap((entity) => entity.versions),
    ),
    ...pruneVersions(
      db,
      written.map((entity) => entity.entityId),
      MAX_VERSIONS_PER_FAQ,
    ),
  ];
}
