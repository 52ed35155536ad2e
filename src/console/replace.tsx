import { Hono, type Context } from "hono";
import { z } from "@hono/zod-openapi";
import {
  applyReplace,
  MAX_REPLACEMENTS,
  previewReplace,
  replacedPieces,
  ReplaceRequest,
  type Replacement,
  type ReplacePreview,
} from "../catalogue/find-replace";
import { brandLanguagesStatement } from "../storage/faqs";
import { entitiesWithin, findEntity, type EntityRow } from "../storage/entities";
import { reachOf, roleOn } from "./access";
import { notInReach, page, readOnlyContent, seeOther } from "./answers";
import type { ConsoleEnv } from "./context";
import { Csrf, languageName, Page, plural, render, type Viewer } from "./pages";

/**
 * Find and replace across a brand or one hotel or page (editors of it, administrators), with the catalogue's
 * service (catalogue/find-replace.ts) that the operator API uses too. The preview is a GET that changes nothing;
 * "Replace N" posts the checked changes with the versions the preview read, and is refused, naming them, for the
 * entities someone changed since.
 */

type ReplaceContext = Context<ConsoleEnv>;

export const replaceRoutes = new Hono<ConsoleEnv>();

/** Entities the select lists at most: a brand's hotels and the organization's pages. */
const CHOICES_AT_MOST = 2_000;
/** Text of a change shown around each replacement, at most, on each side. */
const CONTEXT_CHARACTERS = 80;

const PREVIEW_FIELDS = { question: "question", answer: "answer" } as const;

interface ReplaceForm {
  scope: string;
  find: string;
  replacement: string;
  caseSensitive: boolean;
  languages: string[];
}

const formOf = (params: URLSearchParams): ReplaceForm => ({
  scope: params.get("scope") ?? "",
  find: params.get("find") ?? "",
  replacement: params.get("replacement") ?? "",
  caseSensitive: params.get("case") === "on",
  languages: params.getAll("language"),
});

const requestOf = (form: ReplaceForm) =>
  ReplaceRequest.safeParse({
    scope: form.scope,
    find: form.find,
    replacement: form.replacement,
    caseSensitive: form.caseSensitive,
    ...(form.languages.length > 0 ? { languages: form.languages } : {}),
  });

const CHOOSE_SCOPE = "Choose a brand, hotel or page.";
const FIELD_WORDS: Record<string, string | undefined> = {
  find: "The text to find",
  replacement: "The replacement",
  languages: "A language",
};

/** The brands, hotels and pages the person may edit, by name, and every language their content is in. */
async function choices(c: ReplaceContext) {
  const access = c.get("access");
  const [entities, ...languageLists] = await Promise.all([
    entitiesWithin(c.env.DB, { reach: reachOf(access), scope: access.scope, search: "", limit: CHOICES_AT_MOST }),
    ...access.scope.map(async (id) => (await brandLanguagesStatement(c.env.DB, id).all<{ language: string }>()).results),
  ]);
  const editable = entities.filter((entity) => roleOn(access, entity) === "editor");
  const languages = [...new Set(languageLists.flat().map((row) => row.language))].sort();
  return { editable, languages };
}

/** The entity a form names, when the person may edit it; else the answer that refuses it. */
async function editableScope(c: ReplaceContext, id: string): Promise<EntityRow | Response> {
  const entity = id === "" ? null : await findEntity(c.env.DB, id);
  const role = entity && roleOn(c.get("access"), entity);
  if (!entity || !role) return notInReach(c.get("viewer"));
  return role === "editor" ? entity : readOnlyContent(c.get("viewer"));
}

/** Text too long to read in a line, cut in its middle. */
const shortened = (text: string, keepStart: boolean, keepEnd: boolean): string => {
  if (text.length <= CONTEXT_CHARACTERS * 2) return text;
  const start = keepStart ? text.slice(0, CONTEXT_CHARACTERS) : "";
  const end = keepEnd ? text.slice(-CONTEXT_CHARACTERS) : "";
  return `${start}…${end}`;
};

const Change = ({ change, request }: { change: Replacement; request: ReplaceForm }) => {
  const pieces = replacedPieces(change.before, request);
  return (
    <span class="diff">
      {pieces.map((piece, index) =>
        "kept" in piece ? (
          shortened(piece.kept, index > 0, index < pieces.length - 1)
        ) : (
          <>
            <del>{piece.removed}</del>
            {piece.added && <ins>{piece.added}</ins>}
          </>
        ),
      )}
    </span>
  );
};

