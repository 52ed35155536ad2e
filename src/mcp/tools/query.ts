import { entityFaqs, findScopedEntity, similarScopedNames } from "../../storage/scoped-content";
import { QueryInput, QueryOutput } from "./schemas";
import { ftsPhrases, words } from "./text";
import { assertKnownCategory } from "./categories";
import { defineTool } from "./tool";

const MAX_SUGGESTIONS = 5;

export const query = defineTool({
  name: "service_query",
  title: "Query an entity's FAQs",
  description:
    "Answers questions about one hotel, brand, destination or airport from its FAQs. " +
    "`entity` must be the full registered name or the entity ID (both case-insensitive); partial names find nothing " +
    "and return up to five similar names to retry with. Give `question` to rank the FAQs by relevance, " +
    "or `category` to keep one category.",
  input: QueryInput,
  output: QueryOutput,
  async run(args, { db, organizationId }) {
    const entity = await findScopedEntity(db, organizationId, args.entity.trim());
    if (!entity) {
      const fragments = words(args.entity)
        .filter((w) => w.length >= 3)
        .slice(0, 5);
      return { entity: null, faqs: [], total: 0, suggestions: await similarScopedNames(db, organizationId, fragments, MAX_SUGGESTIONS) };
    }
    const { faqs, total } = await entityFaqs(db, entity.id, {
      phrases: args.question === undefined ? [] : ftsPhrases(args.question),
      category: args.category,
      limit: args.limit,
    });
    if (total === 0) await assertKnownCategory(db, organizationId, args.category);
    return {
      entity: {
        id: entity.id,
        name: entity.name,
        kind: entity.kind,
        ...(entity.brand_id === null ? {} : { brandId: entity.brand_id }),
        ...(entity.kind === "brand" ? { propertyCount: entity.property_count } : {}),
      },
      faqs,
      total,
    };
  },
});
