import { languageOf } from "../../search/languages";
import { plannedTokens, rankingInput } from "../../search/plan";
import { faqSnippet } from "../../search/snippet";
import { searchScopedFaqs } from "../../storage/scoped-content";
import { faqResourceLink } from "../resource-uris";
import { assertKnownCategory } from "./categories";
import { entitySummary, filterEntity } from "./entities";
import { answerLanguages, countIfUnanswered, questionPlan } from "./questions";
import { SearchInput, SearchOutput } from "./schemas";
import { defineTool } from "./tool";

export const searchDocuments = defineTool({
  name: "service_search_documents",
  title: "Search FAQs",
  description:
    "Searches the FAQs of every hotel, brand, destination and airport in scope for a guest's question, best first. " +
    "Use it when the hotel is not known, or to compare; narrow with entityId, kind or category.",
  input: SearchInput,
  searches: () => true,
  output: SearchOutput,
  links: ({ results }) =>
    [...new Map(results.map((r) => [r.entityId, { id: r.entityId, name: r.entityName }])).values()].map(faqResourceLink),
  async run(args, ctx) {
    const narrowed = args.entityId === undefined ? undefined : await filterEntity(ctx, args.entityId);
    if (narrowed && narrowed.id === null) return { candidates: narrowed.candidates.map(entitySummary), results: [] };
    const entity = narrowed?.entity ? { ...entitySummary(narrowed.entity), matchedBy: narrowed.entity.matchedBy } : undefined;
    const plan = await questionPlan(ctx, args.query, args.language);
    if (plan.terms.length === 0) return { ...(entity ? { entity } : {}), results: [] };
    const languages = answerLanguages(args.language, args.query);
    const hits = await searchScopedFaqs(ctx.db, ctx.organizationId, rankingInput(plan, languages), {
      entityId: narrowed?.id ?? undefined,
      kind: args.kind,
      category: args.category,
      limit: args.limit,
    });
    if (hits.length === 0) await assertKnownCategory(ctx.db, ctx.organizationId, args.category);
    countIfUnanswered(ctx, args.query, "service_search_documents", hits[0]);
    const marked = plannedTokens(plan);
    return {
      ...(entity ? { entity } : {}),
      results: hits.map((h, index) => ({
        entityId: h.entity_id,
        entityName: h.entity_name,
        question: h.question,
        answer: h.answer,
        category: h.category,
        language: h.language,
        rank: index + 1,
        snippet: faqSnippet(h, marked, languageOf(h.language)),
      })),
    };
  },
});
