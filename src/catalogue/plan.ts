import { nameKey } from "../search/normalize";
import type { EntityRow, StoredEntity } from "../storage/entities";
import type { FaqInput, StoredFaq } from "../storage/faqs";
import { DEFAULT_CONTENT_LANGUAGE } from "../http/language-tags";
import type { ContentRecord, RowError } from "./records";

/**
 * What an import does, decided from the file and what is stored, before anything is written.
 *
 * - An entity in the file is added, or changed when its name, URL, brand, property ID, default language,
 *   translated names, FAQs (with the ways guests ask them) or their translations differ; otherwise it is left alone, row for row, so
 *   importing the same file twice writes nothing.
 * - An entity's FAQs become the file's list for it, in order (an empty list removes them all), and so do
 *   their translations: a translation sits at its source question's position, in its language.
 * - A brand in the file brings its whole roster: its stored properties missing from the file are removed.
 * - Nothing else is touched: entities the file does not name stay as they are.
 * - A changed entity's `updated_at` (FAQPage `dateModified`) becomes the time of the import; an added one
 *   takes the file's `updatedAt` when given, so restoring an export keeps its dates and ETags.
 */

export interface StagedRecord {
  line: number;
  record: ContentRecord;
}

/** What is stored now of the entities a file names, their brands, the properties of its brands, and their FAQs. */
export interface CurrentContent {
  entities: StoredEntity[];
  faqs: StoredFaq[];
}

export interface ContentChanges {
  entities: { insert: EntityRow[]; update: EntityRow[]; remove: string[] };
  faqs: { insert: FaqInput[]; update: StoredFaq[]; remove: number[] };
}

interface RowCounts {
  added: number;
  changed: number;
  removed: number;
}

export interface ImportSummary {
  entities: RowCounts & { unchanged: number };
  /** FAQs in their entity's default language. */
  faqs: RowCounts;
  /** FAQs in other languages. */
  translations: RowCounts;
}

export interface ContentPlan {
  errors: RowError[];
  changes: ContentChanges;
  summary: ImportSummary;
  /** Entity IDs by what happens to them. */
  ids: { added: string[]; changed: string[]; removed: string[] };
}

/** A plan that changes nothing because of `errors`. */
export function rejectedPlan(errors: RowError[]): ContentPlan {
  return {
    errors: [...errors].sort((a, b) => a.line - b.line),
    changes: { entities: { insert: [], update: [], remove: [] }, faqs: { insert: [], update: [], remove: [] } },
    summary: {
      entities: { added: 0, changed: 0, removed: 0, unchanged: 0 },
      faqs: { added: 0, changed: 0, removed: 0 },
      translations: { added: 0, changed: 0, removed: 0 },
    },
    ids: { added: [], changed: [], removed: [] },
  };
}

const sameFaq = (a: FaqInput, b: FaqInput): boolean =>
  a.category === b.category && a.question === b.question && a.answer === b.answer && (a.phrasings ?? "[]") === (b.phrasings ?? "[]");

/** Every row `record` wants stored: its FAQs in its default language, then their translations at their sources' positions. */
function wantedFaqs(record: ContentRecord): FaqInput[] {
  const language = record.defaultLanguage ?? DEFAULT_CONTENT_LANGUAGE;
  const rows: FaqInput[] = record.faqs.map(({ category, question, answer, phrasings = [] }, position) => ({
    entity_id: record.id,
    position,
    language,
    translation: 0,
    category,
    question,
    answer,
    ...(phrasings.length > 0 ? { phrasings: JSON.stringify(phrasings) } : {}),
  }));
  const positions = new Map(record.faqs.map((faq, position) => [faq.question, position]));
  for (const translation of record.translations ?? []) {
    for (const { source, question, answer } of translation.faqs ?? []) {
      const position = positions.get(source)!; // parseRecord refused a translation without its source
      rows.push({
        entity_id: record.id,
        position,
        language: translation.language,
        translation: 1,
        category: record.faqs[position]!.category,
        question,
        answer,
      });
    }
  }
  return rows;
}

