import { z } from "@hono/zod-openapi";
import type { EntityKind, EntityRow } from "../storage/entities";
import type { LocalizedFaq } from "../storage/faqs";
import { DEFAULT_CONTENT_LANGUAGE, LanguageTag } from "./languages";

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

const PROPERTY_ID_RULE = "must be a whole number from 0 to 9007199254740991, or null";
const Name = z.string().min(1).max(300);
/** Text of an FAQ: never blank, at most `max` characters; the messages are read by hotel staff in the console too. */
const faqText = (max: number) =>
  z
    .string()
    .max(max, `is longer than ${max.toLocaleString("en")} characters`)
    .regex(/\S/, "is empty");
export const MAX_QUESTION_LENGTH = 1_000;
export const MAX_ANSWER_LENGTH = 10_000;
export const MAX_CATEGORY_LENGTH = 100;
const Question = faqText(MAX_QUESTION_LENGTH);
const Answer = faqText(MAX_ANSWER_LENGTH);

export const FaqRecord = z
  .strictObject({
    category: faqText(MAX_CATEGORY_LENGTH),
    question: Question,
    answer: Answer,
  })
  .openapi("FaqRecord");

/** A question as it is compared for duplicates: case and spacing aside. */
export const questionKey = (question: string): string => question.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();

/**
 * Questions asked twice in one language of a record, case and spacing aside: a guest would get two answers to
 * one question, and a translation could not tell which it translates.
 */
function duplicateQuestions(record: {
  faqs: FaqRecord[];
  translations?: TranslationRecord[];
}): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const check = (questions: string[], at: (string | number)[]) => {
    const seen = new Map<string, number>();
    questions.forEach((question, index) => {
      const key = questionKey(question);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else
        problems.push({
          path: [...at, index, "question"],
          message: `asks the same question as ${[...at, first].join(".")} (case and spacing aside)`,
        });
    });
  };
  check(
    record.faqs.map((faq) => faq.question),
    ["faqs"],
  );
  (record.translations ?? []).forEach((translation, t) =>
    check(
      (translation.faqs ?? []).map((faq) => faq.question),
      ["translations", t, "faqs"],
    ),
  );
  return problems;
}

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

export const FaqTranslationRecord = z
  .strictObject({
    source: Question.openapi({ description: "The question it translates, exactly as the record's faqs write it." }),
    question: Question,
    answer: Answer,
  })
  .openapi("FaqTranslationRecord");

/** What a record says in one other language: its name there (where it differs) and translations of its FAQs. */
export const TranslationRecord = z
  .strictObject({
    language: LanguageTag.openapi({ type: "string", description: "BCP 47 tag (pt, pt-BR, de-CH…).", example: "pt" }),
    name: Name.optional().openapi({ description: "The entity's name in this language, where it differs." }),
    faqs: z
      .array(FaqTranslationRecord)
      .max(500)
      .optional()
      .openapi({ description: "Translated FAQs; one without a translation is served in the default language." }),
  })
  .openapi("TranslationRecord");

const common = {
  id: EntityId,
  name: Name,
  url: PublicUrl.optional(),
  defaultLanguage: LanguageTag.optional().openapi({
    type: "string",
    description: `BCP 47 tag of the language name and faqs are written in (default ${DEFAULT_CONTENT_LANGUAGE}).`,
    example: "en",
  }),
  updatedAt: z.iso.datetime({ offset: true }).optional().openapi({
    description:
      "When the entity last changed (FAQPage dateModified). Used when the entity is added; a change sets the time of the import.",
  }),
  faqs: z.array(FaqRecord).max(500).default([]).openapi({ description: "The entity's FAQs in order; they replace the stored ones." }),
  translations: z
    .array(TranslationRecord)
    .max(100)
    .optional()
    .openapi({ description: "The entity in other languages, one entry per language; they replace the stored ones." }),
};

