import { z } from "zod";
import { LanguageTag } from "../../http/language-tags";
import { CONFIDENCES } from "../../search/confidence";
import { MAX_QUESTION_LENGTH } from "../../search/entity-question";
import { MAX_REFERENCE_LENGTH } from "../../search/resolve";
import { ENTITY_KINDS } from "../../storage/entities";

/** Input and output schemas of the MCP tools: validation, types and the JSON Schemas of tools/list. */

export const EntityKind = z.enum(ENTITY_KINDS).describe("property is a hotel");
const Category = z.string().min(1).max(100).describe("FAQ category, e.g. Parking (any case).");
const Language = LanguageTag.describe("Guest's language, BCP 47 (pt-BR)");

export const ListEntitiesInput = z.strictObject({
  kind: EntityKind.optional(),
  brandId: z.string().min(1).max(200).optional().describe("A brand's ID or name: only its hotels."),
  nameContains: z.string().min(1).max(200).optional().describe("Part of the name, any case."),
  cursor: z.string().min(1).max(200).optional().describe("nextCursor from the previous page."),
  limit: z.number().int().min(1).max(200).default(50),
});

export const EntitySummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: EntityKind,
  brandId: z.string().optional(),
  propertyId: z.number().int().nullable().optional(),
});

/** An entity a reference may mean, when none was picked. */
export const Candidate = EntitySummary.omit({ propertyId: true });

export const ListEntitiesOutput = z.object({
  entities: z.array(EntitySummary),
  nextCursor: z.string().optional(),
  candidates: z.array(Candidate).optional().describe("When brandId names no single brand: the brands it may mean, most likely first."),
});

export const QueryInput = z.strictObject({
  entity: z
    .string()
    .min(1)
    .max(MAX_REFERENCE_LENGTH)
    .describe('Its ID (HO-AUR-0001) or name as written ("the Aurora in Lyon"); case, accents and typos aside.'),
  question: z.string().min(1).max(MAX_QUESTION_LENGTH).optional().describe("The guest's question, in their words, to rank the FAQs by."),
  category: Category.optional(),
  language: Language.optional(),
  limit: z.number().int().min(1).max(50).default(20),
});

/** The language an answer is in: the one asked for, or its entity's default when it has no translation there. */
const AnsweredIn = { language: z.string() };

export const Faq = z.object({ question: z.string(), answer: z.string(), category: z.string(), ...AnsweredIn });

const MatchedBy = z
  .enum(["id", "name", "fuzzy"])
  .describe("How the entity was found: by its ID, its registered name, or a name as written (tell the user which entity you used).");

const Candidates = z
  .array(Candidate)
  .describe("When no single entity fits: the ones the reference may mean, most likely first. Ask the user, or call again with an id.");

/** How sure the service is that its first FAQ answers the question (src/search/confidence.ts). */
export const Confidence = z
  .enum(CONFIDENCES)
  .describe(
    "high: the first FAQ answers the question. low: related FAQs, none clearly answers. none: nothing in the content answers; never present a listed FAQ as the answer.",
  );

export const QueryOutput = z.object({
  confidence: Confidence,
  entity: z
    .object({
      id: z.string(),
      name: z.string().describe("The registered name."),
      kind: EntityKind,
      brandId: z.string().optional(),
      propertyCount: z.number().int().optional(),
      matchedBy: MatchedBy,
    })
    .nullable(),
  faqs: z.array(Faq),
  total: z.number().int(),
  suggestions: z.array(z.string()).optional().describe("The candidates' names (kept for clients that read only names)."),
  candidates: Candidates.optional(),
});

export const SearchInput = z.strictObject({
  query: z.string().min(1).max(500).describe("The guest's question, in their words."),
  entityId: z.string().min(1).max(200).optional().describe("Only this entity: its ID or name as written; a brand includes its hotels."),
  kind: EntityKind.optional(),
  category: Category.optional(),
  language: Language.optional(),
  limit: z.number().int().min(1).max(50).default(10),
});

export const SearchOutput = z.object({
  confidence: Confidence,
  entity: QueryOutput.shape.entity
    .unwrap()
    .omit({ propertyCount: true })
    .optional()
    .describe("The entity entityId named, when it was given and found."),
  candidates: Candidates.optional(),
  results: z.array(
    Faq.extend({
      entityId: z.string(),
      entityName: z.string(),
      rank: z.number().int().min(1).describe("Position in the ranking, 1 for the best match."),
      snippet: z.string().describe("The best matching passage, matches in **bold**."),
    }),
  ),
});

/**
 * `search` and `fetch` at /v1/chatgpt, in the shape OpenAI's MCP documentation fixes for ChatGPT's data-only
 * servers: search returns `{results: [{id, title, url}]}`, fetch one document `{id, title, text, url, metadata}`.
 */
export const DocumentSearchInput = z.strictObject({
  query: z.string().min(1).max(500).describe("The traveller's question in their own words; name the hotel or city when known."),
  language: Language.optional(),
});

const DocumentId = z.string().describe("An id that search returned: the entity's ID and the question, as in HO-AUR-0001/is-there-parking.");
const DocumentUrl = z.string().url().describe("Where to cite it: the entity's own page, else its FAQ feed at this question.");

export const DocumentSearchOutput = z.object({
  results: z.array(z.object({ id: DocumentId, title: z.string(), url: DocumentUrl })),
});

export const DocumentFetchInput = z.strictObject({ id: DocumentId.min(1).max(300), language: Language.optional() });

export const DocumentFetchOutput = z.object({
  id: DocumentId,
  title: z.string(),
  text: z.string().describe("The question and its answer."),
  url: DocumentUrl,
  metadata: z.object({
    entityId: z.string(),
    entityName: z.string(),
    entityKind: EntityKind,
    brandId: z.string().optional(),
    category: z.string(),
    ...AnsweredIn,
  }),
});
