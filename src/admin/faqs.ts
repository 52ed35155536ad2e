import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { editFaqs, readFaqList, type EditBasis, type FaqEdit, type FaqList } from "../catalogue/faq-edits";
import { entityHistory, historyAt, restoreVersion, type RestoreOutcome } from "../catalogue/faq-history";
import type { FaqVersion } from "../storage/faq-versions";
import { rephraseFaq } from "../catalogue/guest-questions";
import { FaqRecord, MAX_PHRASINGS, Phrasing, TranslatedFaq } from "../catalogue/records";
import { untranslatedOf } from "../catalogue/untranslated";
import type { AdminEnv } from "./auth";
import { adminError, ErrorEnvelope, notFound, SafeId } from "./openapi";
import { operations } from "./operation";

/**
 * One FAQ of one entity at a time, with the same service the console uses (catalogue/faq-edits.ts). The list's
 * version is its ETag; every change must name it in `If-Match` and is refused with 412 when the list changed.
 */

const MAX_POSITION = 500;

const LocalizedFaqView = FaqRecord.extend({
  translations: z.array(z.object({ language: z.string(), question: z.string(), answer: z.string() })),
}).openapi("LocalizedFaq");
const FaqView = LocalizedFaqView.extend({
  position: z.number().int().openapi({ description: "1 is the first FAQ." }),
}).openapi("PlacedFaq");
const FaqListView = z
  .object({
    entityId: z.string(),
    version: z.string().openapi({ description: "The list's version; its ETag is this in quotes." }),
    faqs: z.array(FaqView),
  })
  .openapi("FaqList");
const FaqVersionView = z
  .object({
    id: z.number().int().openapi({ description: "The version's ID, which restores it." }),
    faqId: z.string().openapi({ description: "The FAQ's ID, the same through every version and rewording of its question." }),
    position: z.number().int().openapi({ description: "Where the FAQ was when the version was written (for a removal, where it was)." }),
    removed: z.boolean().openapi({ description: "The FAQ was removed; `faq` is what was removed." }),
    at: z.string(),
    actor: z.string().nullable().openapi({
      description: "`person:<email>` or the operator's `token:<fingerprint>`; null for the text before the first recorded change.",
    }),
    action: z.string().openapi({ description: "The audit action that wrote it (`faq.replace`, `faq.restore`, `content.import`…)." }),
    faq: LocalizedFaqView,
  })
  .openapi("FaqVersion");
const FaqVersionsView = z
  .object({ entityId: z.string(), versions: z.array(FaqVersionView).openapi({ description: "Newest first." }) })
  .openapi("FaqVersions");
const versionView = (version: FaqVersion) => ({
  id: version.id,
  faqId: version.faq_id,
  position: version.position,
  removed: version.removed,
  at: version.at,
  actor: version.actor,
  action: version.action,
  faq: version.faq,
});
const FaqConflict = ErrorEnvelope.extend({ current: FaqListView }).openapi("FaqConflict");

const EntityParam = z.object({ entityId: SafeId.openapi({ param: { name: "entityId", in: "path" } }) });
const PositionParam = EntityParam.extend({
  position: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_POSITION)
    .openapi({ param: { name: "position", in: "path" }, description: "1 is the first FAQ." }),
});
const IfMatch = z.object({
  "if-match": z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "if-match", in: "header" }, description: "The ETag of the FAQ list the change was made on; required." }),
});
const VersionParam = EntityParam.extend({
  versionId: z.coerce
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: "versionId", in: "path" }, description: "A version's ID (from its FAQ's versions)." }),
});
const LanguageParam = PositionParam.extend({
  language: z
    .string()
    .max(64)
    .openapi({ param: { name: "language", in: "path" }, description: "BCP 47 tag of the translation's language." }),
});
const Translation = TranslatedFaq.omit({ language: true }).openapi("FaqTranslationText");
const BrandParam = z.object({ brandId: SafeId.openapi({ param: { name: "brandId", in: "path" } }) });
const UntranslatedView = z
  .object({
    brandId: z.string(),
    languages: z.array(
      z.object({
        language: z.string(),
        missing: z.number().int().openapi({ description: "FAQs of the brand and its properties without this translation." }),
        of: z.number().int().openapi({ description: "FAQs that could have it (those of entities written in another language)." }),
        entities: z.array(z.object({ id: z.string(), name: z.string(), missing: z.number().int() })),
      }),
    ),
  })
  .openapi("Untranslated");
