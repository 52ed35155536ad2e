import type { z } from "@hono/zod-openapi";
import { sha256PrefixHex } from "../crypto/hash";
import type { Env } from "../env";
import { insertAudit } from "../storage/admin-audit";
import { contentVersionStatement } from "../storage/content-version";
import { entitiesByIdOrBrand, entityStillAt, type StoredEntity } from "../storage/entities";
import { faqsOfEntities, localizedFaqs, type LocalizedFaq, type StoredFaq } from "../storage/faqs";
import { requestDispatch } from "../storage/webhook-queue";
import { changeStatements } from "./apply";
import { faqVersionStatements } from "./faq-versions";
import { planFaqList } from "./plan";
import { ContentRecord, FaqRecord, questionKey, toRecord, type TranslationRecord } from "./records";
import { forgetContentVersion } from "./snapshot";

/**
 * One FAQ of one entity at a time: add, replace, remove, move. The operator API and the console both call these,
 * so an edit from either is written as an import writes it (the same plan of rows, index terms, `updated_at`, hence
 * ETags and the change feed, the content version and webhooks) and audited with its actor. Positions are 1-based:
 * position 1 is the first FAQ.
 *
 * Every edit names the version of the FAQ list it was made on (`faqListVersion`), and is refused when the list
 * has changed since, so two people never overwrite each other without seeing it.
 */

/** An entity's FAQs in order, each with its translations, and the version they make. */
export interface FaqList {
  entity: StoredEntity;
  faqs: LocalizedFaq[];
  version: string;
}

export type FaqText = z.output<typeof FaqRecord>;

export type FaqEdit =
  | { action: "add"; faq: FaqText }
  | { action: "replace"; position: number; faq: FaqText }
  | { action: "remove"; position: number }
  | { action: "move"; position: number; to: number }
  /** An earlier version brought back whole, with its translations: in place of the FAQ at `position`, or inserted there. */
  | { action: "restore"; position: number; replace: boolean; faq: LocalizedFaq };

/** What an FAQ was or became, for the audit log and the answer: its position and text in the default language. */
export type PlacedFaq = FaqText & { position: number };

export type EditOutcome =
  | { outcome: "saved"; list: FaqList; before: PlacedFaq | null; after: PlacedFaq | null }
  | { outcome: "no_entity" }
  /** No FAQ at the position (or none to move it to); `list` is what is stored. */
  | { outcome: "no_faq"; list: FaqList }
  /** The list changed since the version the edit was made on; `list` is what is stored now. */
  | { outcome: "conflict"; list: FaqList }
  /** The FAQ's text breaks a rule; each problem names its field (`question`, `answer`, `category`, or the record's). */
  | { outcome: "invalid"; problems: { field: string; message: string }[] }
  /** Another FAQ of the entity asks the same question (case and spacing aside): `position` is that one's. */
  | { outcome: "duplicate"; position: number };

/** The version of an entity's FAQ list: a hash of every FAQ in every language, in order. */
export const faqListVersion = (faqs: LocalizedFaq[]): Promise<string> => sha256PrefixHex(JSON.stringify(faqs), 8);

const sortedRows = (rows: StoredFaq[]): StoredFaq[] =>
  [...rows].sort((a, b) => a.position - b.position || a.translation - b.translation || (a.language < b.language ? -1 : 1));

async function readStored(db: D1Database, entityId: string): Promise<{ list: FaqList; rows: StoredFaq[] } | null> {
  const [entity] = await entitiesByIdOrBrand(db, [entityId], []);
  if (!entity) return null;
  const rows = sortedRows(await faqsOfEntities(db, [entityId]));
  const faqs = localizedFaqs(rows);
  return { list: { entity, faqs, version: await faqListVersion(faqs) }, rows };
}

/** An entity's FAQ list as stored now, or null when there is no such entity. */
export async function readFaqList(db: D1Database, entityId: string): Promise<FaqList | null> {
  return (await readStored(db, entityId))?.list ?? null;
}

const textOf = ({ category, question, answer }: FaqText): FaqText => ({ category, question, answer });
const placed = (faq: FaqText, index: number): PlacedFaq => ({ position: index + 1, ...textOf(faq) });

/** Translations without those of `question`, and without a language left translating nothing. */
const withoutTranslationsOf = (translations: TranslationRecord[], question: string): TranslationRecord[] =>
  translations
    .map((translation) => ({ ...translation, faqs: translation.faqs?.filter((faq) => faq.source !== question) }))
    .filter((translation) => translation.name !== undefined || (translation.faqs ?? []).length > 0);

/** The record with the edit made, with what the edited FAQ was and became; null when the position holds no FAQ. */
function edited(record: ContentRecord, edit: FaqEdit): { record: ContentRecord; before: PlacedFaq | null; after: PlacedFaq | null } | null {
  const faqs = [...record.faqs];
  const translations = record.translations ?? [];
  if (edit.action === "add") {
    faqs.push(edit.faq);
    return { record: { ...record, faqs }, before: null, after: placed(edit.faq, faqs.length - 1) };
  }
  const index = edit.position - 1;
  if (edit.action === "restore" && !edit.replace) return restored(record, edit.faq, Math.min(index, faqs.length), null);
  const current = faqs[index];
  if (!current) return null;
  if (edit.action === "restore") return restored(record, edit.faq, index, current);
  if (edit.action === "replace") {
    faqs[index] = edit.faq;
    // Translations name their source by its text: they follow the question to its new wording.
    const followed = translations.map((translation) => ({
      ...translation,
      faqs: translation.faqs?.map((faq) => (faq.source === current.question ? { ...faq, source: edit.faq.question } : faq)),
    }));
    return { record: { ...record, faqs, translations: followed }, before: placed(current, index), after: placed(edit.faq, index) };
  }
  if (edit.action === "remove") {
    faqs.splice(index, 1);
    return {
      record: { ...record, faqs, translations: withoutTranslationsOf(translations, current.question) },
      before: placed(current, index),
      after: null,
    };
  }
  const to = edit.to - 1;
  if (!faqs[to]) return null;
  faqs.splice(index, 1);
  faqs.splice(to, 0, current);
  return { record: { ...record, faqs }, before: placed(current, index), after: placed(current, to) };
}

