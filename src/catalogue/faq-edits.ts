import type { z } from "@hono/zod-openapi";
import { sha256PrefixHex } from "../crypto/hash";
import type { Env } from "../env";
import { insertAudit } from "../storage/admin-audit";
import { contentVersionStatement } from "../storage/content-version";
import { entitiesByIdOrBrand, entityStillAt, type StoredEntity } from "../storage/entities";
import { faqsOfEntities, localizedFaqs, type FaqTranslation, type LocalizedFaq, type StoredFaq } from "../storage/faqs";
import { requestDispatch } from "../storage/webhook-queue";
import { changeStatements } from "./apply";
import { faqVersionStatements } from "./faq-versions";
import { planFaqList } from "./plan";
import { canonicalLanguageTag } from "../http/language-tags";
import { phrasingKey } from "../search/normalize";
import { ContentRecord, FaqRecord, questionKey, toRecord, TranslatedFaq, type TranslationRecord } from "./records";
import { forgetContentVersion } from "./snapshot";

/**
 * One FAQ of one entity at a time: add, replace, remove, move. The operator API and the console both call these,
 * so an edit from either is written as an import writes it (the same plan of rows, index terms, `updated_at`, hence
 * ETags and the change feed, the content version and webhooks) and audited with its actor. Positions are 1-based:
 * position 1 is the first FAQ.
 *
 * Every edit names what it was made on (`EditBasis`): the whole list as read, or only the FAQ it changes. It is
 * refused when that has changed since, so two people never overwrite each other without seeing it, and people
 * editing different FAQs of one entity never stop each other.
 */

/** An entity's FAQs in order, each with its translations, and the versions they make. */
export interface FaqList {
  entity: StoredEntity;
  faqs: LocalizedFaq[];
  /** The whole list's version (`faqListVersion`). */
  version: string;
  /** Each FAQ's own version (`faqVersion`), in the list's order. */
  faqVersions: string[];
}

export type FaqText = z.output<typeof FaqRecord>;

export type FaqEdit =
  /** With `translations`, the new FAQ comes translated into their languages. */
  | { action: "add"; faq: FaqText; translations?: FaqTranslation[] }
  /** Ways guests ask the FAQ at `position` added and taken away (compared as the search compares them). */
  | { action: "phrasings"; position: number; add: string[]; remove: string[] }
  | { action: "replace"; position: number; faq: FaqText }
  | { action: "remove"; position: number }
  | { action: "move"; position: number; to: number }
  /** Adds the FAQ's translation into `translation.language`, or replaces the one there is. */
  | { action: "translate"; position: number; translation: FaqTranslation }
  | { action: "untranslate"; position: number; language: string }
  /** An earlier version brought back whole, with its translations: in place of the FAQ at `position`, or inserted there. */
  | { action: "restore"; position: number; replace: boolean; faq: LocalizedFaq };

/**
 * What an edit was made on: the whole list as it was read (its version, as the operator API's If-Match names it),
 * or only the FAQ it changes (that FAQ's version when read, and its question then, which finds it again when
 * someone else has changed it). An addition made on one FAQ's basis never conflicts.
 */
export type EditBasis = { list: string } | { faq: string; question: string };

/** What an FAQ was or became, for the audit log and the answer: its position and text in the default language. */
export type PlacedFaq = FaqText & { position: number };

/** An FAQ where it stands in its list, with its translations and its own version. */
export type ListedFaq = LocalizedFaq & { position: number; version: string };

export type EditOutcome =
  | { outcome: "saved"; list: FaqList; before: PlacedFaq | null; after: PlacedFaq | null }
  | { outcome: "no_entity" }
  /** No FAQ at the position (or none to move it to); `list` is what is stored. */
  | { outcome: "no_faq"; list: FaqList }
  /** The FAQ has no translation into the language to remove. */
  | { outcome: "no_translation"; list: FaqList }
  /**
   * What the edit was made on changed since; `list` is what is stored now and `current` the edited FAQ as it is now
   * (found by its question as read, else at the edit's position; null when it is gone).
   */
  | { outcome: "conflict"; list: FaqList; current: ListedFaq | null }
  /** The FAQ's text breaks a rule; each problem names its field (`question`, `answer`, `category`, or the record's). */
  | { outcome: "invalid"; problems: Problem[] }
  /** Another FAQ of the entity asks the same question (case and spacing aside): `position` is that one's. */
  | { outcome: "duplicate"; position: number };