const Move = z.strictObject({ to: z.number().int().min(1).max(MAX_POSITION).openapi({ description: "The FAQ's new position." }) });
const Rephrase = z
  .strictObject({
    add: z.array(Phrasing).max(MAX_PHRASINGS).default([]).openapi({
      description: "Ways guests ask it to attach (an unanswered question as listed, or any wording); one it has already is left as it is.",
    }),
    remove: z.array(z.string().max(1000)).max(MAX_PHRASINGS).default([]).openapi({
      description: "Ways of asking to detach, compared case, accents and punctuation aside; their unanswered questions are open again.",
    }),
  })
  .openapi("Rephrase");

const refusals = {
  412: { description: "The FAQ list changed since the ETag in If-Match; `current` is the list now.", schema: FaqConflict },
  428: { description: "If-Match is missing.", schema: ErrorEnvelope },
};

const view = (list: FaqList) => ({
  entityId: list.entity.id,
  version: list.version,
  faqs: list.faqs.map(({ category, question, answer, phrasings, translations }, index) => ({
    position: index + 1,
    category,
    question,
    answer,
    ...(phrasings.length > 0 ? { phrasings } : {}),
    translations,
  })),
});

const etagOf = (version: string) => `"${version}"`;

/** The list's view with its ETag. */
function listAnswer(c: Context<AdminEnv>, list: FaqList) {
  c.header("ETag", etagOf(list.version));
  return view(list);
}

const count = (list: FaqList) => (list.faqs.length === 1 ? "1 FAQ" : `${list.faqs.length} FAQs`);

function answerOutcome(c: Context<AdminEnv>, entityId: string, outcome: RestoreOutcome, edit: FaqEdit | null, ifMatch: string) {
  switch (outcome.outcome) {
    case "no_version":
      return adminError(c, 404, `${entityId} has no FAQ version with this ID.`);
    case "saved":
      return listAnswer(c, outcome.list);
    case "no_entity":
      return notFound(c, "such entity");
    case "no_faq": {
      const position = !edit || edit.action === "add" ? 0 : edit.position;
      if (outcome.list.faqs[position - 1] && edit?.action === "move") {
        return adminError(c, 400, `${entityId} has ${count(outcome.list)}: \`to\` must be from 1 to ${outcome.list.faqs.length}.`);
      }
      return adminError(c, 404, `${entityId} has no FAQ at position ${position}; it has ${count(outcome.list)}.`);
    }
    case "no_translation":
      return adminError(
        c,
        404,
        `FAQ ${!edit || edit.action === "add" ? 0 : edit.position} of ${entityId} has no translation into ${edit?.action === "untranslate" ? edit.language : "that language"}.`,
      );
    case "conflict":
      c.header("ETag", etagOf(outcome.list.version));
      return c.json(
        {
          error: {
            code: "precondition_failed",
            message: `The FAQs of ${entityId} changed since ${ifMatch}: they are now at ${etagOf(outcome.list.version)}, as \`current\` shows. Nothing was changed; make the change on \`current\` and send its ETag.`,
          },
          current: view(outcome.list),
        },
        412,
        { "Cache-Control": "no-store" },
      );
    case "invalid":
      return adminError(
        c,
        400,
        `Invalid FAQ: ${outcome.problems.map((p) => `${p.field} ${p.message}`).join("; ")}.`,
        outcome.problems.map(({ field, message }) => ({ field, message })),
      );
    case "duplicate":
      return adminError(
        c,
        409,
        `FAQ ${outcome.position} of ${entityId} already asks this question (case and spacing aside); edit that one instead.`,
      );
  }
}

/** The version an `If-Match` names: one strong ETag, or `*` for whatever is stored. */
const versionIn = (ifMatch: string): string | null =>
  ifMatch.trim() === "*" ? "*" : (/^\s*"([0-9a-f]{16})"\s*$/.exec(ifMatch)?.[1] ?? "");

