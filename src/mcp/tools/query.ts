import { entityFaqs, findScopedEntity, similarScopedNames } from "../../storage/scoped-content";
import { QueryInput, QueryOutput } from "./schemas";
import { containsPattern, ftsAnyOf, words } from "./text";
import { defineTool } from "./tool";

const MAX_SUGGESTIONS = 5;

export const query = defineTool({
  name: "service_query",
  title: "Query an entity's FAQs",
  description:
    "Answers questions about one hotel, brand, destination or airport from its FAQs. " +
    "`entity` must be the full registered name (case-insensitive) or the entity ID; partial names find nothing " +
    "and return up to five similar names to retry with. Give `question` to rank the FAQs by relevance, " +
    "or `category` to keep one category.",
  input: QueryInput,
  output: QueryOutput,
  async run(args, { db, organizationId }) {
    const entity = await findScopedEntity(db, organizationId, args.entity.trim());
    if (!entity) {
      const patterns = words(args.entity).filter((w) => w.length >= 3).slice(0, 5).map(containsPattern);
      return { entity: null, faqs: [], total: 0, suggestions: await similarScopedNames(db, organizationId, patterns, MAX_SUGGESTIONS) };
    }
    const { faqs, total } = await entityFaqs(db, entity.id, {
      match: args.question === undefined ? undefined : (ftsAnyOf(args.question) ?? undefined),
      category: args.category,
      limit: args.limit,
    });
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
  summarize: ({ entity, faqs, suggestions }) => {
    if (!entity) {
      return suggestions && suggestions.length > 0
        ? `No entity with that full registered name or ID in scope. Similar names: ${suggestions.join("; ")}.`
        : "No entity with that full registered name or ID in scope.";
    }
    const head = `${entity.name} (${entity.id}, ${entity.kind})`;
    return faqs.length === 0 ? `${head}: no FAQs.` : `${head}\n\n${faqs.map((f) => `Q: ${f.question}\nA: ${f.answer}`).join("\n\n")}`;
  },
});
