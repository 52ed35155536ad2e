import { answerCardResource, ANSWER_CARD_URI } from "./card/answer-card";
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type Resource, type Server } from "@modelcontextprotocol/server";
import { entityFaqs, listScopedEntities, scopedEntity, type EntityCandidate, type ShownFaq } from "../storage/scoped-content";
import {
  FAQ_FORMATS,
  FAQ_TEMPLATES,
  faqResourceNaming,
  faqResourceUri,
  parseFaqResourceUri,
  type FaqFormat,
  type FaqResource,
} from "./resource-uris";
import type { ToolContext } from "./tools/tool";

/**
 * Resources: every entity in the caller's scope is readable as its FAQs, in markdown and in JSON, listed
 * by ID a page at a time, and through two templates whose `entityId` and `category` complete
 * (completion.ts). An entity outside the scope is not found, exactly like one that does not exist.
 */

/** Entities per resources/list page (each is listed twice: markdown and JSON). */
const ENTITIES_PER_PAGE = 50;
/** More FAQs than one entity may hold (the import's limit is 500). */
const ALL_FAQS = 1000;

const KIND_NAMES = { brand: "brand", property: "hotel", destination: "destination", airport: "airport" } as const;

const encodeCursor = (afterId: string): string => btoa(JSON.stringify({ after: afterId }));
function decodeCursor(cursor: string): string {
  try {
    const { after } = JSON.parse(atob(cursor)) as { after?: unknown };
    if (typeof after === "string") return after;
  } catch {
    // Not a cursor this server handed out: refused below.
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass the nextCursor of the previous page, or none.");
}

function describe(entity: { name: string; kind: keyof typeof KIND_NAMES; brand_id: string | null }): string {
  return `Questions and answers about ${entity.name}, a ${KIND_NAMES[entity.kind]}${entity.brand_id ? ` of ${entity.brand_id}` : ""}.`;
}

function markdown(entity: EntityCandidate, faqs: ShownFaq[], category: string | undefined): string {
  const about = [
    `${KIND_NAMES[entity.kind]} \`${entity.id}\``,
    ...(entity.brand_name ? [`of ${entity.brand_name} (\`${entity.brand_id}\`)`] : []),
    ...(entity.url ? [entity.url] : []),
    `updated ${entity.updated_at}`,
  ].join(" · ");
  const body =
    faqs.length === 0
      ? [`No FAQs${category === undefined ? "" : ` in the category ${category}`}.`]
      : faqs.map((faq) => `## ${faq.question}\n\n*${faq.category}*\n\n${faq.answer}`);
  return [`# ${entity.name}`, about, ...body].join("\n\n") + "\n";
}

function json(entity: EntityCandidate, faqs: ShownFaq[], category: string | undefined): string {
  return JSON.stringify({
    entity: {
      id: entity.id,
      name: entity.name,
      kind: entity.kind,
      ...(entity.brand_id === null ? {} : { brandId: entity.brand_id }),
      ...(entity.url === null ? {} : { url: entity.url }),
      dateModified: entity.updated_at,
    },
    ...(category === undefined ? {} : { category }),
    faqs: faqs.map(({ question, answer, category }) => ({ question, answer, category })),
  });
}

const RENDER: Record<FaqFormat, typeof markdown> = { markdown, json };

async function read(ctx: ToolContext, uri: string) {
  const resource: FaqResource | null = parseFaqResourceUri(uri);
  const entity = resource && (await scopedEntity(ctx.db, ctx.organizationId, resource.entityId));
  if (!resource || !entity) throw new ResourceNotFoundError(uri);
  const { faqs } = await entityFaqs(ctx.db, entity.id, { languages: [], category: resource.category, limit: ALL_FAQS });
  return {
    contents: [{ uri, mimeType: FAQ_FORMATS[resource.format].mimeType, text: RENDER[resource.format](entity, faqs, resource.category) }],
  };
}

export function serveResources(server: Server, ctx: ToolContext): void {
  server.setRequestHandler("resources/list", async (request) => {
    const afterId = request.params?.cursor === undefined ? "" : decodeCursor(request.params.cursor);
    const entities = await listScopedEntities(ctx.db, ctx.organizationId, { afterId, limit: ENTITIES_PER_PAGE + 1 });
    const page = entities.slice(0, ENTITIES_PER_PAGE);
    const resources: Resource[] = page.flatMap((entity) =>
      (Object.keys(FAQ_FORMATS) as FaqFormat[]).map((format) => ({
        uri: faqResourceUri({ entityId: entity.id, format }),
        ...faqResourceNaming(entity, format),
        description: describe(entity),
        mimeType: FAQ_FORMATS[format].mimeType,
        annotations: { audience: ["assistant" as const], lastModified: entity.updated_at },
      })),
    );
    return { resources, ...(entities.length > ENTITIES_PER_PAGE ? { nextCursor: encodeCursor(page[page.length - 1]!.id) } : {}) };
  });

  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: FAQ_TEMPLATES }));

  server.setRequestHandler("resources/read", (request) =>
    request.params.uri === ANSWER_CARD_URI ? answerCardResource() : read(ctx, request.params.uri),
  );
}