const rowKey = (faq: Pick<FaqInput, "position" | "language">): string => `${faq.position} ${faq.language}`;

/**
 * The FAQ writes that turn `stored` into `wanted`, row by row, each row named by its position and language. A row
 * that turns from a translation into the default language's (or back) is removed and inserted again, so no two
 * rows of a position are ever in the default language at once.
 */
function diffFaqs(stored: StoredFaq[], wanted: FaqInput[], changes: ContentChanges): boolean {
  const writes = () => changes.faqs.insert.length + changes.faqs.update.length + changes.faqs.remove.length;
  const before = writes();
  // Positions are written by imports only, 0..n-1; anything else is replaced whole rather than patched.
  const contiguous = stored
    .filter((faq) => faq.translation === 0)
    .sort((a, b) => a.position - b.position)
    .every((faq, index) => faq.position === index);
  const current = new Map(contiguous ? stored.map((faq) => [rowKey(faq), faq]) : []);
  if (!contiguous) changes.faqs.remove.push(...stored.map((faq) => faq.id));
  for (const faq of wanted) {
    const existing = current.get(rowKey(faq));
    current.delete(rowKey(faq));
    if (!existing) changes.faqs.insert.push(faq);
    else if (existing.translation !== faq.translation) {
      changes.faqs.remove.push(existing.id);
      changes.faqs.insert.push(faq);
    } else if (!sameFaq(existing, faq)) {
      // A row wanted without phrasings has none: the stored ones are not kept.
      const phrasings = existing.phrasings === undefined && faq.phrasings === undefined ? {} : { phrasings: faq.phrasings ?? "[]" };
      changes.faqs.update.push({ ...existing, ...faq, ...phrasings });
    }
  }
  changes.faqs.remove.push(...[...current.values()].map((faq) => faq.id));
  return writes() !== before;
}

/**
 * The writes that make one stored entity's FAQs (every language) those of `record`, and move its `updated_at`
 * when any FAQ changes: an edit of the FAQs alone, which leaves the entity's other fields and a brand's roster
 * as they are (planContent would remove the properties of a brand whose record lists none).
 */
export function planFaqList(entity: StoredEntity, stored: StoredFaq[], record: ContentRecord, now: string): ContentChanges {
  const changes: ContentChanges = { entities: { insert: [], update: [], remove: [] }, faqs: { insert: [], update: [], remove: [] } };
  if (diffFaqs(stored, wantedFaqs(record), changes)) changes.entities.update.push({ ...entity, updated_at: now });
  return changes;
}

