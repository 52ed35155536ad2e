import type { ResourceLink, ResourceTemplateType } from "@modelcontextprotocol/server";

/**
 * The URIs of the MCP resources: each entity's FAQs, as markdown and as JSON, all of them or one
 * category's (`hospitality://entities/HO-AUR-0001/faqs.json?category=Parking`).
 */

const PREFIX = "hospitality://entities/";

export const FAQ_FORMATS = {
  markdown: { suffix: "", mimeType: "text/markdown" },
  json: { suffix: ".json", mimeType: "application/json" },
} as const;
export type FaqFormat = keyof typeof FAQ_FORMATS;

export interface FaqResource {
  entityId: string;
  format: FaqFormat;
  category?: string;
}

export const faqResourceUri = ({ entityId, format, category }: FaqResource): string =>
  `${PREFIX}${encodeURIComponent(entityId)}/faqs${FAQ_FORMATS[format].suffix}${
    category === undefined ? "" : `?category=${encodeURIComponent(category)}`
  }`;

/** The templates of resources/templates/list; `entityId` and `category` complete through completion/complete. */
export const FAQ_TEMPLATES = [
  {
    uriTemplate: `${PREFIX}{entityId}/faqs{?category}`,
    name: "entity-faqs",
    title: "An entity's FAQs",
    mimeType: FAQ_FORMATS.markdown.mimeType,
  },
  {
    uriTemplate: `${PREFIX}{entityId}/faqs.json{?category}`,
    name: "entity-faqs-json",
    title: "An entity's FAQs (JSON)",
    mimeType: FAQ_FORMATS.json.mimeType,
  },
] satisfies ResourceTemplateType[];

export const isFaqTemplate = (uriTemplate: string): boolean => FAQ_TEMPLATES.some((t) => t.uriTemplate === uriTemplate);

const FAQ_URI = /^hospitality:\/\/entities\/([^/?#]+)\/faqs(\.json)?(?:\?([^#]*))?$/;

/** What a resource URI names, or null when it is not one of these resources' URIs. */
export function parseFaqResourceUri(uri: string): FaqResource | null {
  const match = FAQ_URI.exec(uri);
  if (!match) return null;
  const query = new URLSearchParams(match[3] ?? "");
  if ([...query.keys()].some((key) => key !== "category") || query.getAll("category").length > 1) return null;
  let entityId: string;
  try {
    entityId = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  const category = query.get("category");
  return { entityId, format: match[2] ? "json" : "markdown", ...(category ? { category } : {}) };
}

/** The name and title a resource of `entity`'s FAQs is listed and linked with. */
export const faqResourceNaming = (entity: { id: string; name: string }, format: FaqFormat) => ({
  name: `${entity.id}-faqs${format === "json" ? "-json" : ""}`,
  title: `FAQs of ${entity.name}${format === "json" ? " (JSON)" : ""}`,
});

/** A tool result's link to the markdown FAQs of an entity it is about. */
export const faqResourceLink = (entity: { id: string; name: string }): ResourceLink => ({
  type: "resource_link",
  uri: faqResourceUri({ entityId: entity.id, format: "markdown" }),
  ...faqResourceNaming(entity, "markdown"),
  mimeType: FAQ_FORMATS.markdown.mimeType,
});
