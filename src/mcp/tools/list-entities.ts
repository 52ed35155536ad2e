import { listScopedEntities } from "../../storage/scoped-content";
import { ListEntitiesInput, ListEntitiesOutput } from "./schemas";
import { nameKey } from "../../storage/entities";
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
    "Lists the hotel brands, hotels (properties), destinations and airports this organization can see, ordered by ID. " +
    "Use it to discover exact entity IDs and full registered names before calling service_query. " +
    "Filter by kind, by brandId (a brand's hotels) or by part of the name (all case-insensitive); page with nextCursor.",
  input: ListEntitiesInput,
  output: ListEntitiesOutput,
  async run(args, { db, organizationId }) {
    const rows = await listScopedEntities(db, organizationId, {
      kind: args.kind,
      brandId: args.brandId,
      nameContains: args.nameContains === undefined ? undefined : nameKey(args.nameContains),
      afterId: args.cursor === undefined ? "" : decodeCursor(args.cursor),
      limit: args.limit + 1,
    });
    const page = rows.slice(0, args.limit);
    return {
      entities: page.map((e) => ({
        id: e.id,
        name: e.name,
        kind: e.kind,
        ...(e.brand_id === null ? {} : { brandId: e.brand_id, propertyId: e.property_id }),
      })),
      ...(rows.length > args.limit ? { nextCursor: encodeCursor(page[page.length - 1]!.id) } : {}),
    };
  },
});
