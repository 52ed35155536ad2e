import type { Context } from "hono";
import type { EditBasis } from "../catalogue/faq-edits";
import { findEntity } from "../storage/entities";
import { roleOn } from "./access";
import { notInReach, problem, readOnlyContent } from "./answers";
import type { ConsoleEnv } from "./context";

/** How the console's entity pages find the entity of their path, and what they answer when they may not. */

type ConsoleContext = Context<ConsoleEnv>;

export const nothingHere = (c: ConsoleContext) => notInReach(c.get("viewer"));

export const readOnly = (c: ConsoleContext) => readOnlyContent(c.get("viewer"));

/** The entity of the path with the person's role on it, or null (the same whether it exists elsewhere or not). */
export async function entityInReach(c: ConsoleContext) {
  const entity = await findEntity(c.env.DB, c.req.param("entityId") ?? "");
  const role = entity ? roleOn(c.get("access"), entity) : null;
  return entity && role ? { entity, role } : null;
}

/** The 1-based FAQ position of the path, or null when it is not one. */
export const positionParam = (c: ConsoleContext): number | null => {
  const position = Number(c.req.param("position"));
  return Number.isSafeInteger(position) && position >= 1 ? position : null;
};

export const noSuchFaq = (c: ConsoleContext, entityName: string, position: number | null) =>
  problem(
    404,
    "No such FAQ",
    `${entityName} has no FAQ ${position === null ? "at that address" : `number ${position}`}. It may have been removed or moved; open the list again.`,
    c.get("viewer"),
  );

/** The FAQ a form was made on, as its FaqBasis fields say; a form made on no FAQ (an addition) names none. */
export const formBasis = (form: URLSearchParams): EditBasis => ({
  faq: form.get("faq_version") ?? "",
  question: form.get("original_question") ?? "",
});
