import { Hono, type Context } from "hono";
import { editFaqs, listedFaq, readFaqList, type EditOutcome, type FaqEdit, type FaqText, type ListedFaq } from "../catalogue/faq-edits";
import { untranslatedOf } from "../catalogue/untranslated";
import { canonicalLanguageTag } from "../http/language-tags";
import { entitiesWithin } from "../storage/entities";
import { reachOf, roleOn } from "./access";
import { page, problem, seeOther } from "./answers";
import type { ConsoleEnv } from "./context";
import { entityInReach, formBasis, noSuchFaq, nothingHere, positionParam, readOnly } from "./entity-reach";
import { conflictPage, faqFormPage, translationFormPage, translationOf, translationRemovePage, untranslatedPage } from "./faq-pages";
import { render } from "./pages";

/**
 * The console's changes to one FAQ (add, edit, remove, move, translate), through the same service as the operator
 * API (catalogue/faq-edits.ts). A form names the FAQ it was made on, never the whole list: two people changing
 * different FAQs of a hotel never stop each other, and one who changes an FAQ someone else just changed sees both.
 */

type ConsoleContext = Context<ConsoleEnv>;

export const faqRoutes = new Hono<ConsoleEnv>();

const EMPTY_FAQ: FaqText = { question: "", answer: "", category: "" };

/** The entity of the path (an editor's) and its FAQ at the path's position, or the page that says why not. */
async function editableFaq(c: ConsoleContext): Promise<{ entity: ListedFaqEntity; faq: ListedFaq } | Response> {
  const found = await entityInReach(c);
  const list = found && (await readFaqList(c.env.DB, found.entity.id));
  if (!found || !list) return nothingHere(c);
  if (found.role !== "editor") return readOnly(c);
  const position = positionParam(c);
  const faq = position === null ? null : listedFaq(list, position);
  return faq ? { entity: found.entity, faq } : noSuchFaq(c, found.entity.name, position);
}
type ListedFaqEntity = NonNullable<Awaited<ReturnType<typeof entityInReach>>>["entity"];

faqRoutes.get("/console/entities/:entityId/faqs/new", async (c) => {
  const found = await entityInReach(c);
  if (!found) return nothingHere(c);
  if (found.role !== "editor") return readOnly(c);
  // "Answer it" on the unanswered questions page fills in the question.
  const values = { ...EMPTY_FAQ, question: c.req.query("question") ?? "" };
  return page(render(faqFormPage({ viewer: c.get("viewer"), entity: found.entity, faq: null, values })));
});

faqRoutes.get("/console/entities/:entityId/faqs/:position", async (c) => {
  const found = await editableFaq(c);
  if (found instanceof Response) return found;
  const { faq } = found;
  const values = { question: faq.question, answer: faq.answer, category: faq.category };
  return page(render(faqFormPage({ viewer: c.get("viewer"), entity: found.entity, faq, values })));
});

const FIELD_LABELS: Record<string, string> = {
  question: "The question",
  answer: "The answer",
  category: "The category",
  language: "The language",
};

const submittedFaq = (form: URLSearchParams): FaqText => ({
  question: form.get("question") ?? "",
  answer: form.get("answer") ?? "",
  category: form.get("category") ?? "",
});

const problemsByField = (problems: { field: string; message: string }[]): Record<string, string> =>
  Object.fromEntries(problems.map(({ field, message }) => [field, `${FIELD_LABELS[field] ?? "The FAQ"} ${message}.`]));

const DONE_AT: Record<FaqEdit["action"], "after" | "before" | null> = {
  add: "after",
  replace: "after",
  move: "after",
  translate: "after",
  untranslate: "after",
  restore: "after",
  phrasings: "after",
  remove: null,
};

