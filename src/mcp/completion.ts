import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import { nameKey } from "../search/normalize";
import { candidateFilter, MAX_REFERENCE_LENGTH, rankTypedName } from "../search/resolve";
import { listScopedEntities, nameCandidates, scopedCategories, scopedEntity } from "../storage/scoped-content";
import { GUEST_QUESTION } from "./prompts";
import { isFaqTemplate } from "./resource-uris";
import type { ToolContext } from "./tools/tool";

/**
 * completion/complete for what takes an entity or a category: the resource templates' `entityId` and
 * `category`, the prompt's `entity`. Only the caller's scope is ever offered.
 */

/** The most values one completion returns (the protocol's limit). */
const MAX_COMPLETIONS = 100;

/** Entity IDs: those starting with what was typed, then those whose names it begins, best first. */
async function entityIds(ctx: ToolContext, typed: string): Promise<string[]> {
  const byId = await listScopedEntities(ctx.db, ctx.organizationId, { idPrefix: typed.trim(), afterId: "", limit: MAX_COMPLETIONS + 1 });
  const named =
    typed.trim() === "" ? [] : await nameCandidates(ctx.db, ctx.organizationId, { ...candidateFilter(typed), only: null, limit: 500 });
  const byName = rankTypedName(
    typed,
    named.map((e) => ({ id: e.id, name: e.name, kind: e.kind, brandName: e.brand_name })),
  );
  return [...new Set([...byId.map((e) => e.id), ...byName.map((e) => e.id)])];
}

/** Categories of the entity already chosen (or of the whole scope) that start with what was typed. */
async function categories(ctx: ToolContext, typed: string, entityId: string | undefined): Promise<string[]> {
  const entity = entityId === undefined ? null : await scopedEntity(ctx.db, ctx.organizationId, entityId);
  const known = await scopedCategories(ctx.db, ctx.organizationId, entity?.id);
  return known.filter((category) => nameKey(category).startsWith(nameKey(typed)));
}

export function serveCompletion(server: Server, ctx: ToolContext): void {
  server.setRequestHandler("completion/complete", async (request) => {
    const { ref, argument, context } = request.params;
    const known = ref.type === "ref/resource" ? isFaqTemplate(ref.uri) : ref.name === GUEST_QUESTION.name;
    if (!known) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Nothing to complete for ${JSON.stringify(ref)}: complete the arguments of a resource template or of the prompt ${GUEST_QUESTION.name}.`,
      );
    }
    if (argument.value.length > MAX_REFERENCE_LENGTH) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The value to complete is ${argument.value.length} characters long; send at most ${MAX_REFERENCE_LENGTH} characters, the start of an ID or a name.`,
      );
    }
    const values =
      argument.name === "entityId" || argument.name === "entity"
        ? await entityIds(ctx, argument.value)
        : argument.name === "category"
          ? await categories(ctx, argument.value, context?.arguments?.entityId)
          : [];
    return { completion: { values: values.slice(0, MAX_COMPLETIONS), hasMore: values.length > MAX_COMPLETIONS } };
  });
}