/** A record's names in other languages as stored: a JSON object of tag to name, by tag. */
const translatedNames = (record: ContentRecord): string =>
  JSON.stringify(
    Object.fromEntries(
      (record.translations ?? [])
        .flatMap(({ language, name }) => (name === undefined ? [] : [[language, name] as const]))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
  );

function referenceErrors(rows: StagedRecord[], byId: Map<string, StagedRecord>, stored: Map<string, StoredEntity>): RowError[] {
  const errors: RowError[] = [];
  for (const { line, record } of rows) {
    const existing = stored.get(record.id);
    if (existing && existing.kind !== record.kind) {
      errors.push({ line, field: "kind", message: `${record.id} is stored as a ${existing.kind}; an entity's kind cannot change` });
    }
    if (record.kind !== "property") continue;
    const brand = byId.get(record.brandId)?.record ?? stored.get(record.brandId);
    if (!brand) errors.push({ line, field: "brandId", message: `no brand ${record.brandId} in the file or stored` });
    else if (brand.kind !== "brand") errors.push({ line, field: "brandId", message: `${record.brandId} is a ${brand.kind}, not a brand` });
  }
  return errors;
}

export function planContent(rows: StagedRecord[], current: CurrentContent, now: string): ContentPlan {
  const changes: ContentChanges = { entities: { insert: [], update: [], remove: [] }, faqs: { insert: [], update: [], remove: [] } };
  const ids: ContentPlan["ids"] = { added: [], changed: [], removed: [] };
  const stored = new Map(current.entities.map((e) => [e.id, e]));
  const storedFaqs = new Map<string, StoredFaq[]>();
  for (const faq of current.faqs) storedFaqs.set(faq.entity_id, [...(storedFaqs.get(faq.entity_id) ?? []), faq]);
  for (const list of storedFaqs.values()) list.sort((a, b) => a.position - b.position);

  const errors: RowError[] = [];
  const byId = new Map<string, StagedRecord>();
  for (const row of rows) {
    const first = byId.get(row.record.id);
    if (first) errors.push({ line: row.line, field: "id", message: `${row.record.id} is already on line ${first.line}` });
    else byId.set(row.record.id, row);
  }
  errors.push(...referenceErrors(rows, byId, stored));
  if (errors.length > 0) return rejectedPlan(errors);

  let unchanged = 0;
  for (const { record } of byId.values()) {
    const wanted: EntityRow = {
      id: record.id,
      kind: record.kind,
      name: record.name,
      brand_id: record.kind === "property" ? record.brandId : null,
      property_id: record.kind === "property" ? record.propertyId : null,
      url: record.url ?? null,
      updated_at: record.updatedAt ?? now,
      default_language: record.defaultLanguage ?? DEFAULT_CONTENT_LANGUAGE,
      translated_names: translatedNames(record),
    };
    const existing = stored.get(record.id);
    if (!existing) {
      changes.entities.insert.push(wanted);
      changes.faqs.insert.push(...wantedFaqs(record));
      ids.added.push(record.id);
      continue;
    }
    const faqsChanged = diffFaqs(storedFaqs.get(record.id) ?? [], wantedFaqs(record), changes);
    // A name folded by an older rule (lower() of a migration) is rewritten too.
    const rowChanged =
      existing.name !== wanted.name ||
      existing.brand_id !== wanted.brand_id ||
      existing.property_id !== wanted.property_id ||
      existing.url !== wanted.url ||
      existing.default_language !== wanted.default_language ||
      existing.translated_names !== wanted.translated_names ||
      existing.name_key !== nameKey(wanted.name);
    if (rowChanged || faqsChanged) {
      changes.entities.update.push({ ...wanted, updated_at: now });
      ids.changed.push(record.id);
    } else unchanged += 1;
  }

  const listedBrands = new Set(rows.filter((r) => r.record.kind === "brand").map((r) => r.record.id));
  // The FAQs that go with removed entities (ON DELETE CASCADE), counted with the rows removed one by one.
  const removedRows: Pick<FaqInput, "translation">[] = [];
  for (const entity of current.entities) {
    if (entity.brand_id === null || !listedBrands.has(entity.brand_id) || byId.has(entity.id)) continue;
    changes.entities.remove.push(entity.id);
    ids.removed.push(entity.id);
    removedRows.push(...(storedFaqs.get(entity.id) ?? []));
  }
  const removedIds = new Set(changes.faqs.remove);
  removedRows.push(...current.faqs.filter((faq) => removedIds.has(faq.id)));
  const count = (translation: 0 | 1): RowCounts => ({
    added: changes.faqs.insert.filter((faq) => faq.translation === translation).length,
    changed: changes.faqs.update.filter((faq) => faq.translation === translation).length,
    removed: removedRows.filter((faq) => faq.translation === translation).length,
  });

  return {
    errors,
    changes,
    ids,
    summary: {
      entities: { added: ids.added.length, changed: ids.changed.length, removed: ids.removed.length, unchanged },
      faqs: count(0),
      translations: count(1),
    },
  };
}