/** Makes an edit from a form of the entity page, an FAQ's form or a translation's, and answers with the next page. */
async function submitEdit(
  c: ConsoleContext,
  edit: FaqEdit,
  formAgain: (status: number, problems: Record<string, string>) => Response | Promise<Response>,
) {
  const found = await entityInReach(c);
  if (!found) return nothingHere(c);
  if (found.role !== "editor") return readOnly(c);
  const form = c.get("form");
  const viewer = c.get("viewer");
  const entity = found.entity;
  const outcome: EditOutcome = await editFaqs(
    c.env,
    {
      entityId: entity.id,
      edit,
      basis: formBasis(form),
      actor: `person:${c.get("person").email}`,
    },
    (work) => c.executionCtx.waitUntil(work),
  );
  switch (outcome.outcome) {
    case "saved": {
      const at = DONE_AT[edit.action] === "after" ? outcome.after : null;
      return seeOther(`/console/entities/${entity.id}?done=${edit.action}${at ? `#faq-${at.position}` : ""}`);
    }
    case "no_entity":
      return nothingHere(c);
    case "no_faq":
      return edit.action === "move" && outcome.list.faqs[edit.position - 1]
        ? problem(
            400,
            "No such position",
            `${entity.name} has ${outcome.list.faqs.length} FAQs: choose a position from 1 to ${outcome.list.faqs.length}.`,
            viewer,
          )
        : noSuchFaq(c, entity.name, edit.action === "add" ? null : edit.position);
    case "no_translation":
      return problem(404, "No such translation", "This FAQ has no translation into that language any more. Open its page again.", viewer);
    case "conflict":
      return page(render(conflictPage({ viewer, entity, edit, current: outcome.current })), 409);
    case "duplicate":
      return formAgain(409, {
        question: `FAQ ${outcome.position} of ${entity.name} already asks this question (capital letters and spaces aside). Edit that one instead.`,
      });
    case "invalid":
      return formAgain(400, problemsByField(outcome.problems));
  }
}

/** The FAQ form again, with what was typed and what is wrong with it. */
const faqFormAgain =
  (c: ConsoleContext, faq: ListedFaq | null, values: FaqText) => async (status: number, problems: Record<string, string>) => {
    const found = await entityInReach(c);
    if (!found) return nothingHere(c);
    return page(render(faqFormPage({ viewer: c.get("viewer"), entity: found.entity, faq, values, problems })), status);
  };

/** The FAQ a form was made on, as its hidden fields say (for showing the form again). */
const formFaq = (c: ConsoleContext, position: number): ListedFaq => {
  const form = c.get("form");
  return {
    position,
    version: form.get("faq_version") ?? "",
    question: form.get("original_question") ?? "",
    answer: "",
    category: "",
    phrasings: [],
    translations: [],
  };
};

faqRoutes.post("/console/entities/:entityId/faqs", (c) => {
  const faq = submittedFaq(c.get("form"));
  return submitEdit(c, { action: "add", faq }, faqFormAgain(c, null, faq));
});

faqRoutes.post("/console/entities/:entityId/faqs/:position", (c) => {
  const position = positionParam(c);
  if (position === null) return nothingHere(c);
  const faq = submittedFaq(c.get("form"));
  return submitEdit(c, { action: "replace", position, faq }, faqFormAgain(c, formFaq(c, position), faq));
});

faqRoutes.post("/console/entities/:entityId/faqs/:position/remove", (c) => {
  const position = positionParam(c);
  return position === null ? nothingHere(c) : submitEdit(c, { action: "remove", position }, () => nothingHere(c));
});

faqRoutes.post("/console/entities/:entityId/faqs/:position/move", (c) => {
  const position = positionParam(c);
  const form = c.get("form");
  // "up" and "down" are one place either way; `to` is any position.
  const direction = form.get("direction");
  const to = direction === "up" ? (position ?? 0) - 1 : direction === "down" ? (position ?? 0) + 1 : Number(form.get("to"));
  if (position === null) return nothingHere(c);
  // Past the last FAQ the service says so, with how many there are; before the first there is never one.
  return submitEdit(c, { action: "move", position, to: Number.isSafeInteger(to) && to >= 1 ? to : 0 }, () => nothingHere(c));
});

/** The language of the path in canonical form, or null when it is not a known language's tag. */
const languageParam = (c: ConsoleContext): string | null => canonicalLanguageTag(c.req.param("language") ?? "");

const noSuchLanguage = (c: ConsoleContext) =>
  problem(404, "No such language", "This address does not name a language. Choose one from the FAQ's page.", c.get("viewer"));

/** The translation form of `language` for the path's FAQ, or the page that says why not. */
async function translationForm(c: ConsoleContext, language: string) {
  const found = await editableFaq(c);
  if (found instanceof Response) return found;
  if (language.toLowerCase() === found.entity.default_language.toLowerCase()) {
    return problem(
      400,
      "This is the FAQ's own language",
      "The FAQ itself is written in this language: edit the FAQ instead.",
      c.get("viewer"),
    );
  }
  const translation = translationOf(found.faq, language);
  const values = { question: translation?.question ?? "", answer: translation?.answer ?? "" };
  return page(render(translationFormPage({ viewer: c.get("viewer"), entity: found.entity, faq: found.faq, language, values })));
}

// The entity page's "Translate into…" form is a GET with the language as a query: it leads to the language's address.
faqRoutes.get("/console/entities/:entityId/faqs/:position/translations", (c) => {
  const language = canonicalLanguageTag(c.req.query("language") ?? "");
  const position = positionParam(c);
  if (language === null || position === null) return noSuchLanguage(c);
  return seeOther(`/console/entities/${c.req.param("entityId")}/faqs/${position}/translations/${language}`);
});

faqRoutes.get("/console/entities/:entityId/faqs/:position/translations/:language", (c) => {
  const language = languageParam(c);
  return language === null ? noSuchLanguage(c) : translationForm(c, language);
});

faqRoutes.post("/console/entities/:entityId/faqs/:position/translations/:language", async (c) => {
  const language = languageParam(c);
  const position = positionParam(c);
  if (language === null || position === null) return noSuchLanguage(c);
  const form = c.get("form");
  const values = { question: form.get("question") ?? "", answer: form.get("answer") ?? "" };
  return submitEdit(c, { action: "translate", position, translation: { language, ...values } }, async (status, problems) => {
    const found = await editableFaq(c);
    if (found instanceof Response) return found;
    return page(
      render(translationFormPage({ viewer: c.get("viewer"), entity: found.entity, faq: found.faq, language, values, problems })),
      status,
    );
  });
});

faqRoutes.get("/console/entities/:entityId/faqs/:position/translations/:language/remove", async (c) => {
  const language = languageParam(c);
  if (language === null) return noSuchLanguage(c);
  const found = await editableFaq(c);
  if (found instanceof Response) return found;
  if (!translationOf(found.faq, language)) {
    return problem(404, "No such translation", "This FAQ has no translation into that language. Open its page again.", c.get("viewer"));
  }
  return page(render(translationRemovePage({ viewer: c.get("viewer"), entity: found.entity, faq: found.faq, language })));
});

faqRoutes.post("/console/entities/:entityId/faqs/:position/translations/:language/remove", (c) => {
  const language = languageParam(c);
  const position = positionParam(c);
  if (language === null || position === null) return noSuchLanguage(c);
  return submitEdit(c, { action: "untranslate", position, language }, () => nothingHere(c));
});

/** How many brands the brand-wide translation view offers to choose from. */
const BRAND_CHOICES = 200;

faqRoutes.get("/console/translations", async (c) => {
  const access = c.get("access");
  const found = await entitiesWithin(c.env.DB, {
    reach: reachOf(access),
    scope: access.scope,
    search: "",
    limit: BRAND_CHOICES,
    kind: "brand",
  });
  const brands = found.filter((entity) => roleOn(access, entity) !== null);
  const brand = brands.find((entity) => entity.id === c.req.query("brand")) ?? (c.req.query("brand") ? undefined : brands[0]);
  if (c.req.query("brand") && !brand) return nothingHere(c);
  const languages = brand ? ((await untranslatedOf(c.env.DB, brand.id)) ?? []) : [];
  return page(render(untranslatedPage({ viewer: c.get("viewer"), brands, brand: brand ?? null, languages })));
});