/** The version of an entity's FAQ list: a hash of every FAQ in every language, in order. */
export const faqListVersion = (faqs: LocalizedFaq[]): Promise<string> => sha256PrefixHex(JSON.stringify(faqs), 8);

/** The version of one FAQ: a hash of it in every language, wherever it stands. */
export const faqVersion = (faq: LocalizedFaq): Promise<string> => sha256PrefixHex(JSON.stringify(faq), 8);

/** The FAQ of `list` at a 1-based position, as listed. */
export const listedFaq = (list: FaqList, position: number): ListedFaq | null => {
  const faq = list.faqs[position - 1];
  return faq ? { ...faq, position, version: list.faqVersions[position - 1]! } : null;
};

const sortedRows = (rows: StoredFaq[]): StoredFaq[] =>
  [...rows].sort((a, b) => a.position - b.position || a.translation - b.translation || (a.language < b.language ? -1 : 1));

async function readStored(db: D1Database, entityId: string): Promise<{ list: FaqList; rows: StoredFaq[] } | null> {
  const [entity] = await entitiesByIdOrBrand(db, [entityId], []);
  if (!entity) return null;
  const rows = sortedRows(await faqsOfEntities(db, [entityId]));
  const faqs = localizedFaqs(rows);
  const [version, faqVersions] = await Promise.all([faqListVersion(faqs), Promise.all(faqs.map(faqVersion))]);
  return { list: { entity, faqs, version, faqVersions }, rows };
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
function withTranslationsOf(translations: TranslationRecord[], source: string, added: FaqTranslation[]): TranslationRecord[] {
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

/** Translations without a language left translating nothing. */
const withoutEmptyLanguages = (translations: TranslationRecord[]): TranslationRecord[] =>
  translations.filter((translation) => translation.name !== undefined || (translation.faqs ?? []).length > 0);

/** Translations without those of `question`, and without a language left translating nothing. */
const withoutTranslationsOf = (translations: TranslationRecord[], question: string): TranslationRecord[] =>
  withoutEmptyLanguages(
    translations.map((translation) => ({ ...translation, faqs: translation.faqs?.filter((faq) => faq.source !== question) })),
  );

/**
 * The record with the edit made, with what the edited FAQ was and became; null when the position holds no FAQ,
 * "no_translation" when a translation to remove is not there.
 */
function edited(
  record: ContentRecord,
  edit: FaqEdit,
): { record: ContentRecord; before: PlacedFaq | null; after: PlacedFaq | null } | null | "no_translation" {
  const faqs = [...record.faqs];
  const translations = record.translations ?? [];
  if (edit.action === "add") {
    faqs.push(edit.faq);
    const added = edit.translations ?? [];
    const withAdded = added.length > 0 ? { translations: withTranslationsOf(translations, edit.faq.question, added) } : {};
    return { record: { ...record, faqs, ...withAdded }, before: null, after: placed(edit.faq, faqs.length - 1) };
  }
  const index = edit.position - 1;
  if (edit.action === "restore" && !edit.replace) return restored(record, edit.faq, Math.min(index, faqs.length), null);
  const current = faqs[index];
  if (!current) return null;
  if (edit.action === "restore") return restored(record, edit.faq, index, current);
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
  if (edit.action === "translate" || edit.action === "untranslate") {
    const language = edit.action === "translate" ? edit.translation.language : edit.language;
    const isIt = (translation: TranslationRecord) => translation.language.toLowerCase() === language.toLowerCase();
    const others = translations.filter((translation) => !isIt(translation));
    const own = translations.find(isIt) ?? { language };
    const kept = (own.faqs ?? []).filter((faq) => faq.source !== current.question);
    if (edit.action === "untranslate" && kept.length === (own.faqs ?? []).length) return "no_translation";
    const added =
      edit.action === "translate"
        ? [{ source: current.question, question: edit.translation.question, answer: edit.translation.answer }]
        : [];
    // In the FAQs' order, as an export writes them.
    const ordered = [...kept, ...added].sort(
      (a, b) => faqs.findIndex((faq) => faq.question === a.source) - faqs.findIndex((faq) => faq.question === b.source),
    );
    const changed = { ...own, faqs: ordered };
    return {
      record: { ...record, translations: withoutEmptyLanguages([...others, changed]) },
      before: placed(current, index),
      after: placed(current, index),
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

/** What `schema` finds wrong with an FAQ's text or a translation's, by field. */
function textProblems(schema: z.ZodType, value: unknown): Problem[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => ({ field: issue.path.join(".") || "faq", message: issue.message }));
}

type Problem = { field: string; message: string };

/** The edit with its text checked and its language in canonical form, or what is wrong with it. */
function checked(edit: FaqEdit): FaqEdit | { problems: Problem[] } {
  if (edit.action === "add" || edit.action === "replace") {
    const problems = textProblems(FaqRecord, edit.faq);
    return problems.length > 0 ? { problems } : edit;
  }
  if (edit.action === "translate") {
    const parsed = TranslatedFaq.safeParse(edit.translation);
    return parsed.success ? { ...edit, translation: parsed.data } : { problems: textProblems(TranslatedFaq, edit.translation) };
  }
  if (edit.action === "untranslate") {
    const language = canonicalLanguageTag(edit.language);
    return language === null
      ? { problems: [{ field: "language", message: "is not a BCP 47 tag of a known language" }] }
      : { ...edit, language };
  }
  return edit;
}

/** The edit with its position where the FAQ it was made on stands now, or the FAQ as it is now when it changed. */
function located(list: FaqList, edit: FaqEdit, basis: EditBasis): { edit: FaqEdit } | { conflict: ListedFaq | null } {
  const atPosition = edit.action === "add" ? null : listedFaq(list, edit.position);
  if ("list" in basis) return basis.list === list.version ? { edit } : { conflict: atPosition };
  if (edit.action === "add" || (edit.action === "restore" && !edit.replace)) return { edit };
  const index = list.faqVersions.indexOf(basis.faq);
  if (index >= 0) return { edit: { ...edit, position: index + 1 } };
  const key = questionKey(basis.question);
  const byQuestion = list.faqs.findIndex((faq) => questionKey(faq.question) === key);
  return { conflict: byQuestion >= 0 ? listedFaq(list, byQuestion + 1) : atPosition };
}

/**
 * Makes `edit` on entity `entityId`'s FAQs if the list is still at `expectedVersion`, as `actor` (`person:<email>`,
 * `token:<fingerprint>`), in one D1 batch with its audit row. Webhooks are dispatched through `waitUntil`.
 */
export async function editFaqs(
  env: Pick<Env, "DB" | "WEBHOOK_QUEUE">,
  change: { entityId: string; edit: FaqEdit; basis: EditBasis; actor: string },
  waitUntil: (work: Promise<unknown>) => void,
  attempts = 2,
): Promise<EditOutcome> {
  const db = env.DB;
  const { entityId, basis, actor } = change;
  const asked = checked(change.edit);
  if ("problems" in asked) return { outcome: "invalid", problems: asked.problems };
  const stored = await readStored(db, entityId);
  if (!stored) return { outcome: "no_entity" };
  const { list, rows } = stored;
  const language = asked.action === "translate" ? asked.translation.language : asked.action === "untranslate" ? asked.language : null;
  if (language !== null && language.toLowerCase() === list.entity.default_language.toLowerCase()) {
    const message = `is ${list.entity.default_language}, the language the FAQs themselves are written in: edit the FAQ instead`;
    return { outcome: "invalid", problems: [{ field: "language", message }] };
  }
  const found = located(list, asked, basis);
  if ("conflict" in found) return { outcome: "conflict", list, current: found.conflict };
  const edit = found.edit;
  const result = edited(toRecord(list.entity, list.faqs), edit);
  if (!result) return { outcome: "no_faq", list };
  if (result === "no_translation") return { outcome: "no_translation", list };
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
    // The guard failed (the batch wrote nothing): someone wrote between the read and the batch. The edit is made
    // again on what is stored now, which refuses it when what it was made on has changed.
    if (attempts > 1) return editFaqs(env, change, waitUntil, attempts - 1);
    throw error;
  }
  forgetContentVersion();
  waitUntil(requestDispatch(env));
  const saved = await readFaqList(db, entityId);
  return saved ? { outcome: "saved", list: saved, before: result.before, after: result.after } : { outcome: "no_entity" };
}
