import { z } from "@hono/zod-openapi";
import { ENTITY_ID_PATTERN, ID_PREFIX, type EntityKind, type EntityRow } from "../storage/entities";
import type { LocalizedFaq } from "../storage/faqs";
import { DEFAULT_CONTENT_LANGUAGE, LanguageTag } from "../http/language-tags";
import { phrasingKey } from "../search/normalize";

/**
 * The content file format of import and export: one record per entity, its FAQs nested in their
 * order. NDJSON holds one record per line, JSON an array of records. Export writes the members in
 * the order declared here, so exporting what was imported gives the same bytes.
 */

export const EntityId = z
  .string()
  .regex(ENTITY_ID_PATTERN, "must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit");

const PROPERTY_ID_RULE = "must be the partner's property number (0 or more, without decimals), or empty (null)";
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
/** FAQs an entity holds, in its default language or any other. */
export const MAX_FAQS = 500;
/** Other languages an entity is translated into. */
export const MAX_LANGUAGES = 100;
const Question = faqText(MAX_QUESTION_LENGTH);
const Answer = faqText(MAX_ANSWER_LENGTH);
/** Ways guests ask one FAQ, at most; each as long as a guest's question may be (service_query's bound). */
export const MAX_PHRASINGS = 50;
export const MAX_PHRASING_LENGTH = 500;
export const Phrasing = faqText(MAX_PHRASING_LENGTH).refine((text) => phrasingKey(text) !== "", "has no words");

export const FaqRecord = z
  .strictObject({
    category: faqText(MAX_CATEGORY_LENGTH),
    question: Question,
    answer: Answer,
    phrasings: z
      .array(Phrasing)
      .max(MAX_PHRASINGS)
      .optional()
      .openapi({
        description: `Ways guests ask it, as they wrote them, in any language (at most ${MAX_PHRASINGS}): the search finds the FAQ by them, and a question that is one of them (case, accents and punctuation aside) gets it with confidence high.`,
        example: ["can i bring my dog", "posso levar o meu cão"],
      }),
  })
  .openapi("FaqRecord");

/** A question as it is compared for duplicates: case and spacing aside. */
export const questionKey = (question: string): string => question.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();

/**
 * Questions asked twice in one language of a record, case and spacing aside: a guest would get two answers to
 * one question, and a translation could not tell which it translates.
 */
