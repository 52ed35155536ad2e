import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { applyReplace, MAX_REPLACEMENTS, previewReplace, REPLACED_FIELDS, ReplaceRequest } from "../catalogue/find-replace";
import { findFaqs, FOUND_IN, MAX_FIND_LENGTH } from "../search/find-faqs";
import { findEntity } from "../storage/entities";
import type { AdminEnv } from "./auth";
import { adminError, notFound, SafeId } from "./openapi";
import { operations } from "./operation";

/**
 * Finding FAQs by their words and replacing text across a brand, with the services the console uses
 * (search/find-faqs.ts, catalogue/find-replace.ts): the operator sees every organization's content.
 */

const FindQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1)
    .max(MAX_FIND_LENGTH)
    .openapi({ description: "Words every FAQ found has in its question or answer, in any language.", example: "parking" }),
  entity: SafeId.optional().openapi({ description: "Only this entity's FAQs (a brand's: its hotels' too)." }),
});

const FoundFaqView = z
  .object({
    entityId: z.string(),
    entityName: z.string(),
    position: z.number().int().openapi({ description: "1 is the entity's first FAQ." }),
    language: z.string(),
    translation: z.boolean(),
    question: z.string(),
    field: z.enum(FOUND_IN).openapi({ description: "Where the words were found." }),
    excerpt: z.string().openapi({ description: "A passage of that field, the words found between ** marks." }),
  })
  .openapi("FoundFaq");
const FoundFaqsView = z.object({
  faqs: z.array(FoundFaqView).openapi({ description: "At most 50, by entity name and position." }),
  total: z.number().int().openapi({ description: "How many FAQ rows (each language apart) have the words." }),
});

const ReplacementView = z
  .object({
    key: z.string().openapi({ description: "Names the change when applying it." }),
    entityId: z.string(),
    entityName: z.string(),
    position: z.number().int(),
    language: z.string(),
    field: z.enum(REPLACED_FIELDS),
    before: z.string(),
    after: z.string(),
  })
  .openapi("Replacement");
const ReplacePreviewView = z
  .object({
    scope: z.object({ id: z.string(), name: z.string(), kind: z.string() }),
    changes: z.array(ReplacementView).openapi({ description: `Every change, at most ${MAX_REPLACEMENTS}.` }),
    more: z.boolean().openapi({ description: "More changes were found than listed: apply these, then preview again." }),
    versions: z.record(z.string(), z.string()).openapi({ description: "Each entity with a change, and its FAQ list's version as read." }),
  })
  .openapi("ReplacePreview");
// Its own object, not `ReplaceRequest.extend`: the document would give it as `allOf` with the base, whose strictness
// (additionalProperties: false) then forbids every field of the other part, and no body could match it.
const ReplaceApply = z
  .strictObject({
    ...ReplaceRequest.shape,
    changes: z
      .array(z.string().min(1).max(300))
      .min(1)
      .max(MAX_REPLACEMENTS)
      .openapi({ description: `The keys of the preview's changes to make, at most ${MAX_REPLACEMENTS}.` }),
    versions: z.record(SafeId, z.string().max(64)).openapi({ description: "The preview's `versions`." }),
  })
  .openapi("ReplaceApply");
const ReplaceApplied = z.object({
  changes: z.number().int().openapi({ description: "Fields changed." }),
  entities: z.array(z.string()).openapi({ description: "The entities changed, each with an audit entry `content.replace`." }),
});

const excerptText = (pieces: { text: string; mark: boolean }[]) =>
  pieces.map((piece) => (piece.mark ? `**${piece.text}**` : piece.text)).join("");

export function findReplaceRoutes(app: OpenAPIHono<AdminEnv>): void {
  const operation = operations(app, "Content");

  operation(
    {
      method: "get",
      path: "/content/faqs/search",
      query: FindQuery,
      summary: "Find FAQs by words of their question or answer, in every language",
      description: "The FAQs found.",
      schema: FoundFaqsView,
    },
    async (c, { query }) => {
      if (query.entity !== undefined && !(await findEntity(c.env.DB, query.entity))) return notFound(c, "such entity");
      const found = await findFaqs(c.env.DB, query.q, query.entity === undefined ? null : [[query.entity]]);
      return {
        total: found.total,
        faqs: found.faqs.map(({ entityKind: _, brandId: __, excerpt, ...faq }) => ({ ...faq, excerpt: excerptText(excerpt) })),
      };
    },
  );

  operation(
    {
      method: "post",
      path: "/content/replace/preview",
      body: ReplaceRequest,
      summary: "What replacing a text across a brand or entity would change, field by field; changes nothing",
      description: "The changes it would make.",
      schema: ReplacePreviewView,
    },
    async (c, { body }) => (await previewReplace(c.env.DB, body)) ?? notFound(c, "such entity"),
  );

  operation(
    {
      method: "post",
      path: "/content/replace",
      body: ReplaceApply,
      summary: "Make the chosen changes of a replace preview, all at once; refused when an entity changed since",
      description: "Replaced.",
      schema: ReplaceApplied,
    },
    async (c, { body }) => {
      const { changes, versions, ...request } = body;
      const outcome = await applyReplace(c.env, { request, chosen: changes, versions, actor: c.get("operator") }, (work) =>
        c.executionCtx.waitUntil(work),
      );
      switch (outcome.outcome) {
        case "applied":
          return { changes: outcome.changes, entities: outcome.entities };
        case "no_scope":
          return notFound(c, "such entity");
        case "nothing_chosen":
          return adminError(c, 400, "No change was chosen.");
        case "too_many":
          return adminError(c, 400, `${outcome.chosen} changes were chosen; at most ${MAX_REPLACEMENTS} are made at once.`);
        case "unknown":
          return adminError(c, 400, `Not changes of this replacement in ${request.scope}: ${outcome.keys.slice(0, 10).join(", ")}.`);
        case "stale":
          return adminError(
            c,
            409,
            `Changed since the preview: ${outcome.entities.map((entity) => entity.id).join(", ")}. Nothing was replaced; preview again.`,
          );
        case "invalid":
          return adminError(
            c,
            400,
            `The replacement breaks the content's rules; nothing was replaced: ${outcome.problems
              .map((problem) => `${problem.entityId} ${problem.message}`)
              .join("; ")}.`,
          );
      }
    },
  );
}
