import { entityPages } from "./documents";
import { answerInEntity, answerInScope } from "../../search/answers";
import { languageOf } from "../../search/languages";
import { plannedTokens } from "../../search/plan";
import { faqSnippet } from "../../search/snippet";
import { faqResourceLink } from "../resource-uris";
import { assertKnownCategory } from "./categories";
import { entitySummary, filterEntity } from "./entities";
import { answerLanguages, askedLanguage, CONFIDENCE_WORDS, countIfUnanswered, questionPlan } from "./questions";
import { SearchInput, SearchOutput } from "./schemas";
import { defineTool } from "./tool";

export const searchDocuments = defineTool({
  name: "service_search_documents",
  title: "Search FAQs",
  description:
    "Searches the FAQs of everything in scope for a guest's question, best first, with service_query's confidence. " +
    "Use it when the hotel is not known, or to compare; narrow with entityId, kind or category.",
  input: SearchInput,
  searches: () => true,
  output: SearchOutput,
  links: ({ results }) =>
    [...new Map(results.map((r) => [r.entityId, { id: r.entityId, name: r.entityName }])).values()].map(faqResourceLink),
  card: async ({ results }, ctx) => ({
    pages: await entityPages(
      ctx,
      results.map((r) => r.entityId),
    ),
  }),
  says: ({ confidence, candidates }) =>
    candidates ? "entityId names no single entity in this organization's content; see candidates." : CONFIDENCE_WORDS[confidence],
  async run(args, ctx) {
    const narrowed = args.entityId === undefined ? undefined : await filterEntity(ctx, args.entityId);
    if (narrowed && narrowed.id === null)
      return { confidence: "none" as const, candidates: narrowed.candidates.map(entitySummary), results: [] };
    const entity = narrowed?.entity ? { ...entitySummary(narrowed.entity), matchedBy: narrowed.entity.matchedBy } : undefined;
    const plan = await questionPlan(ctx, args.query, args.language);
    const languages = answerLanguages(args.language, args.query);
    // One hotel or place is ranked among its own FAQs; a brand with its hotels, or the whole scope, among the best candidates.
    const { found, confidence } =
      narrowed?.entity && narrowed.entity.kind !== "brand" && args.kind === undefined
        ? await answerInEntity(ctx.db, plan, narrowed.entity, { languages, category: args.category, question: args.query })
        : await answerInScope(ctx.db, plan, ctx.organizationId, {
            languages,
            entityId: narrowed?.id ?? undefined,
            kind: args.kind,
            category: args.category,
            question: args.query,
          });
    if (found.length === 0) await assertKnownCategory(ctx.db, ctx.organizationId, args.category);
    countIfUnanswered(ctx, args.query, "service_search_documents", confidence, {
      entityId: narrowed?.entity?.id ?? null,
      language: askedLanguage(args.language, args.query),
    });
    const marked = plannedTokens(plan);
    return {
      confidence,
      ...(entity ? { entity } : {}),
      results: found.slice(0, args.limit).map((h, index) => ({
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
