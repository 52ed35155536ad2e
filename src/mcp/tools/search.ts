import { answerInEntity, answerInScope, type FoundFaq } from "../../search/answers";
import { candidateFilter, entityNamedIn } from "../../search/resolve";
import { entityFaqs, nameCandidates, type EntityCandidate } from "../../storage/scoped-content";
import { documentId, documentTitle, documentUrl } from "./documents";
import { answerLanguages, askedLanguage, countIfUnanswered, questionPlan } from "./questions";
import { DocumentSearchInput, DocumentSearchOutput } from "./schemas";
import { defineTool, type ToolContext } from "./tool";

/** How many documents one search returns. */
const SEARCH_RESULTS = 10;

/** The in-scope entity the query names, if it names exactly one, and the question without its name. */
async function namedEntity(ctx: ToolContext, query: string): Promise<{ entity: EntityCandidate; question: string } | null> {
  const candidates = await nameCandidates(ctx.db, ctx.organizationId, { ...candidateFilter(query), only: null, limit: 500 });
  const byId = new Map(candidates.map((e) => [e.id, e]));
  const named = entityNamedIn(
    query,
    candidates.map((e) => ({ id: e.id, name: e.name, kind: e.kind, brandName: e.brand_name })),
  );
  return named && { entity: byId.get(named.entity.id)!, question: named.question };
}

/**
 * ChatGPT sends one query, often naming the hotel: then the rest of it is searched in that hotel's FAQs
 * only (its name would otherwise match every FAQ that repeats it), and a query that is nothing but the
 * name gets the hotel's first FAQs. Otherwise the whole scope is searched. Nothing is returned when nothing
 * in the content answers the question, so ChatGPT says so rather than cite an FAQ about something else.
 */
async function searchHits(ctx: ToolContext, query: string, language: string | undefined): Promise<FoundFaq[]> {
  const named = await namedEntity(ctx, query);
  const question = named?.question ?? query;
  const plan = await questionPlan(ctx, question, language);
  const languages = answerLanguages(language, question);
  if (plan.groups.length === 0) {
    if (!named) return [];
    const { faqs } = await entityFaqs(ctx.db, named.entity.id, { languages, limit: SEARCH_RESULTS });
    return faqs.map((faq) => ({
      ...faq,
      entity_id: named.entity.id,
      entity_name: named.entity.name,
      entity_url: named.entity.url,
      score: 0,
    }));
  }
  const { found, confidence } =
    named && named.entity.kind !== "brand"
      ? await answerInEntity(ctx.db, plan, named.entity, { languages, question })
      : await answerInScope(ctx.db, plan, ctx.organizationId, { languages, entityId: named?.entity.id, question });
  countIfUnanswered(ctx, query, "search", confidence, {
    entityId: named?.entity.id ?? null,
    language: askedLanguage(language, question),
  });
  return found.slice(0, SEARCH_RESULTS);
}

export const search = defineTool({
  name: "search",
  title: "Search hotel FAQs",
  description:
    "Searches the FAQs of the hotels, brands, destinations and airports this organization can see, for a traveller's question " +
    "in their own words (any of English, Portuguese, Spanish, French, German, Italian, Dutch), best first; a query that names a hotel " +
    "searches that hotel's FAQs. Each result is one FAQ; call fetch with its id for the answer, and cite its url. " +
    "No results means the content does not answer the question: say so rather than guess.",
  input: DocumentSearchInput,
  searches: () => true,
  output: DocumentSearchOutput,
  // Each result carries its own URL: the card needs nothing more.
  card: () => Promise.resolve({}),
  async run({ query, language }, ctx) {
    const hits = await searchHits(ctx, query, language);
    return {
      results: hits.map((hit) => {
        const translation = hit.translation === 1 ? hit.language : undefined;
        return {
          id: documentId(hit.entity_id, hit.source_question, translation),
          title: documentTitle(hit.entity_name, hit.question),
          url: documentUrl(ctx, { id: hit.entity_id, url: hit.entity_url }, hit.source_question, translation),
        };
      }),
    };
  },
});
