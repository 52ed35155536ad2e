import { DEFAULT_CONTENT_LANGUAGE } from "../http/language-tags";
import { questionKey, type ContentRecord } from "./records";

/**
 * What differs between two versions of one entity's record, field by field and language by language: what an
 * import's preview shows and its audit row keeps, so a change of a hotel's URL or of a Portuguese answer is said as
 * plainly as a new FAQ. A translation goes with its source question: an FAQ removed takes its translations with it,
 * and each is listed.
 */

export type FieldValue = string | number | null;

export interface FieldChange {
  field: string;
  before: FieldValue;
  after: FieldValue;
}

export interface FaqChange {
  /** The language of the row: the record's default language, or a translation's. */
  language: string;
  change: "added" | "changed" | "removed";
  /** The question as it reads after the change (before it, for a removal). */
  question: string;
  /** Each field that differs; for an addition, every field as added. */
  fields: FieldChange[];
}

export interface RecordChanges {
  fields: FieldChange[];
  faqs: FaqChange[];
}

/** A record as compared: what a file says of an entity, without the time it was last changed. */
// Distributed over the record's kinds, so a property's brandId stays where its kind says it is.
export type ComparableRecord = ContentRecord extends infer R ? (R extends unknown ? Omit<R, "updatedAt"> : never) : never;

export const comparable = (record: ContentRecord): ComparableRecord => {
  const { updatedAt: _, ...rest } = record;
  return rest;
};

interface Row {
  key: string;
  fields: Record<string, string>;
}

const ENTITY_FIELDS = ["name", "url", "brandId", "propertyId", "defaultLanguage"] as const;

const fieldOf = (record: ComparableRecord | null, field: (typeof ENTITY_FIELDS)[number]): FieldValue => {
  if (!record) return null;
  if (field === "defaultLanguage") return record.defaultLanguage ?? DEFAULT_CONTENT_LANGUAGE;
  const value = (record as Record<string, unknown>)[field];
  return typeof value === "string" || typeof value === "number" ? value : null;
};

/** The rows of `record` in one language: its own FAQs, or a translation's keyed by their source question. */
function rowsIn(record: ComparableRecord | null, language: string | null): Row[] {
  if (!record) return [];
  if (language === null)
    return record.faqs.map(({ category, question, answer }) => ({ key: questionKey(question), fields: { question, answer, category } }));
  const translation = record.translations?.find((t) => t.language === language);
  return (translation?.faqs ?? []).map(({ source, question, answer }) => ({ key: questionKey(source), fields: { question, answer } }));
}

/**
 * The changes between two lists of rows, matched by question (a translation by its source's): an FAQ whose question
 * is reworded is removed and another added, so its removal is confirmed like any other.
 */
function rowChanges(language: string, before: Row[], after: Row[]): FaqChange[] {
  const unmatched = new Map(before.map((row) => [row.key, row]));
  const pairs: [Row | null, Row | null][] = [];
  const left: Row[] = [];
  for (const row of after) {
    const old = unmatched.get(row.key);
    if (old) {
      unmatched.delete(row.key);
      pairs.push([old, row]);
    } else left.push(row);
  }
  for (const row of left) pairs.push([null, row]);
  for (const row of unmatched.values()) pairs.push([row, null]);
  const changes: FaqChange[] = [];
  for (const [old, now] of pairs) {
    if (old && now) {
      const fields = Object.keys(now.fields)
        .filter((field) => old.fields[field] !== now.fields[field])
        .map((field) => ({ field, before: old.fields[field] ?? null, after: now.fields[field] ?? null }));
      if (fields.length > 0) changes.push({ language, change: "changed", question: now.fields.question!, fields });
    } else if (now) {
      changes.push({
        language,
        change: "added",
        question: now.fields.question!,
        fields: Object.entries(now.fields).map(([field, after]) => ({ field, before: null, after })),
      });
    } else if (old) changes.push({ language, change: "removed", question: old.fields.question!, fields: [] });
  }
  return changes;
}

/** Everything that differs from `before` to `after` (null: the entity does not exist on that side). */
export function recordChanges(before: ComparableRecord | null, after: ComparableRecord | null): RecordChanges {
  const fields: FieldChange[] = ENTITY_FIELDS.map((field) => ({
    field,
    before: fieldOf(before, field),
    after: fieldOf(after, field),
  })).filter((change) => change.before !== change.after && !(before === null && change.after === null));
  const names = (record: ComparableRecord | null) => new Map((record?.translations ?? []).map((t) => [t.language, t.name ?? null]));
  const [namesBefore, namesAfter] = [names(before), names(after)];
  const languages = [...new Set([...namesBefore.keys(), ...namesAfter.keys()])].sort();
  for (const language of languages) {
    const [was, is] = [namesBefore.get(language) ?? null, namesAfter.get(language) ?? null];
    if (was !== is) fields.push({ field: `name (${language})`, before: was, after: is });
  }
  const ownLanguage = (record: ComparableRecord | null) => record?.defaultLanguage ?? DEFAULT_CONTENT_LANGUAGE;
  const faqs = rowChanges(ownLanguage(after ?? before), rowsIn(before, null), rowsIn(after, null));
  for (const language of languages) faqs.push(...rowChanges(language, rowsIn(before, language), rowsIn(after, language)));
  return { fields, faqs };
}

/** How many of each change, default-language FAQs and translations apart. */
export function changeCounts(changes: RecordChanges, defaultLanguage: string) {
  const count = (own: boolean, change: FaqChange["change"]) =>
    changes.faqs.filter((faq) => (faq.language === defaultLanguage) === own && faq.change === change).length;
  return {
    fields: changes.fields.length,
    faqs: { added: count(true, "added"), changed: count(true, "changed"), removed: count(true, "removed") },
    translations: { added: count(false, "added"), changed: count(false, "changed"), removed: count(false, "removed") },
  };
}
