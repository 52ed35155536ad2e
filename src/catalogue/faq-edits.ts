import type { z } from "@hono/zod-openapi";
import { sha256PrefixHex } from "../crypto/hash";
import type { Env } from "../env";
import { insertAudit } from "../storage/admin-audit";
import { contentVersionStatement } from "../storage/content-version";
import { entitiesByIdOrBrand, entityStillAt, type StoredEntity } from "../storage/entities";
import { faqsOfEntities, localizedFaqs, type LocalizedFaq, type StoredFaq } from "../storage/faqs";
import { requestDispatch } from "../storage/webhook-queue";
import { changeStatements } from "./apply";
import { planFaqList } from "./plan";
import { phrasingKey } from "../search/normalize";
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

/** An FAQ's question and answer in another language than its entity's default. */
export type FaqTranslationText = { language: string; question: string; answer: string };

export type FaqEdit =
  /** With `translations`, the new FAQ comes translated into their languages. */
  | { action: "add"; faq: FaqText; translations?: FaqTranslationText[] }
  /** Ways guests ask the FAQ at `position` added and taken away (compared as the search compares them). */
  | { action: "phrasings"; position: number; add: string[]; remove: string[] }
  | { action: "replace"; position: number; faq: FaqText }
  | { action: "remove"; position: number }
  | { action: "move"; position: number; to: number };

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

const textOf = ({ category, question, answer, phrasings }: FaqText): FaqText => ({
  category,
  question,
  answer,
  ...(phrasings && phrasings.length > 0 ? { phrasings } : {}),
});

/** The translations of `record` with those of a new FAQ asking `source` added, each to its language's entry. */
function withTranslationsOf(translations: TranslationRecord[], source: string, added: FaqTranslationText[]): TranslationRecord[] {
  const result = [...translations];
  for (const { language, question, answer } of added) {
    const index = result.findIndex((t) => t.language.toLowerCase() === language.toLowerCase());
    const faq = { source, question, answer };
    if (index < 0) result.push({ language, faqs: [faq] });
    else result[index] = { ...result[index]!, faqs: [...(result[index]!.faqs ?? []), faq] };
  }
  return result;
}

/** `current` less the ways of asking in `remove`, with those of `add` it lacks, each compared by its search key. */
function rephrased(current: string[], add: string[], remove: string[]): string[] {
  const removed = new Set(remove.map(phrasingKey));
  const kept = current.filter((phrasing) => !removed.has(phrasingKey(phrasing)));
  const known = new Set(kept.map(phrasingKey));
  for (const phrasing of add) {
    if (known.has(phrasingKey(phrasing))) continue;
    known.add(phrasingKey(phrasing));
    kept.push(phrasing);
  }
  return kept;
}
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
    const added = edit.translations ?? [];
    const withAdded = added.length > 0 ? { translations: withTranslationsOf(translations, edit.faq.question, added) } : {};
    return { record: { ...record, faqs, ...withAdded }, before: null, after: placed(edit.faq, faqs.length - 1) };
  }
  const index = edit.position - 1;
  const current = faqs[index];
  if (!current) return null;
  if (edit.action === "phrasings") {
    const { phrasings: _, ...text } = current;
    const phrasings = rephrased(current.phrasings ?? [], edit.add, edit.remove);
    faqs[index] = { ...text, ...(phrasings.length > 0 ? { phrasings } : {}) };
    return { record: { ...record, faqs }, before: placed(current, index), after: placed(faqs[index], index) };
  }
  if (edit.action === "replace") {
    // A replacement that says nothing of the ways guests ask the FAQ keeps them.
    faqs[index] = edit.faq.phrasings === undefined && current.phrasings ? { ...edit.faq, phrasings: current.phrasings } : edit.faq;
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
  if (edit.action === "add" || edit.action === "replace") {
    const duplicate = duplicateOf(list.faqs, edit.faq.question, edit.action === "replace" ? edit.position - 1 : null);
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
