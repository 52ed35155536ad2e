import { z } from "zod";
import { ENTITY_KINDS } from "../../storage/entities";

/** Input and output schemas of the MCP tools: validation, types and the JSON Schemas of tools/list. */

export const EntityKind = z.enum(ENTITY_KINDS).describe("brand, property (a hotel), destination or airport");
const Category = z.string().min(1).max(100).describe('An FAQ category, e.g. "Parking", "Pets", "Check-in & Check-out" (case-insensitive).');

export const ListEntitiesInput = z.strictObject({
  kind: EntityKind.optional(),
  brandId: z.string().min(1).max(128).optional().describe("Only the properties of this brand, e.g. HO-AUR (case-insensitive)."),
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

export const ListEntitiesOutput = z.object({
  entities: z.array(EntitySummary),
  nextCursor: z.string().optional(),
});

export const QueryInput = z.strictObject({
  entity: z.string().min(1).max(200).describe("The entity's full registered name or its ID, e.g. HO-AUR-0001 (both case-insensitive)."),
  question: z.string().min(1).max(500).optional().describe("A question to rank the entity's FAQs by relevance."),
  category: Category.optional(),
  limit: z.number().int().min(1).max(50).default(20).describe("Maximum FAQs, 1-50 (default 20)."),
});

export const Faq = z.object({ question: z.string(), answer: z.string(), category: z.string() });

export const QueryOutput = z.object({
  entity: z
    .object({
      id: z.string(),
      name: z.string(),
      kind: EntityKind,
      brandId: z.string().optional(),
      propertyCount: z.number().int().optional(),
    })
    .nullable(),
  faqs: z.array(Faq),
  total: z.number().int(),
  suggestions: z.array(z.string()).optional(),
});

export const SearchInput = z.strictObject({
  query: z.string().min(1).max(500).describe("Words to search for in FAQ questions and answers."),
  entityId: z.string().min(1).max(128).optional().describe("Only this entity (case-insensitive); a brand ID includes its properties."),
  kind: EntityKind.optional(),
  category: Category.optional(),
  limit: z.number().int().min(1).max(50).default(10).describe("Maximum results, 1-50 (default 10)."),
});

export const SearchOutput = z.object({
  results: z.array(
    Faq.extend({
      entityId: z.string(),
      entityName: z.string(),
      rank: z.number().int().min(1).describe("Position in the ranking, 1 for the best match."),
      snippet: z.string().describe("The best matching passage, matches in **bold**."),
    }),
  ),
});