function duplicateQuestions(record: LooseRecord): Problem[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const check = (questions: (string | undefined)[], at: (string | number)[]) => {
    const seen = new Map<string, number>();
    questions.forEach((question, index) => {
      if (question === undefined) return;
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
  // A way of asking belongs to one FAQ of the record: the search gives it that FAQ.
  const phrased = new Map<string, string>();
  record.faqs.forEach((faq, f) =>
    faq.phrasings.forEach((phrasing, p) => {
      if (phrasing === undefined) return;
      const key = phrasingKey(phrasing);
      const first = phrased.get(key);
      if (first === undefined) phrased.set(key, `faqs.${f}.phrasings.${p}`);
      else
        problems.push({
          path: ["faqs", f, "phrasings", p],
          message: `is the same way of asking as ${first} (case, accents and punctuation aside)`,
        });
    }),
  );
  record.translations.forEach((translation, t) =>
    check(
      translation.faqs.map((faq) => faq.question),
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

/** One FAQ's question and answer in another language, as the console and the operator API edit it. */
export const TranslatedFaq = z
  .strictObject({
    language: LanguageTag.openapi({ type: "string", description: "BCP 47 tag (pt, pt-BR, de-CH…).", example: "pt" }),
    question: Question,
    answer: Answer,
  })
  .openapi("TranslatedFaq");

/** What a record says in one other language: its name there (where it differs) and translations of its FAQs. */
export const TranslationRecord = z
  .strictObject({
    language: LanguageTag.openapi({ type: "string", description: "BCP 47 tag (pt, pt-BR, de-CH…).", example: "pt" }),
    name: Name.optional().openapi({ description: "The entity's name in this language, where it differs." }),
    faqs: z
      .array(FaqTranslationRecord)
      .max(MAX_FAQS)
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
  faqs: z.array(FaqRecord).max(MAX_FAQS).default([]).openapi({ description: "The entity's FAQs in order; they replace the stored ones." }),
  translations: z
    .array(TranslationRecord)
    .max(MAX_LANGUAGES)
    .optional()
    .openapi({ description: "The entity in other languages, one entry per language; they replace the stored ones." }),
};

const PropertyNumber = z
  .number({ error: PROPERTY_ID_RULE })
  .int({ error: PROPERTY_ID_RULE })
  .min(0, { error: PROPERTY_ID_RULE })
  .max(Number.MAX_SAFE_INTEGER, { error: PROPERTY_ID_RULE });

export const ContentRecord = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("brand"), ...common }),
    z.strictObject({
      kind: z.literal("property"),
      ...common,
      brandId: EntityId.openapi({ description: "The brand the property belongs to: in the same file or already stored." }),
      propertyId: PropertyNumber.nullable().default(null).openapi({
        description: "The partner's external property ID, or null.",
      }),
    }),
    z.strictObject({ kind: z.literal("destination"), ...common }),
    z.strictObject({ kind: z.literal("airport"), ...common }),
  ])
  .superRefine((record, ctx) => {
    for (const issue of crossProblems(record)) ctx.addIssue({ code: "custom", params: { across: true }, ...issue });
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
function translationProblems(record: LooseRecord): Problem[] {
  const problems: Problem[] = [];
  const ownLanguage = record.defaultLanguage ?? DEFAULT_CONTENT_LANGUAGE;
  const sources = new Map<string, number[]>();
  record.faqs.forEach(({ question }, index) => {
    if (question === undefined) return;
    const found = sources.get(question);
    if (found) found.push(index);
    else sources.set(question, [index]);
  });
  const languages = new Map<string, number>();
  record.translations.forEach((translation, t) => {
    const at = ["translations", t];
    const key = translation.language?.toLowerCase();
    if (key === undefined) {
      // Its shape's problem is reported where the field is checked.
    } else if (key === ownLanguage.toLowerCase()) {
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
    if (translation.empty) {
      problems.push({ path: at, message: "translates nothing: give its name in this language, its faqs, or both" });
    }
    const translated = new Map<string, number>();
    translation.faqs.forEach((faq, f) => {
      if (faq.source === undefined) return;
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

type Problem = { path: (string | number)[]; message: string };

/**
 * What the checks across fields need of a record, read from any value, valid or not: the fields that are not of
 * their type are left out (their own problems are reported where the shape is checked), so one run of a file
 * reports every problem of every record, a bad `kind` or answer beside a translation's missing source.
 */
interface LooseRecord {
  kind?: EntityKind;
  id?: string;
  brandId?: string;
  defaultLanguage?: string;
  faqs: { question?: string; phrasings: (string | undefined)[] }[];
  translations: { language?: string; empty: boolean; faqs: { source?: string; question?: string }[] }[];
}

const textOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
const isFields = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const fieldsOf = (value: unknown): Record<string, unknown> => (isFields(value) ? value : {});
const isKind = (value: unknown): value is EntityKind => typeof value === "string" && Object.hasOwn(ID_PREFIX, value);

function looseRecord(value: unknown): LooseRecord {
  const record = fieldsOf(value);
  return {
    ...(isKind(record.kind) ? { kind: record.kind } : {}),
    id: textOf(record.id),
    brandId: textOf(record.brandId),
    defaultLanguage: textOf(record.defaultLanguage),
    faqs: listOf(record.faqs).map((faq) => ({
      question: textOf(fieldsOf(faq).question),
      phrasings: listOf(fieldsOf(faq).phrasings).slice(0, MAX_PHRASINGS).map(textOf),
    })),
    translations: listOf(record.translations).map((item) => {
      const translation = fieldsOf(item);
      const faqs = listOf(translation.faqs).map((faq) => ({
        source: textOf(fieldsOf(faq).source),
        question: textOf(fieldsOf(faq).question),
      }));
      const empty = isFields(item) && translation.name === undefined && (translation.faqs === undefined || faqs.length === 0);
      return { language: textOf(translation.language), empty, faqs };
    }),
  };
}

/** The problems across fields of a record, valid or not: ID prefixes, questions asked twice, translations that do not fit. */
function crossProblems(value: unknown): Problem[] {
  const record = looseRecord(value);
  const problems: Problem[] = [];
  if (record.kind !== undefined) {
    const prefix = ID_PREFIX[record.kind];
    const wrong = (id: string | undefined) => id !== undefined && ENTITY_ID_PATTERN.test(id) && !id.startsWith(prefix);
    if (wrong(record.id)) problems.push({ path: ["id"], message: `a ${record.kind} ID starts with ${prefix}` });
    if (record.kind === "property" && wrong(record.brandId))
      problems.push({ path: ["brandId"], message: `a brand ID starts with ${prefix}` });
  }
  return [...problems, ...duplicateQuestions(record), ...translationProblems(record)];
}

const KIND_RULE = "must be brand, property, destination or airport";
/** A record whose kind is not known yet: every field any kind has is checked, so its other problems are reported too. */
const AnyKind = z.strictObject({
  ...common,
  kind: z.unknown(),
  brandId: EntityId.optional(),
  propertyId: PropertyNumber.nullable().optional(),
});

const TYPE_WORDS: Record<string, string> = {
  string: "must be text",
  number: "must be a number",
  int: "must be a number",
  boolean: "must be true or false",
  array: "must be a list",
  object: "must be a record with named fields",
};

const count = (n: unknown) => Number(n).toLocaleString("en");

/** Zod's messages in the plain words of a content file, read by hotel staff as well as operators. */
const plainWords = (issue: z.core.$ZodRawIssue): string | undefined => {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "is missing" : TYPE_WORDS[issue.expected];
    case "too_small":
      return issue.origin === "string" ? "is empty" : issue.origin === "array" ? `needs at least ${count(issue.minimum)}` : undefined;
    case "too_big":
      return issue.origin === "string"
        ? `is longer than ${count(issue.maximum)} characters`
        : issue.origin === "array"
          ? `has more than ${count(issue.maximum)} entries`
          : undefined;
    case "invalid_format":
      return issue.format === "datetime" ? "must be a date and time such as 2026-11-01T10:00:00Z" : undefined;
    case "invalid_union":
      return issue.path?.at(-1) === "kind" || issue.note === "No matching discriminator" ? KIND_RULE : undefined;
    default:
      return undefined;
  }
};

/** A field's path as a file's problem names it. */
const fieldName = (path: readonly PropertyKey[]): string => path.map(String).join(".") || "(record)";

/** The issues of a parse as problems: a field that is not one of the record's is named itself. */
// The checks across fields are left out: parseRecord runs them on the row as it is, valid or not.
const problemsOf = (issues: readonly z.core.$ZodIssue[]): Problem[] =>
  issues.flatMap((issue): Problem[] =>
    issue.code === "custom" && issue.params?.across === true
      ? []
      : issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => ({
            path: [...(issue.path as (string | number)[]), key],
            message: "is not a field of a content record (check its spelling)",
          }))
        : [{ path: issue.path as (string | number)[], message: issue.message }],
  );

/** A problem with one row of a file: its line (NDJSON) or position (JSON array), the field, and what is wrong. */
export const RowError = z
  .object({
    line: z.number().int().openapi({ description: "Line of the NDJSON file, or 1-based position in the JSON array." }),
    field: z.string().openapi({ example: "faqs.2.answer" }),
    message: z.string(),
  })
  .openapi("RowError");
export type RowError = z.infer<typeof RowError>;

/** A list longer than an entity may hold, as a problem of its own. */
const tooLong = (line: number, field: string, what: string, max: number): RowError => ({
  line,
  field,
  message: `has more than ${count(max)} ${what}: an entity holds at most ${count(max)}`,
});

/**
 * The lists of a row longer than an entity may hold, found from their lengths alone: a row that has any is not
 * validated further, so its size, not its repetitions, bounds what checking it costs.
 */
function oversizedLists(line: number, value: unknown): RowError[] {
  const record = fieldsOf(value);
  const problems: RowError[] = [];
  if (listOf(record.faqs).length > MAX_FAQS) problems.push(tooLong(line, "faqs", "FAQs", MAX_FAQS));
  const translations = listOf(record.translations);
  if (translations.length > MAX_LANGUAGES) problems.push(tooLong(line, "translations", "languages", MAX_LANGUAGES));
  translations.slice(0, MAX_LANGUAGES).forEach((translation, t) => {
    if (listOf(fieldsOf(translation).faqs).length > MAX_FAQS)
      problems.push(tooLong(line, `translations.${t}.faqs`, "translated FAQs", MAX_FAQS));
  });
  return problems;
}

/** Validates one row; the errors name the field of each problem. */
// Every problem of the row at once: the shape of every field (of any kind's fields when `kind` itself is wrong)
// and the checks across fields, whatever else is wrong, so a file is fixed in one go rather than one problem a run.
export function parseRecord(line: number, value: unknown): { record: ContentRecord } | { errors: RowError[] } {
  const oversized = oversizedLists(line, value);
  if (oversized.length > 0) return { errors: oversized };
  const parsed = ContentRecord.safeParse(value, { error: plainWords });
  if (parsed.success) return { record: parsed.data };
  const kind = fieldsOf(value).kind;
  const problems =
    isFields(value) && !isKind(kind)
      ? [
          { path: ["kind"], message: kind === undefined ? `is missing: it ${KIND_RULE}` : KIND_RULE },
          ...problemsOf(AnyKind.safeParse(value, { error: plainWords }).error?.issues ?? []),
        ]
      : problemsOf(parsed.error.issues);
  const seen = new Set<string>();
  const errors: RowError[] = [];
  for (const { path, message } of [...problems, ...crossProblems(value)]) {
    const field = fieldName(path);
    if (seen.has(`${field}\n${message}`)) continue;
    seen.add(`${field}\n${message}`);
    errors.push({ line, field, message });
  }
  return { errors };
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
    faqs: faqs.map(({ category, question, answer, phrasings }) => ({
      category,
      question,
      answer,
      ...(phrasings.length > 0 ? { phrasings } : {}),
    })),
    ...(translations.length > 0 ? { translations } : {}),
  };
  // Spreading `head` first keeps the members in file order; `kind` is restated for the type's sake.
  if (entity.kind === "property") {
    return { ...head, kind: entity.kind, brandId: entity.brand_id ?? "", propertyId: entity.property_id, ...rest };
  }
  return { ...head, kind: entity.kind, ...rest };
}