interface ReplaceView {
  viewer: Viewer;
  editable: EntityRow[];
  languages: string[];
  form: ReplaceForm;
  problems?: string[];
  notice?: string;
  preview?: ReplacePreview;
}

const KIND_GROUPS: { label: string; kinds: EntityRow["kind"][] }[] = [
  { label: "Brands", kinds: ["brand"] },
  { label: "Hotels", kinds: ["property"] },
  { label: "Destinations and airports", kinds: ["destination", "airport"] },
];

function PreviewList({ viewer, form, preview }: { viewer: Viewer; form: ReplaceForm; preview: ReplacePreview }) {
  const { changes } = preview;
  if (changes.length === 0)
    return (
      <p role="status" id="preview">
        “{form.find}” is not in the FAQs of {preview.scope.name}
        {form.languages.length > 0 ? ` in ${form.languages.map(languageName).join(", ")}` : ""}. Nothing to replace.
      </p>
    );
  const entities = [...new Set(changes.map((change) => change.entityId))];
  return (
    <section aria-labelledby="preview">
      <h2 id="preview">
        {plural(changes.length, "change", "changes")} in {plural(entities.length, "brand, hotel or page", "brands, hotels or pages")}
      </h2>
      {preview.more && (
        <p class="notice warn">
          There are more than {MAX_REPLACEMENTS} changes; these are the first {MAX_REPLACEMENTS}, the most one replacement makes. Replace
          them, then preview again for the rest.
        </p>
      )}
      <p class="muted">Only the checked changes are made. Untick any you want to leave as it is.</p>
      <form method="post" action="/console/replace">
        <Csrf token={viewer.csrf} />
        <input type="hidden" name="scope" value={form.scope} />
        <input type="hidden" name="find" value={form.find} />
        <input type="hidden" name="replacement" value={form.replacement} />
        {form.caseSensitive && <input type="hidden" name="case" value="on" />}
        {form.languages.map((language) => (
          <input type="hidden" name="language" value={language} />
        ))}
        <input type="hidden" name="versions" value={JSON.stringify(preview.versions)} />
        {entities.map((entityId) => {
          const ofEntity = changes.filter((change) => change.entityId === entityId);
          return (
            <fieldset>
              <legend>
                <a href={`/console/entities/${entityId}`}>{ofEntity[0]!.entityName}</a>
              </legend>
              <ul class="replacements">
                {ofEntity.map((change) => {
                  const id = `change-${changes.indexOf(change)}`;
                  return (
                    <li>
                      <input type="checkbox" id={id} name="change" value={change.key} checked />
                      <label for={id}>
                        FAQ {change.position} · {languageName(change.language)} · {PREVIEW_FIELDS[change.field]}
                      </label>
                      <p lang={change.language}>
                        <Change change={change} request={form} />
                      </p>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          );
        })}
        <button class="primary" type="submit">
          Replace {changes.length}
        </button>
      </form>
    </section>
  );
}

const replacePage = ({ viewer, editable, languages, form, problems = [], notice, preview }: ReplaceView) => (
  <Page title={preview ? `Replace “${form.find}”: preview` : "Find and replace"} viewer={viewer}>
    <p>
      <a href="/console">All your content</a>
    </p>
    <h1>Find and replace</h1>
    <p class="muted">
      Replace a text in the questions and answers of a brand and all its hotels, or of one hotel or page. You check every change before
      anything is saved; at most {MAX_REPLACEMENTS} at a time.
    </p>
    {notice && (
      <p class="notice ok" role="status">
        {notice}
      </p>
    )}
    {problems.length > 0 && (
      <div class="notice error" role="alert" id="problems">
        <p>Nothing was replaced:</p>
        <ul>
          {problems.map((message) => (
            <li>{message}</li>
          ))}
        </ul>
      </div>
    )}
    <form method="get" action="/console/replace">
      <label for="scope">Where</label>
      <select id="scope" name="scope" required>
        {KIND_GROUPS.map(({ label, kinds }) => {
          const listed = editable.filter((entity) => kinds.includes(entity.kind));
          return (
            listed.length > 0 && (
              <optgroup label={label}>
                {listed.map((entity) => (
                  <option value={entity.id} selected={entity.id === form.scope}>
                    {entity.kind === "brand" ? `${entity.name} and its hotels` : entity.name} ({entity.id})
                  </option>
                ))}
              </optgroup>
            )
          );
        })}
      </select>
      <label for="find">Find</label>
      <input id="find" name="find" type="text" required maxlength={200} value={form.find} />
      <label for="replacement">Replace with</label>
      <input id="replacement" name="replacement" type="text" maxlength={1000} value={form.replacement} />
      <p>
        <input type="checkbox" id="case" name="case" checked={form.caseSensitive} />
        <label for="case">Match capital letters exactly</label>
      </p>
      {languages.length > 1 && (
        <fieldset>
          <legend>Only in these languages (none ticked: every language)</legend>
          <ul class="links">
            {languages.map((language) => (
              <li>
                <input
                  type="checkbox"
                  id={`language-${language}`}
                  name="language"
                  value={language}
                  checked={form.languages.includes(language)}
                />
                <label for={`language-${language}`}>{languageName(language)}</label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      <button type="submit">Preview the changes</button>
    </form>
    {preview && <PreviewList viewer={viewer} form={form} preview={preview} />}
  </Page>
);

/** The page for `form`: with its preview when it was asked for, its problems when it cannot be. */
async function answerForm(c: ReplaceContext, form: ReplaceForm, status = 200, extra: Pick<ReplaceView, "problems" | "notice"> = {}) {
  const viewer = c.get("viewer");
  const { editable, languages } = await choices(c);
  if (editable.length === 0) return readOnlyContent(viewer);
  const shown = { viewer, editable, languages, form };
  const parsed = requestOf(form);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? "");
      return field === "scope" ? CHOOSE_SCOPE : `${FIELD_WORDS[field] ?? "The form"} ${issue.message}.`;
    });
    return page(render(replacePage({ ...shown, problems: [...(extra.problems ?? []), ...problems] })), 400);
  }
  const scope = await editableScope(c, parsed.data.scope);
  if (scope instanceof Response) return scope;
  const preview = await previewReplace(c.env.DB, { ...parsed.data, scope: scope.id });
  if (!preview) return notInReach(viewer);
  return page(render(replacePage({ ...shown, ...extra, form: { ...form, scope: scope.id }, preview })), status);
}

replaceRoutes.get("/console/replace", async (c) => {
  const query = new URL(c.req.url).searchParams;
  const form = formOf(query);
  if (query.has("find")) return answerForm(c, form);
  const { editable, languages } = await choices(c);
  if (editable.length === 0) return readOnlyContent(c.get("viewer"));
  const replaced = Number(query.get("replaced"));
  const notice = Number.isSafeInteger(replaced) && replaced > 0 ? `${plural(replaced, "change was", "changes were")} saved.` : undefined;
  return page(render(replacePage({ viewer: c.get("viewer"), editable, languages, form, notice })));
});

const Versions = z.record(z.string(), z.string());

replaceRoutes.post("/console/replace", async (c) => {
  const posted = c.get("form");
  const form = formOf(posted);
  const parsed = requestOf(form);
  if (!parsed.success) return answerForm(c, form);
  const scope = await editableScope(c, parsed.data.scope);
  if (scope instanceof Response) return scope;
  let versions: Record<string, string> = {};
  try {
    versions = Versions.parse(JSON.parse(posted.get("versions") ?? "{}"));
  } catch {
    // A form without the preview's versions is a preview of nothing: every change is unknown to it.
  }
  const outcome = await applyReplace(
    c.env,
    { request: { ...parsed.data, scope: scope.id }, chosen: posted.getAll("change"), versions, actor: `person:${c.get("person").email}` },
    (work) => c.executionCtx.waitUntil(work),
  );
  switch (outcome.outcome) {
    case "applied":
      return seeOther(`/console/replace?replaced=${outcome.changes}`);
    case "no_scope":
      return notInReach(c.get("viewer"));
    case "nothing_chosen":
      return answerForm(c, form, 400, { problems: ["No change was ticked. Tick the changes to make."] });
    case "too_many":
      return answerForm(c, form, 400, {
        problems: [`${outcome.chosen.toLocaleString("en")} changes were ticked; at most ${MAX_REPLACEMENTS} are made at once.`],
      });
    case "unknown":
      return answerForm(c, form, 400, {
        problems: ["Some ticked changes are not in this preview any more. Check the preview as it is now and replace again."],
      });
    case "stale":
      return answerForm(c, form, 409, {
        problems: [
          `Someone changed ${outcome.entities.map((entity) => entity.name).join(", ")} after you opened the preview. This is the preview as the FAQs are now: check it and replace again.`,
        ],
      });
    case "invalid":
      return answerForm(c, form, 400, {
        problems: outcome.problems.map((problem) => `${problem.entityName}: ${problem.message}.`),
      });
  }
});
