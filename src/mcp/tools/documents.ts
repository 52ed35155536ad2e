import { slug } from "../../search/normalize";
import { entitiesByIdOrBrand } from "../../storage/entities";
import type { ToolContext } from "./tool";

/**
 * What `search` and `fetch` call a document: one FAQ of an entity in scope, named by the entity's ID and
 * the slug of its question in the entity's default language, so an ID stays the same when FAQs are
 * reordered or other FAQs change; a translation shown adds its language (`HO-AUR-0051/is-there-parking…/pt`),
 * so `fetch` answers in the language `search` showed.
 */

export const documentId = (entityId: string, sourceQuestion: string, translation?: string): string =>
  `${entityId}/${slug(sourceQuestion)}${translation === undefined ? "" : `/${translation}`}`;

/** The entity ID, question slug and language (of a translation) of a document ID (entity IDs and slugs hold no "/"), or null. */
export function parseDocumentId(id: string): { entityId: string; slug: string; language?: string } | null {
  const [entityId = "", questionSlug = "", language, ...rest] = id.split("/");
  if (entityId === "" || questionSlug === "" || language === "" || rest.length > 0) return null;
  return { entityId, slug: questionSlug, ...(language === undefined ? {} : { language }) };
}

export const documentTitle = (entityName: string, question: string): string => `${entityName}: ${question}`;

/**
 * The URL to cite: the entity's own page when it has one, else its FAQ feed (in the translation's language) with the
 * question as the fragment.
 */
export const documentUrl = (
  ctx: ToolContext,
  entity: { id: string; url: string | null },
  sourceQuestion: string,
  translation?: string,
): string => entity.url ?? `${faqFeedUrl(ctx, entity.id, translation)}#${encodeURIComponent(slug(sourceQuestion))}`;

const faqFeedUrl = (ctx: ToolContext, entityId: string, translation?: string): string =>
  `${ctx.contentOrigin}/api/v3/content/${encodeURIComponent(entityId)}/faq.json${translation === undefined ? "" : `?lang=${encodeURIComponent(translation)}`}`;

/** The page of each of `entityIds` (in the caller's scope already): its own site, else its FAQ feed. */
export async function entityPages(ctx: ToolContext, entityIds: string[]): Promise<Record<string, string>> {
  const entities = await entitiesByIdOrBrand(ctx.db, [...new Set(entityIds)], []);
  return Object.fromEntries(entities.map((entity) => [entity.id, entity.url ?? faqFeedUrl(ctx, entity.id)]));
}
