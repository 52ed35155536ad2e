import { describe, expect, it } from "vitest";
import { auditDetail, MAX_AUDIT_DETAIL_BYTES, type EntityPreview } from "../../../src/catalogue/content-import";
import { recordChanges, type ComparableRecord } from "../../../src/catalogue/record-changes";

/** An import's audit row stays within what D1 binds, however large the entity it changes (a fourth-review finding). */

const LANGUAGES = ["pt", "es", "fr", "de", "it", "nl", "da", "sv", "fi", "pl", "cs", "ja"];

function hotel(faqs: number, text: string): ComparableRecord {
  const questions = Array.from({ length: faqs }, (_, n) => `Question ${n}?`);
  return {
    id: "HO-BIG-1",
    kind: "property",
    name: "Big",
    brandId: "HO-BIG",
    propertyId: null,
    faqs: questions.map((question) => ({ category: "Stay", question, answer: `${text} ${question}` })),
    translations: LANGUAGES.map((language) => ({
      language,
      faqs: questions.map((source) => ({ source, question: `${language} ${source}`, answer: `${language} ${text} ${source}` })),
    })),
  };
}

const preview = (before: ComparableRecord, after: ComparableRecord): EntityPreview => ({
  id: before.id,
  name: before.name,
  status: "changed",
  changes: recordChanges(before, after),
  before,
  after,
});

const size = (detail: object) => new TextEncoder().encode(JSON.stringify(detail)).byteLength;

describe("an import's audit detail", () => {
  it("keeps both records while they fit", () => {
    const detail = auditDetail(preview(hotel(3, "a"), hotel(3, "b"))) as { before: unknown; after: unknown };
    expect(detail.before).toBeDefined();
    expect(detail.after).toBeDefined();
  });

  it("keeps every change but leaves the records out for an entity of many long translations", () => {
    const entity = preview(hotel(40, "x".repeat(600)), hotel(40, "y".repeat(20)));
    const detail = auditDetail(entity) as { records: string; changes: { faqs: unknown[] } };
    expect(size(detail)).toBeLessThanOrEqual(MAX_AUDIT_DETAIL_BYTES);
    expect(detail.records).toBe("left out: too large to keep");
    expect(detail.changes.faqs).toHaveLength(40 * 13);
  });

  it("cuts the texts, then names the first changes and counts the rest, when even the changes do not fit", () => {
    for (const faqs of [100, 500]) {
      const detail = auditDetail(preview(hotel(faqs, "x".repeat(2_000)), hotel(faqs, "y".repeat(2_000)))) as {
        changes: { faqs: unknown[] };
        moreFaqChanges?: number;
      };
      expect(size(detail)).toBeLessThanOrEqual(MAX_AUDIT_DETAIL_BYTES);
      expect(detail.changes.faqs.length + (detail.moreFaqChanges ?? 0)).toBe(faqs * 13);
    }
  });
});
