import { searchScopedFaqs } from "../../storage/scoped-content";
import { SearchInput, SearchOutput } from "./schemas";
import { ftsAnyOf } from "./text";
import { defineTool } from "./tool";

export const searchDocuments = defineTool({
  name: "service_search_documents",
  title: "Search FAQs",
  description:
    "Full-text search over the FAQs of every entity this organization can see, best match first (bm25). " +
    "Use it when you do not know which hotel or place holds the answer. Narrow with entityId (a brand ID includes " +
    "its hotels), kind or category.",
  input: SearchInput,
  output: SearchOutput,
  async run(args, { db, organizationId }) {
    const match = ftsAnyOf(args.query);
    if (match === null) return { results: [] };
    const hits = await searchScopedFaqs(db, organizationId, match, {
      entityId: args.entityId,
      kind: args.kind,
      category: args.category,
      limit: args.limit,
    });
    return {
      results: hits.map((h) => ({
        entityId: h.entity_id,
        entityName: h.entity_name,
        question: h.question,
        answer: h.answer,
        category: h.category,
        score: Math.round(-h.rank * 1000) / 1000,
        snippet: h.snippet,
      })),
    };
  },
  summarize: ({ results }) =>
    results.length === 0
      ? "No FAQ matches."
      : results.map((r) => `${r.entityName} (${r.entityId}): ${r.question}\n${r.answer}`).join("\n\n"),
});
