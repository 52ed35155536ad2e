import { z } from "@hono/zod-openapi";
import type { EntityKind, EntityRow } from "../storage/entities";
import type { FaqRow } from "../storage/faqs";

/**
 * The content file format of import and export: one record per entity, its FAQs nested in their
 * order. NDJSON holds one record per line, JSON an array of records. Export writes the members in
 * the order declared here, so exporting what was imported gives the same bytes.
 */

/** SPEC "Entity identifiers": brands and properties are HO-, destinations DMO-, airports AIR-. */
export const ID_PREFIX: Record<EntityKind, string> = { brand: "HO-", property: "HO-", destination: "DMO-", airport: "AIR-" };

/** What an entity ID may be: it goes into URLs, cache keys and logs, so no spaces, slashes or control characters. */
export const ENTITY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const EntityId = z
  .string()
  .regex(ENTITY_ID_PATTERN, "must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit");

export const FaqRecord = z
  .strictObject({
    category: z.string().min(1).max(100),
    question: z.string().min(1).max(1_000),
    answer: z.string().min(1).max(10_000),
  })
  .openapi("FaqRecord");

/** Whether `value` is an absolute https URL as written: no spaces, no credentials, a host. */
function isPublicHttpsUrl(value: string): boolean {
  if (/\s/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === "https:" && url.hostname !== "" && url.username === "" && url.password === "";
}

export const PublicUrl = z
  .string()
  .max(2048)
  .refine(isPublicHttpsUrl, "must be an absolute https:// URL, without spaces or credentials")
  .openapi({ description: "The entity's own public page (a hotel's website): the FAQ feed's about.url and what assistants cite." });

const common = {
  id: EntityId,
  name: z.string().min(1).max(300),
  url: PublicUrl.optional(),
  updatedAt: z.iso.datetime({ offset: true }).optional().openapi({
    description:
      "When the entity last changed (FAQPage dateModified). Used when the entity is added; a change sets the time of the import.",
  }),
  faqs: z.array(FaqRecord).max(500).default([]).openapi({ description: "The entity's FAQs in order; they replace the stored ones." }),
};

export const ContentRecord = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("brand"), ...common }),
    z.strictObject({
      kind: z.literal("property"),
      ...common,
      brandId: EntityId.openapi({ description: "The brand the property belongs to: in the same file or already stored." }),
      propertyId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().default(null).openapi({
        description: "The partner's external property ID, or null.",
      }),
    }),
    z.strictObject({ kind: z.literal("destination"), ...common }),
    z.strictObject({ kind: z.literal("airport"), ...common }),
  ])
  .superRefine((record, ctx) => {
    const prefix = ID_PREFIX[record.kind];
    if (!record.id.startsWith(prefix)) ctx.addIssue({ code: "custom", path: ["id"], message: `a ${record.kind} ID starts with ${prefix}` });
    if (record.kind === "property" && !record.brandId.startsWith(prefix)) {
      ctx.addIssue({ code: "custom", path: ["brandId"], message: `a brand ID starts with ${prefix}` });
    }
  })
  .openapi("ContentRecord");
export type ContentRecord = z.output<typeof ContentRecord>;
export type FaqRecord = z.output<typeof FaqRecord>;

/** A problem with one row of a file: its line (NDJSON) or position (JSON array), the field, and what is wrong. */
export const RowError = z
  .object({
    line: z.number().int().openapi({ description: "Line of the NDJSON file, or 1-based position in the JSON array." }),
    field: z.string().openapi({ example: "faqs.2.answer" }),
    message: z.string(),
  })
  .openapi("RowError");
export type RowError = z.infer<typeof RowError>;

/** Validates one row; the errors name the field of each problem. */
export function parseRecord(line: number, value: unknown): { record: ContentRecord } | { errors: RowError[] } {
  const parsed = ContentRecord.safeParse(value);
  if (parsed.success) return { record: parsed.data };
  return {
    errors: parsed.error.issues.map((issue) => ({ line, field: issue.path.join(".") || "(record)", message: issue.message })),
  };
}

/** An entity and its FAQs as a record, members in the file format's order. */
export function toRecord(entity: EntityRow, faqs: FaqRow[]): ContentRecord {
  const head = { id: entity.id, kind: entity.kind, name: entity.name, ...(entity.url === null ? {} : { url: entity.url }) };
  const rest = { updatedAt: entity.updated_at, faqs: faqs.map(({ category, question, answer }) => ({ category, question, answer })) };
  // Spreading `head` first keeps the members in file order; `kind` is restated for the type's sake.
  if (entity.kind === "property") {
    return { ...head, kind: entity.kind, brandId: entity.brand_id ?? "", propertyId: entity.property_id, ...rest };
  }
  return { ...head, kind: entity.kind, ...rest };
}