export const ContentRecord = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("brand"), ...common }),
    z.strictObject({
      kind: z.literal("property"),
      ...common,
      brandId: EntityId.openapi({ description: "The brand the property belongs to: in the same file or already stored." }),
      propertyId: z
        .number({ error: PROPERTY_ID_RULE })
        .int({ error: PROPERTY_ID_RULE })
        .min(0, { error: PROPERTY_ID_RULE })
        .max(Number.MAX_SAFE_INTEGER, { error: PROPERTY_ID_RULE })
        .nullable()
        .default(null)
        .openapi({
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
    for (const issue of [...duplicateQuestions(record), ...translationProblems(record)]) ctx.addIssue({ code: "custom", ...issue });
  })
  .openapi("ContentRecord");
export type ContentRecord = z.output<typeof ContentRecord>;
export type FaqRecord = z.output<typeof FaqRecord>;
export type TranslationRecord = z.output<typeof TranslationRecord>;

/**
 * What is wrong with a record's translations beside their shape: a language given twice or the record's own, a
 * translation that says nothing, and a translated FAQ whose source question the record does not have (or has
 * twice, so which one it translates cannot be told) or that another translation in its language already covers.
 */
function translationProblems(record: {
  defaultLanguage?: string;
  faqs: FaqRecord[];
  translations?: TranslationRecord[];
}): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const ownLanguage = record.defaultLanguage ?? DEFAULT_CONTENT_LANGUAGE;
  const sources = new Map<string, number[]>();
  record.faqs.forEach((faq, index) => sources.set(faq.question, [...(sources.get(faq.question) ?? []), index]));
  const languages = new Map<string, number>();
  (record.translations ?? []).forEach((translation, t) => {
    const at = ["translations", t];
    const key = translation.language.toLowerCase();
    if (key === ownLanguage.toLowerCase()) {
      problems.push({
        path: [...at, "language"],
        message: `${translation.language} is the record's default language: its name and faqs are in it`,
      });
    } else if (languages.has(key)) {
      problems.push({
        path: [...at, "language"],
        message: `${translation.language} is already translated at translations.${languages.get(key)}`,
      });
    } else languages.set(key, t);
    if (translation.name === undefined && (translation.faqs ?? []).length === 0) {
      problems.push({ path: at, message: "translates nothing: give its name in this language, its faqs, or both" });
    }
    const translated = new Map<string, number>();
    (translation.faqs ?? []).forEach((faq, f) => {
      const path = [...at, "faqs", f, "source"];
      const found = sources.get(faq.source) ?? [];
      if (found.length === 0) {
        problems.push({
          path,
          message: `no question of this record's faqs reads ${JSON.stringify(faq.source)}: a translation needs its source question`,
        });
      } else if (found.length > 1) {
        problems.push({
          path,
          message: `faqs.${found.join(" and faqs.")} both read this question, so which one it translates cannot be told`,
        });
      } else if (translated.has(faq.source)) {
        problems.push({ path, message: `translates the same question as translations.${t}.faqs.${translated.get(faq.source)}` });
      } else translated.set(faq.source, f);
    });
  });
  return problems;
}

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

/** An entity's translations as records: one per language, by tag, with its name there and its translated FAQs in order. */
function translationRecords(entity: EntityRow, faqs: LocalizedFaq[]): TranslationRecord[] {
  const names = JSON.parse(entity.translated_names) as Record<string, string>;
  const languages = [...new Set([...Object.keys(names), ...faqs.flatMap((faq) => faq.translations.map((t) => t.language))])].sort();
  return languages.map((language) => {
    const translated = faqs.flatMap((faq) =>
      faq.translations
        .filter((t) => t.language === language)
        .map((t) => ({ source: faq.question, question: t.question, answer: t.answer })),
    );
    return {
      language,
      ...(names[language] === undefined ? {} : { name: names[language] }),
      ...(translated.length > 0 ? { faqs: translated } : {}),
    };
  });
}

/** An entity and its FAQs as a record, members in the file format's order; what is English and untranslated says nothing of languages. */
export function toRecord(entity: EntityRow, faqs: LocalizedFaq[]): ContentRecord {
  const translations = translationRecords(entity, faqs);
  const head = {
    id: entity.id,
    kind: entity.kind,
    name: entity.name,
    ...(entity.url === null ? {} : { url: entity.url }),
    ...(entity.default_language === DEFAULT_CONTENT_LANGUAGE ? {} : { defaultLanguage: entity.default_language }),
  };
  const rest = {
    updatedAt: entity.updated_at,
    faqs: faqs.map(({ category, question, answer }) => ({ category, question, answer })),
    ...(translations.length > 0 ? { translations } : {}),
  };
  // Spreading `head` first keeps the members in file order; `kind` is restated for the type's sake.
  if (entity.kind === "property") {
    return { ...head, kind: entity.kind, brandId: entity.brand_id ?? "", propertyId: entity.property_id, ...rest };
  }
  return { ...head, kind: entity.kind, ...rest };
}