export function faqRoutes(app: OpenAPIHono<AdminEnv>): void {
  const operation = operations(app, "Content");

  operation(
    {
      method: "get",
      path: "/content/entities/{entityId}/faqs",
      params: EntityParam,
      summary: "An entity's FAQs in order, each with its translations; the ETag is the list's version",
      description: "The FAQ list.",
      schema: FaqListView,
    },
    async (c, { params }) => {
      const list = await readFaqList(c.env.DB, params.entityId);
      return list ? listAnswer(c, list) : notFound(c, "such entity");
    },
  );

  /** Makes `edit` when If-Match names the list's version; answers the list as it is then. */
  const change = (c: Context<AdminEnv>, entityId: string, ifMatch: string | undefined, edit: FaqEdit) =>
    changeWith(c, entityId, ifMatch, edit, (basis) =>
      editFaqs(c.env, { entityId, edit, basis, actor: c.get("operator") }, (work) => c.executionCtx.waitUntil(work)),
    );

  async function changeWith(
    c: Context<AdminEnv>,
    entityId: string,
    ifMatch: string | undefined,
    edit: FaqEdit | null,
    // The operator API's edits are made on the whole list its If-Match names, as HTTP's conditional requests are.
    make: (basis: EditBasis) => Promise<RestoreOutcome>,
  ) {
    if (ifMatch === undefined) {
      return adminError(c, 428, `If-Match is required: GET /admin/v1/content/entities/${entityId}/faqs and send its ETag.`);
    }
    let expectedVersion = versionIn(ifMatch);
    if (expectedVersion === "*") {
      const list = await readFaqList(c.env.DB, entityId);
      if (!list) return notFound(c, "such entity");
      expectedVersion = list.version;
    }
    return answerOutcome(c, entityId, await make({ list: expectedVersion ?? "" }), edit, ifMatch.trim());
  }

  operation(
    {
      method: "post",
      path: "/content/entities/{entityId}/faqs",
      params: EntityParam,
      headers: IfMatch,
      body: FaqRecord,
      status: 201,
      refusals,
      summary: "Add an FAQ after the entity's others",
      description: "Added; the list as it is now.",
      schema: FaqListView,
    },
    (c, { params, headers, body }) => change(c, params.entityId, headers["if-match"], { action: "add", faq: body }),
  );

  operation(
    {
      method: "put",
      path: "/content/entities/{entityId}/faqs/{position}",
      params: PositionParam,
      headers: IfMatch,
      body: FaqRecord,
      refusals,
      summary: "Replace the FAQ at a position (its translations follow its question)",
      description: "Replaced; the list as it is now.",
      schema: FaqListView,
    },
    (c, { params, headers, body }) =>
      change(c, params.entityId, headers["if-match"], { action: "replace", position: params.position, faq: body }),
  );

  operation(
    {
      method: "delete",
      path: "/content/entities/{entityId}/faqs/{position}",
      params: PositionParam,
      headers: IfMatch,
      refusals,
      summary: "Remove the FAQ at a position, with its translations",
      description: "Removed; the list as it is now.",
      schema: FaqListView,
    },
    (c, { params, headers }) => change(c, params.entityId, headers["if-match"], { action: "remove", position: params.position }),
  );

  operation(
    {
      method: "post",
      path: "/content/entities/{entityId}/faqs/{position}/move",
      params: PositionParam,
      headers: IfMatch,
      body: Move,
      refusals,
      summary: "Move the FAQ at a position to another position",
      description: "Moved; the list as it is now.",
      schema: FaqListView,
    },
    (c, { params, headers, body }) =>
      change(c, params.entityId, headers["if-match"], { action: "move", position: params.position, to: body.to }),
  );
  operation(
    {
      method: "get",
      path: "/content/entities/{entityId}/faqs/{position}/versions",
      params: PositionParam,
      summary: "The versions of the FAQ at a position, newest first, each whole with its translations",
      description: "Its versions; none when it has not changed since its versions were first kept.",
      schema: FaqVersionsView,
    },
    async (c, { params }) => {
      const list = await readFaqList(c.env.DB, params.entityId);
      if (!list) return notFound(c, "such entity");
      const versions = await historyAt(c.env.DB, list, params.position);
      if (!versions) return adminError(c, 404, `${params.entityId} has no FAQ at position ${params.position}; it has ${count(list)}.`);
      return { entityId: list.entity.id, versions: versions.map(versionView) };
    },
  );

  operation(
    {
      method: "get",
      path: "/content/entities/{entityId}/removed-faqs",
      params: EntityParam,
      summary: "The entity's FAQs removed and not restored since, newest first, each as it was removed",
      description: "The removals; restore one with its `id`.",
      schema: FaqVersionsView,
    },
    async (c, { params }) => {
      const list = await readFaqList(c.env.DB, params.entityId);
      if (!list) return notFound(c, "such entity");
      return { entityId: list.entity.id, versions: (await entityHistory(c.env.DB, list)).removed.map(versionView) };
    },
  );

  operation(
    {
      method: "post",
      path: "/content/entities/{entityId}/faq-versions/{versionId}/restore",
      params: VersionParam,
      headers: IfMatch,
      refusals,
      summary: "Restore a version of an FAQ: in place of the FAQ as it is now, or a removed FAQ back where it was, with its translations",
      description: "Restored; the list as it is now.",
      schema: FaqListView,
    },
    (c, { params, headers }) =>
      changeWith(c, params.entityId, headers["if-match"], null, (basis) =>
        restoreVersion(c.env, { entityId: params.entityId, versionId: params.versionId, basis, actor: c.get("operator") }, (work) =>
          c.executionCtx.waitUntil(work),
        ),
      ),
  );

  operation(
    {
      method: "put",
      path: "/content/entities/{entityId}/faqs/{position}/translations/{language}",
      params: LanguageParam,
      headers: IfMatch,
      body: Translation,
      refusals,
      summary: "Add or replace the FAQ's translation into a language",
      description: "Translated; the list as it is now.",
      schema: FaqListView,
    },
    (c, { params, headers, body }) =>
      change(c, params.entityId, headers["if-match"], {
        action: "translate",
        position: params.position,
        translation: { language: params.language, ...body },
      }),
  );

  operation(
    {
      method: "delete",
      path: "/content/entities/{entityId}/faqs/{position}/translations/{language}",
      params: LanguageParam,
      headers: IfMatch,
      refusals,
      summary: "Remove the FAQ's translation into a language",
      description: "Removed; the list as it is now.",
      schema: FaqListView,
    },
    (c, { params, headers }) =>
      change(c, params.entityId, headers["if-match"], { action: "untranslate", position: params.position, language: params.language }),
  );

  operation(
    {
      method: "get",
      path: "/content/brands/{brandId}/untranslated",
      params: BrandParam,
      summary: "How many FAQs of a brand and its properties are not translated yet, per language and entity",
      description: "Per language the brand's content is in, the FAQs without it, most first.",
      schema: UntranslatedView,
    },
    async (c, { params }) => {
      const untranslated = await untranslatedOf(c.env.DB, params.brandId);
      return untranslated ? { brandId: params.brandId, languages: untranslated } : notFound(c, "such brand");
    },
  );

  operation(
    {
      method: "post",
      path: "/content/entities/{entityId}/faqs/{position}/phrasings",
      params: PositionParam,
      headers: IfMatch,
      body: Rephrase,
      refusals,
      summary: "Attach ways guests ask the FAQ at a position, or detach them",
      description:
        "Attached and detached; the list as it is now. Guests' unanswered questions attached are listed as handled (attached to this FAQ).",
      schema: FaqListView,
    },
    (c, { params, headers, body }) => {
      const edit = { action: "phrasings" as const, position: params.position, add: body.add, remove: body.remove };
      return changeWith(c, params.entityId, headers["if-match"], edit, (basis) =>
        rephraseFaq(c.env, { entityId: params.entityId, ...edit, basis, actor: c.get("operator") }, (work) =>
          c.executionCtx.waitUntil(work),
        ),
      );
    },
  );
}
