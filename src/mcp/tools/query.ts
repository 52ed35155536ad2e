import { entityPages } from "./documents";
import { askEntity } from "../../search/entity-question";
import { entityFaqs } from "../../storage/scoped-content";
import { faqResourceLink } from "../resource-uris";
import { assertKnownCategory } from "./categories";
import { entitySummary, referencedEntity } from "./entities";
import { answerLanguages, askedLanguage, CONFIDENCE_WORDS, countIfUnanswered } from "./questions";
import { QueryInput, QueryOutput } from "./schemas";
import { defineTool } from "./tool";

const faqOf = ({ question, answer, category, language }: { question: string; answer: string; category: string; language: string }) => ({
  question,
  answer,
  category,
  language,
});

export const query = defineTool({
  name: "service_query",
  title: "Query an entity's FAQs",
  description:
    "Answers a guest's question about one hotel, brand, destination or airport from its FAQs, best first. confidence: " +
    "high, answer from the first FAQ; low, related only; none, not in the content: say so. Name the entity used; if null, ask which candidate.",
  input: QueryInput,
  output: QueryOutput,
  searches: (args) => typeof args.question === "string" && args.question.trim() !== "",
  links: ({ entity }) => (entity ? [faqResourceLink(entity)] : []),
  card: async ({ entity }, ctx) => ({ pages: entity ? await entityPages(ctx, [entity.id]) : {} }),
  says: ({ entity, confidence }, { question }) => {
    if (entity === null)
      return "No entity in this organization's content matches that reference; see candidates, or call again with an id.";
    if (question === undefined)
      return "No question was given: these are the entity's FAQs in their order, for browsing (confidence: none).";
    return CONFIDENCE_WORDS[confidence];
  },
  async run(args, ctx) {
    const { entity, candidates } = await referencedEntity(ctx, args.entity);
    if (!entity) {
      return {
        confidence: "none" as const,
        entity: null,
        faqs: [],
        total: 0,
        suggestions: candidates.map((c) => c.name),
        candidates: candidates.map(entitySummary),
      };
    }
    const summary = {
      ...entitySummary(entity),
      ...(entity.kind === "brand" ? { propertyCount: entity.property_count } : {}),
      matchedBy: entity.matchedBy,
    };
    if (args.question === undefined) {
      // Without a question nothing is answered: the FAQs are listed in their order, for browsing.
      const languages = answerLanguages(args.language);
      const { faqs, total } = await entityFaqs(ctx.db, entity.id, { languages, category: args.category, limit: args.limit });
      if (total === 0) await assertKnownCategory(ctx.db, ctx.organizationId, args.category);
      return { confidence: "none" as const, entity: summary, faqs: faqs.map(faqOf), total };
    }
    const { question, language, category } = args;
    const { listed, confidence } = await askEntity(ctx.db, ctx.waitUntil, entity, { question, language, category });
    if (listed.length === 0) await assertKnownCategory(ctx.db, ctx.organizationId, args.category);
    countIfUnanswered(ctx, args.question, "service_query", confidence, {
      entityId: entity.id,
      language: askedLanguage(args.language, args.question),
    });
    return { confidence, entity: summary, faqs: listed.slice(0, args.limit).map(faqOf), total: listed.length };
  },
});