/** The record with `faq` and its translations at `index`, in place of `current` (and its translations) when given. */
function restored(
  record: ContentRecord,
  { translations: restoredTranslations, ...faq }: LocalizedFaq,
  index: number,
  current: FaqText | null,
) {
  const faqs = [...record.faqs];
  faqs.splice(index, current ? 1 : 0, faq);
  const translations = current ? withoutTranslationsOf(record.translations ?? [], current.question) : [...(record.translations ?? [])];
  for (const { language, ...text } of restoredTranslations) {
    const at = translations.findIndex((translation) => translation.language === language);
    const translated = { source: faq.question, ...text };
    if (at < 0) translations.push({ language, faqs: [translated] });
    else translations[at] = { ...translations[at]!, faqs: [...(translations[at]!.faqs ?? []), translated] };
  }
  return { record: { ...record, faqs, translations }, before: current && placed(current, index), after: placed(faq, index) };
}

/** The 1-based position of another FAQ of `faqs` that asks `question` (case and spacing aside), if any. */
function duplicateOf(faqs: FaqText[], question: string, except: number | null): number | null {
  const key = questionKey(question);
  const index = faqs.findIndex((faq, i) => i !== except && questionKey(faq.question) === key);
  return index < 0 ? null : index + 1;
}

/** What `FaqRecord` finds wrong with an FAQ's text, by field. */
function textProblems(faq: unknown): { field: string; message: string }[] {
  const parsed = FaqRecord.safeParse(faq);
  return parsed.success ? [] : parsed.error.issues.map((issue) => ({ field: issue.path.join(".") || "faq", message: issue.message }));
}

/**
 * Makes `edit` on entity `entityId`'s FAQs if the list is still at `expectedVersion`, as `actor` (`person:<email>`,
 * `token:<fingerprint>`), in one D1 batch with its audit row. Webhooks are dispatched through `waitUntil`.
 */
export async function editFaqs(
  env: Pick<Env, "DB" | "WEBHOOK_QUEUE">,
  change: { entityId: string; edit: FaqEdit; expectedVersion: string; actor: string },
  waitUntil: (work: Promise<unknown>) => void,
  attempts = 2,
): Promise<EditOutcome> {
  const db = env.DB;
  const { entityId, edit, expectedVersion, actor } = change;
  if (edit.action === "add" || edit.action === "replace") {
    const problems = textProblems(edit.faq);
    if (problems.length > 0) return { outcome: "invalid", problems };
  }
  const stored = await readStored(db, entityId);
  if (!stored) return { outcome: "no_entity" };
  const { list, rows } = stored;
  if (list.version !== expectedVersion) return { outcome: "conflict", list };
  const result = edited(toRecord(list.entity, list.faqs), edit);
  if (!result) return { outcome: "no_faq", list };
  if (edit.action === "add" || edit.action === "replace" || edit.action === "restore") {
    const replaced = edit.action === "replace" || (edit.action === "restore" && edit.replace);
    const duplicate = duplicateOf(list.faqs, edit.faq.question, replaced ? edit.position - 1 : null);
    if (duplicate !== null) return { outcome: "duplicate", position: duplicate };
  }
  const parsed = ContentRecord.safeParse(result.record);
  if (!parsed.success) {
    return { outcome: "invalid", problems: parsed.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })) };
  }
  const now = new Date().toISOString();
  const changes = planFaqList(list.entity, rows, parsed.data, now);
  if (changes.entities.update.length === 0) return { outcome: "saved", list, before: result.before, after: result.after };
  try {
    await db.batch([
      entityStillAt(db, entityId, list.entity.updated_at),
      ...changeStatements(db, changes),
      insertAudit(db, {
        at: now,
        actor,
        action: `faq.${edit.action}`,
        target: entityId,
        detail: { before: result.before, after: result.after },
      }),
      ...faqVersionStatements(db, [
        {
          entityId,
          before: toRecord(list.entity, list.faqs),
          after: parsed.data,
          since: list.entity.updated_at,
          at: now,
          actor,
          action: `faq.${edit.action}`,
        },
      ]),
      contentVersionStatement(db),
    ]);
  } catch (error) {
    // The guard failed (the batch wrote nothing): someone wrote between the read and the batch. When the FAQs
    // are still as the edit saw them (an entity's name changed), the edit is made again on what is stored now.
    const current = await readFaqList(db, entityId);
    if (!current) return { outcome: "no_entity" };
    if (current.version !== expectedVersion) return { outcome: "conflict", list: current };
    if (attempts > 1) return editFaqs(env, change, waitUntil, attempts - 1);
    throw error;
  }
  forgetContentVersion();
  waitUntil(requestDispatch(env));
  const saved = await readFaqList(db, entityId);
  return saved ? { outcome: "saved", list: saved, before: result.before, after: result.after } : { outcome: "no_entity" };
}
