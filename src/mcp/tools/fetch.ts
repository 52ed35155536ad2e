import { canonicalLanguageTag } from "../../http/language-tags";
import { slug } from "../../search/normalize";
import { entityFaqs, scopedEntity } from "../../storage/scoped-content";
import { documentTitle, documentUrl, parseDocumentId } from "./documents";
import { DocumentFetchInput, DocumentFetchOutput } from "./schemas";
import { answerLanguages } from "./questions";
import { defineTool, ToolArgumentError } from "./tool";

/** More FAQs than one entity may hold (the import's limit is 500). */
const ALL_FAQS = 1000;

export const fetchDocument = defineTool({
  name: "fetch",
  title: "Fetch a hotel FAQ",
  description:
    "Returns one FAQ that search found, by its id: the question and its answer (in the language search showed, or language), " +
    "which hotel or place it is about, and the url to cite.",
  input: DocumentFetchInput,
  output: DocumentFetchOutput,
  card: () => Promise.resolve({}),
  async run({ id, language }, ctx) {
    const ref = parseDocumentId(id);
    const shownIn = ref?.language === undefined ? undefined : canonicalLanguageTag(ref.language);
    const languages = answerLanguages(language ?? shownIn ?? undefined);
    // Outside the scope, an entity is as unknown as one that does not exist.
    const entity = ref && shownIn !== null && (await scopedEntity(ctx.db, ctx.organizationId, ref.entityId));
    const faq =
      entity &&
      (await entityFaqs(ctx.db, entity.id, { languages, limit: ALL_FAQS })).faqs.find((f) => slug(f.source_question) === ref.slug);
    if (!entity || !faq)
      throw new ToolArgumentError(`No document ${JSON.stringify(id)} in this organization's content; pass an id that search returned.`);
    const translation = faq.translation === 1 ? faq.language : undefined;
    return {
      id,
      title: documentTitle(entity.name, faq.question),
      text: `${faq.question}\n\n${faq.answer}`,
      url: documentUrl(ctx, entity, faq.source_question, translation),
      metadata: {
        entityId: entity.id,
        entityName: entity.name,
        entityKind: entity.kind,
        ...(entity.brand_id === null ? {} : { brandId: entity.brand_id }),
        category: faq.category,
        language: faq.language,
      },
    };
  },
});
