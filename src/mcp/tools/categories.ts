import type { D1Reader } from "../../storage/reader";
import { scopedCategories } from "../../storage/scoped-content";
import { ToolArgumentError } from "./tool";

/**
 * A category filter that matched nothing may be a typo rather than an empty answer: when no FAQ in
 * the caller's scope has that category, the model is told which categories exist.
 */
export async function assertKnownCategory(db: D1Reader, organizationId: string, category: string | undefined): Promise<void> {
  if (category === undefined) return;
  const known = await scopedCategories(db, organizationId);
  if (known.some((name) => name.toLowerCase() === category.toLowerCase())) return;
  throw new ToolArgumentError(`Unknown category ${JSON.stringify(category)}. The categories in your scope are: ${known.join(", ")}.`);
}
