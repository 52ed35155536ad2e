import { nameKey } from "../search/normalize";
import type { EntityRow, StoredEntity } from "../storage/entities";
import type { FaqInput, StoredFaq } from "../storage/faqs";
import type { ContentRecord, FaqRecord, RowError } from "./records";

/**
 * What an import does, decided from the file and what is stored, before anything is written.
 *
 * - An entity in the file is added, or changed when its name, URL, brand, property ID or FAQs differ;
 *   otherwise it is left alone, row for row, so importing the same file twice writes nothing.
 * - An entity's FAQs become the file's list for it, in order (an empty list removes them all).
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

export interface ImportSummary {
  entities: { added: number; changed: number; removed: number; unchanged: number };
  faqs: { added: number; changed: number; removed: number };
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
    summary: { entities: { added: 0, changed: 0, removed: 0, unchanged: 0 }, faqs: { added: 0, changed: 0, removed: 0 } },
    ids: { added: [], changed: [], removed: [] },
  };
}

const sameFaq = (a: FaqRecord, b: FaqRecord): boolean => a.category === b.category && a.question === b.question && a.answer === b.answer;

/** The FAQ writes that turn `stored` (by position) into `wanted`. */
function diffFaqs(entityId: string, stored: StoredFaq[], wanted: FaqRecord[], changes: ContentChanges): boolean {
  const writes = () => changes.faqs.insert.length + changes.faqs.update.length + changes.faqs.remove.length;
  const before = writes();
  // Positions are written by imports only, 0..n-1; anything else is replaced whole rather than patched.
  const contiguous = stored.every((faq, index) => faq.position === index);
  if (!contiguous) {
    changes.faqs.remove.push(...stored.map((faq) => faq.id));
    changes.faqs.insert.push(...wanted.map((faq, position) => ({ entity_id: entityId, position, ...faq })));
  } else {
    wanted.forEach((faq, position) => {
      const current = stored[position];
      if (!current) changes.faqs.insert.push({ entity_id: entityId, position, ...faq });
      else if (!sameFaq(current, faq)) changes.faqs.update.push({ ...current, ...faq });
    });
    changes.faqs.remove.push(...stored.slice(wanted.length).map((faq) => faq.id));
  }
  return writes() !== before;
}

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
    };
    const existing = stored.get(record.id);
    if (!existing) {
      changes.entities.insert.push(wanted);
      changes.faqs.insert.push(...record.faqs.map((faq, position) => ({ entity_id: record.id, position, ...faq })));
      ids.added.push(record.id);
      continue;
    }
    const faqsChanged = diffFaqs(record.id, storedFaqs.get(record.id) ?? [], record.faqs, changes);
    // A name folded by an older rule (lower() of a migration) is rewritten too.
    const rowChanged =
      existing.name !== wanted.name ||
      existing.brand_id !== wanted.brand_id ||
      existing.property_id !== wanted.property_id ||
      existing.url !== wanted.url ||
      existing.name_key !== nameKey(wanted.name);
    if (rowChanged || faqsChanged) {
      changes.entities.update.push({ ...wanted, updated_at: now });
      ids.changed.push(record.id);
    } else unchanged += 1;
  }

  const listedBrands = new Set(rows.filter((r) => r.record.kind === "brand").map((r) => r.record.id));
  let removedFaqs = 0;
  for (const entity of current.entities) {
    if (entity.brand_id === null || !listedBrands.has(entity.brand_id) || byId.has(entity.id)) continue;
    changes.entities.remove.push(entity.id);
    ids.removed.push(entity.id);
    removedFaqs += storedFaqs.get(entity.id)?.length ?? 0;
  }

  return {
    errors,
    changes,
    ids,
    summary: {
      entities: { added: ids.added.length, changed: ids.changed.length, removed: ids.removed.length, unchanged },
      faqs: { added: changes.faqs.insert.length, changed: changes.faqs.update.length, removed: changes.faqs.remove.length + removedFaqs },
    },
  };
}
