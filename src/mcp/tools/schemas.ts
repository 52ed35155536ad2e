import { z } from "zod";
import { ENTITY_KINDS } from "../../storage/entities";

/** Input and output schemas of the MCP tools: validation, types and the JSON Schemas of tools/list. */

export const EntityKind = z.enum(ENTITY_KINDS).describe("brand, property (a hotel), destination or airport");
const Category = z.string().min(1).max(100).describe('An FAQ category, e.g. "Parking", "Pets", "Check-in & Check-out" (case-insensitive).');

export const ListEntitiesInput = z.strictObject({
  kind: EntityKind.optional(),
  brandId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only the properties of this brand: its ID (e.g. HO-AUR) or its name as people write it ("Aurora Hotels").'),
  nameContains: z.string().min(1).max(200).optional().describe("Case-insensitive substring of the entity name."),
  cursor: z.string().min(1).max(200).optional().describe("nextCursor from the previous page."),
  limit: z.number().int().min(1).max(200).default(50).describe("Page size, 1-200 (default 50)."),
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
    .max(200)
    .describe(
      'The hotel, brand, destination or airport: its ID (e.g. HO-AUR-0001) or its name as people write it ("Lisbon Riverside", "the Aurora in Lyon"); case, accents, small typos and words such as "hotel" do not matter.',
    ),
  question: z.string().min(1).max(500).optional().describe("A question to rank the entity's FAQs by relevance."),
  category: Category.optional(),
  limit: z.number().int().min(1).max(50).default(20).describe("Maximum FAQs, 1-50 (default 20)."),
});

export const Faq = z.object({ question: z.string(), answer: z.string(), category: z.string() });

const MatchedBy = z
  .enum(["id", "name", "fuzzy"])
  .describe("How the entity was found: by its ID, its registered name, or a name as written (tell the user which entity you used).");

const Candidates = z
  .array(Candidate)
  .describe("When no single entity fits: the ones the reference may mean, most likely first. Ask the user, or call again with an id.");

export const QueryOutput = z.object({
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
  query: z.string().min(1).max(500).describe("Words to search for in FAQ questions and answers."),
  entityId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Only this entity: its ID or its name as people write it; a brand includes its hotels."),
  kind: EntityKind.optional(),
  category: Category.optional(),
  limit: z.number().int().min(1).max(50).default(10).describe("Maximum results, 1-50 (default 10)."),
});

export const SearchOutput = z.object({
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
