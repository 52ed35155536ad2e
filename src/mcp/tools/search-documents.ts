import { searchScopedFaqs } from "../../storage/scoped-content";
import { SearchInput, SearchOutput } from "./schemas";
import { ftsPhrases } from "./text";
import { assertKnownCategory } from "./categories";
import { defineTool } from "./tool";

export const searchDocuments = defineTool({
  name: "service_search_documents",
  title: "Search FAQs",
  description:
    "Full-text search over the FAQs of every entity this organization can see, best match first (rank 1). " +
    "Use it when you do not know which hotel or place holds the answer. Narrow with entityId (a brand ID includes " +
    "its hotels), kind or category.",
  input: SearchInput,
  output: SearchOutput,
  async run(args, { db, organizationId }) {
    const phrases = ftsPhrases(args.query);
    if (phrases.length === 0) return { results: [] };
    const hits = await searchScopedFaqs(db, organizationId, phrases, {
      entityId: args.entityId,
      kind: args.kind,
      category: args.category,
      limit: args.limit,
    });
    if (hits.length === 0) await assertKnownCategory(db, organizationId, args.category);
    return {
      results: hits.map((h, index) => ({
        entityId: h.entity_id,
        entityName: h.entity_name,
        question: h.question,
        answer: h.answer,
        category: h.category,
        rank: index + 1,
        snippet: h.snippet,
      })),
    };
  },
});
