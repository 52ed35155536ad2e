import { slug } from "../../search/normalize";
import type { ToolContext } from "./tool";

/**
 * What `search` and `fetch` call a document: one FAQ of an entity in scope, named by the entity's ID and
 * the question's slug, so an ID stays the same when FAQs are reordered or other FAQs change.
 */

export const documentId = (entityId: string, question: string): string => `${entityId}/${slug(question)}`;

/** The entity ID and question slug of a document ID (entity IDs hold no "/"), or null. */
export function parseDocumentId(id: string): { entityId: string; slug: string } | null {
  const at = id.indexOf("/");
  return at > 0 && at < id.length - 1 ? { entityId: id.slice(0, at), slug: id.slice(at + 1) } : null;
}

export const documentTitle = (entityName: string, question: string): string => `${entityName}: ${question}`;

/** The URL to cite: the entity's own page when it has one, else its FAQ feed with the question as the fragment. */
export const documentUrl = (ctx: ToolContext, entity: { id: string; url: string | null }, question: string): string =>
  entity.url ?? `${ctx.contentOrigin}/api/v3/content/${encodeURIComponent(entity.id)}/faq.json#${encodeURIComponent(slug(question))}`;
