import { listScopedEntities } from "../../storage/scoped-content";
import { ListEntitiesInput, ListEntitiesOutput } from "./schemas";
import { nameKey } from "../../search/normalize";
import { entitySummary, filterEntity } from "./entities";
import { defineTool, ToolArgumentError } from "./tool";

const encodeCursor = (afterId: string): string => btoa(JSON.stringify({ after: afterId }));

function decodeCursor(cursor: string): string {
  try {
    const { after } = JSON.parse(atob(cursor)) as { after?: unknown };
    if (typeof after === "string") return after;
  } catch {
    // Not base64 JSON: refused below like any other cursor this tool did not hand out.
  }
  throw new ToolArgumentError(
    "Invalid arguments for service_list_entities: cursor is not a nextCursor this tool returned; omit it to start from the first page.",
  );
}

export const listEntities = defineTool({
  name: "service_list_entities",
  title: "List entities",
  description:
    "Lists the brands, hotels (properties), destinations and airports in scope by ID, with their registered names. " +
    "Filter by kind, brand or part of the name; page with nextCursor.",
  input: ListEntitiesInput,
  output: ListEntitiesOutput,
  async run(args, ctx) {
    const brand = args.brandId === undefined ? undefined : await filterEntity(ctx, args.brandId, ["brand"]);
    if (brand && brand.id === null)
      return { entities: [], ...(brand.candidates.length > 0 ? { candidates: brand.candidates.map(entitySummary) } : {}) };
    const rows = await listScopedEntities(ctx.db, ctx.organizationId, {
      kind: args.kind,
      brandId: brand?.id ?? undefined,
      nameContains: args.nameContains === undefined ? undefined : nameKey(args.nameContains),
      afterId: args.cursor === undefined ? "" : decodeCursor(args.cursor),
      limit: args.limit + 1,
    });
    const page = rows.slice(0, args.limit);
    return {
      entities: page.map((e) => ({ ...entitySummary(e), ...(e.brand_id === null ? {} : { propertyId: e.property_id }) })),
      ...(rows.length > args.limit ? { nextCursor: encodeCursor(page[page.length - 1]!.id) } : {}),
    };
  },
});
