import { NO_RANKING, rankingInput } from "../../search/plan";
import { entityFaqs } from "../../storage/scoped-content";
import { faqResourceLink } from "../resource-uris";
import { assertKnownCategory } from "./categories";
import { entitySummary, referencedEntity } from "./entities";
import { answerLanguages, countIfUnanswered, questionPlan } from "./questions";
import { QueryInput, QueryOutput } from "./schemas";
import { defineTool } from "./tool";

export const query = defineTool({
  name: "service_query",
  title: "Query an entity's FAQs",
  description:
    "Answers a question about one hotel, brand, destination or airport from its FAQs, best first. " +
    "Tell the user which entity answered (entity.name). " +
    "If entity is null, candidates lists the likely ones: ask the user, or call again with an id.",
  input: QueryInput,
  output: QueryOutput,
  searches: (args) => typeof args.question === "string" && args.question.trim() !== "",
  links: ({ entity }) => (entity ? [faqResourceLink(entity)] : []),
  async run(args, ctx) {
    const { entity, candidates } = await referencedEntity(ctx, args.entity);
    if (!entity) {
      return { entity: null, faqs: [], total: 0, suggestions: candidates.map((c) => c.name), candidates: candidates.map(entitySummary) };
    }
    const languages = answerLanguages(args.language, args.question);
    const plan = args.question === undefined ? undefined : await questionPlan(ctx, args.question, args.language);
    const { faqs, total } = await entityFaqs(ctx.db, entity.id, {
      input: plan ? rankingInput(plan, languages) : { ...NO_RANKING, languages },
      category: args.category,
      limit: args.limit,
    });
    if (total === 0) await assertKnownCategory(ctx.db, ctx.organizationId, args.category);
    if (args.question !== undefined) countIfUnanswered(ctx, args.question, "service_query", faqs[0]);
    return {
      entity: {
        ...entitySummary(entity),
        ...(entity.kind === "brand" ? { propertyCount: entity.property_count } : {}),
        matchedBy: entity.matchedBy,
      },
      faqs: faqs.map(({ question, answer, category, language }) => ({ question, answer, category, language })),
      total,
    };
  },
});
