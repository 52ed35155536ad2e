import { Hono, type Context } from "hono";
import { CONTENT_FORMATS, formatOf, readContentFile, recordsOf, serializeContent, type ContentFormat } from "../catalogue/content-files";
import { applyImport, previewImport, type EntityPreview, type ImportPreview } from "../catalogue/content-import";
import { changeCounts, type FieldChange, type FieldValue } from "../catalogue/record-changes";
import type { StagedRecord } from "../catalogue/plan";
import type { RowError } from "../catalogue/records";
import { sha256Hex } from "../crypto/hash";
import type { Env } from "../env";
import { entitiesByIdOrBrand, entitiesWithin, type EntityRow } from "../storage/entities";
import { entitiesGrantedOutside } from "../storage/console-grants";
import { entitiesInOtherScopes } from "../storage/organizations";
import type { PersonRow } from "../storage/people";
import { reachOf, roleOn, type ConsoleAccess } from "./access";
import { page, problem as problemAnswer } from "./answers";
import { Csrf, Page, render, type Viewer } from "./pages";

/**
 * Imports and exports of whole content files in the console. An upload is read and planned (the operator's plan),
 * and its text kept for 30 minutes in KV under the session and the preview's digest; the confirmation names the
 * digest, so what is applied is the file that was previewed, planned again on what is stored then. An import that
 * touches an entity the person may not edit is refused whole. Removals need the explicit "Remove these N FAQs".
 */

type ImportEnv = {
  Bindings: Env;
  Variables: { person: PersonRow; access: ConsoleAccess; viewer: Viewer; form: URLSearchParams; token: string };
};
type ImportContext = Context<ImportEnv>;

const KEPT_SECONDS = 1800;
const EXPORT_LIMIT = 100_000;

export const importRoutes = new Hono<ImportEnv>();

const problem = (c: ImportContext, status: number, heading: string, message: string) =>
  problemAnswer(status, heading, message, c.get("viewer"));

const keptKey = async (c: ImportContext, digest: string) => `console-import:${await sha256Hex(c.get("token"))}:${digest}`;

const FORMAT_NAMES: Record<ContentFormat, string> = { ndjson: "NDJSON", json: "JSON", csv: "CSV" };

const uploadPage = (viewer: Viewer) => (
  <Page title="Import FAQs" viewer={viewer}>
    <h1>Import FAQs from a file</h1>
    <p>
      A file in NDJSON, JSON or CSV (one FAQ a row). You see what would be added, changed and removed before anything changes. The FAQs of
      each brand, hotel or page in the file become the file's list: FAQs left out are removed.
    </p>
    <form method="post" action="/console/import" enctype="multipart/form-data">
      <Csrf token={viewer.csrf} />
      <label for="file">Content file</label>
      <input id="file" name="file" type="file" accept=".csv,.json,.ndjson,.jsonl,text/csv,application/json" required />
      <button class="primary" type="submit">
        Check the file
      </button>
    </form>
    <h2>Export</h2>
    <form method="get" action="/console/export">
      <label for="scope">What to export</label>
      <input id="scope" name="scope" value="all" />
      <label for="format">Format</label>
      <select id="format" name="format">
        {CONTENT_FORMATS.map((format) => (
          <option value={format}>{FORMAT_NAMES[format]}</option>
        ))}
      </select>{" "}
      <button type="submit">Export</button>
    </form>
  </Page>
);

const problemCount = (n: number) => (n === 1 ? "1 problem" : `${n.toLocaleString("en")} problems`);

const problemsPage = (viewer: Viewer, errors: RowError[], more = 0, unchecked = 0) => (
  <Page title="The file has problems" viewer={viewer}>
    <h1>Nothing was imported: the file has {problemCount(errors.length + more)}</h1>
    <p class="notice error" role="alert">
      Fix every problem below in the file, then upload it again.
    </p>
    <table>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Field</th>
          <th scope="col">Problem</th>
        </tr>
      </thead>
      <tbody>
        {errors.map((error) => (
          <tr class="problem">
            <td>{error.line}</td>
            <td>{error.field}</td>
            <td>
              {error.field} {error.message}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
    {more > 0 && (
      <p id="more-problems">
        …and {problemCount(more).replace("problem", "more problem")}: fix these, then upload the file again to see the rest.
      </p>
    )}
    {unchecked > 0 && (
      <p id="unchecked">
        Checking stopped there: {unchecked.toLocaleString("en")} more {unchecked === 1 ? "record was" : "records were"} not checked.
      </p>
    )}
    <p>
      <a href="/console/import">Upload a file again</a>
    </p>
  </Page>
);

const STATUS_WORDS = { added: "new", changed: "changed", removed: "removed with its FAQs", unchanged: "no change" } as const;
const CHANGE_WORDS = { added: "Added", changed: "Changed", removed: "Removed" } as const;
const FIELD_WORDS: Record<string, string> = {
  name: "Name",
  url: "Web page",
  brandId: "Brand",
  propertyId: "Partner's property number",
  defaultLanguage: "Language of its FAQs",
  question: "Question",
  answer: "Answer",
  category: "Category",
};
const fieldWords = (field: string) => FIELD_WORDS[field] ?? field.replace(/^name \((.+)\)$/, "Name in $1");
const valueText = (value: FieldValue) => (value === null ? "(none)" : String(value));

/** The import's totals, in one sentence each: what the content team checks before anything else. */
function summaryOf(preview: ImportPreview): string[] {
  const totals = preview.entities.reduce(
    (sum, entity) => {
      const counts = changeCounts(entity.changes, (entity.after ?? entity.before)?.defaultLanguage ?? "en");
      for (const kind of ["added", "changed", "removed"] as const) {
        sum.faqs[kind] += counts.faqs[kind];
        sum.translations[kind] += counts.translations[kind];
      }
      sum.fields += entity.status === "removed" ? 0 : counts.fields;
      return sum;
    },
    { faqs: { added: 0, changed: 0, removed: 0 }, translations: { added: 0, changed: 0, removed: 0 }, fields: 0 },
  );
  const lines = [`FAQs added: ${totals.faqs.added}, changed: ${totals.faqs.changed}, removed: ${totals.faqs.removed}.`];
  const t = totals.translations;
  if (t.added + t.changed + t.removed > 0) lines.push(`Translations added: ${t.added}, changed: ${t.changed}, removed: ${t.removed}.`);
  if (totals.fields > 0) lines.push(`Details changed (names, web pages, brands): ${totals.fields}.`);
  const by = (status: EntityPreview["status"]) => preview.entities.filter((entity) => entity.status === status).length;
  const entities = [
    ["new", by("added")],
    ["changed", by("changed")],
    ["removed", by("removed")],
    ["unchanged", by("unchanged")],
  ].filter(([, n]) => n !== 0);
  lines.push(`Brands, hotels and pages: ${entities.map(([word, n]) => `${n} ${word}`).join(", ")}.`);
  return lines;
}

const ChangeTable = ({ caption, rows }: { caption: string; rows: FieldChange[] }) => (
  <table class="changes">
    <caption>{caption}</caption>
    <thead>
      <tr>
        <th scope="col">Field</th>
        <th scope="col">Before</th>
        <th scope="col">After</th>
      </tr>
    </thead>
    <tbody>
      {rows.map((row) => (
        <tr>
          <th scope="row">{fieldWords(row.field)}</th>
          <td class="before">{valueText(row.before)}</td>
          <td class="after">{valueText(row.after)}</td>
        </tr>
      ))}
    </tbody>
  </table>
);

/** What the import does to one entity: its fields, then each FAQ it adds, changes or removes, language by language. */
const EntityChanges = ({ entity }: { entity: EntityPreview }) => (
  <section class="entity">
    <h2>
      {entity.name} ({entity.id}): {STATUS_WORDS[entity.status]}
    </h2>
    {entity.status !== "removed" && entity.changes.fields.length > 0 && <ChangeTable caption="Details" rows={entity.changes.fields} />}
    {entity.changes.faqs.map((faq) =>
      faq.change === "changed" ? (
        <ChangeTable caption={`${CHANGE_WORDS[faq.change]} (${faq.language}): ${faq.question}`} rows={faq.fields} />
      ) : (
        <details class={faq.change}>
          <summary>
            {CHANGE_WORDS[faq.change]} ({faq.language}): {faq.question}
          </summary>
          {faq.fields.map((field) => (
            <p>
              <strong>{fieldWords(field.field)}:</strong> {valueText(field.after)}
            </p>
          ))}
        </details>
      ),
    )}
  </section>
);

/** The confirmation an import that removes anything needs: its value names exactly what it removes. */
const removalKey = (preview: ImportPreview) => `${preview.removals}/${preview.entityRemovals}`;
const removalWords = (preview: ImportPreview) =>
  preview.entityRemovals > 0
    ? `Remove these ${preview.entityRemovals} ${preview.entityRemovals === 1 ? "brand, hotel or page" : "brands, hotels or pages"} and ${preview.removals} FAQs`
    : `Remove these ${preview.removals} FAQs`;
const removes = (preview: ImportPreview) => preview.removals + preview.entityRemovals > 0;

const previewPage = (viewer: Viewer, preview: ImportPreview, notice?: string) => (
  <Page title="Check the import" viewer={viewer}>
    <h1>Check the import</h1>
    {notice && (
      <p class="notice error" role="alert">
        {notice}
      </p>
    )}
    <div id="summary">
      {summaryOf(preview).map((line) => (
        <p>{line}</p>
      ))}
    </div>
    {preview.entities
      .filter((entity) => entity.status !== "unchanged")
      .map((entity) => (
        <EntityChanges entity={entity} />
      ))}
    <form method="post" action="/console/import/confirm">
      <Csrf token={viewer.csrf} />
      <input type="hidden" name="digest" value={preview.digest} />
      {removes(preview) && (
        <p>
          <input type="checkbox" id="confirm-removals" name="remove" value={removalKey(preview)} />
          <label for="confirm-removals">{removalWords(preview)}</label>
        </p>
      )}
      <button class="primary" type="submit">
        Import
      </button>{" "}
      <a href="/console/import">Cancel</a>
    </form>
  </Page>
);

/** The entities of `records` (and, for a new property, its brand) the person may not edit, by line. */
async function outOfReach(c: ImportContext, records: StagedRecord[]): Promise<RowError[]> {
  const access = c.get("access");
  const refused: RowError[] = [];
  const found = new Map(
    (
      await entitiesByIdOrBrand(
        c.env.DB,
        records.map(({ record }) => record.id),
        [],
      )
    ).map((entity) => [entity.id, entity]),
  );
  for (const { line, record } of records) {
    const stored = found.get(record.id) ?? null;
    const target: Pick<EntityRow, "id" | "brand_id"> = stored ?? {
      id: record.id,
      brand_id: record.kind === "property" ? record.brandId : null,
    };
    // A property moved to another brand needs the right to edit that brand itself, not only the property.
    const moved = stored !== null && record.kind === "property" && stored.brand_id !== record.brandId;
    if (
      roleOn(access, target) !== "editor" ||
      (record.kind === "property" && roleOn(access, { id: record.id, brand_id: record.brandId }) !== "editor") ||
      (moved && roleOn(access, { id: record.brandId, brand_id: null }) !== "editor")
    ) {
      refused.push({ line, field: "id", message: `${record.id}: you may not change this brand, hotel or page, so nothing was imported` });
    }
  }
  return refused;
}

type Read = { preview: ImportPreview } | { response: Response };

/**
 * Of the entities an import would remove, those another organization has in its scope or gives a role on, itself
 * or through its brand (a brand stands for its properties): removing an entity removes it from them too, so one
 * organization's file must not take it from another.
 */
async function sharedRemovals(c: ImportContext, preview: ImportPreview): Promise<string[]> {
  const removed = preview.entities
    .filter((entity) => entity.status === "removed")
    .map((entity) => ({ id: entity.id, brand: entity.before?.kind === "property" ? entity.before.brandId : null }));
  if (removed.length === 0) return [];
  const organization = c.get("person").organization_id;
  const asked = [...new Set(removed.flatMap(({ id, brand }) => (brand === null ? [id] : [id, brand])))];
  const [scoped, granted] = await Promise.all([
    entitiesInOtherScopes(c.env.DB, asked, organization),
    entitiesGrantedOutside(c.env.DB, asked, organization),
  ]);
  const held = new Set([...scoped, ...granted]);
  return removed.filter(({ id, brand }) => held.has(id) || (brand !== null && held.has(brand))).map(({ id }) => id);
}

/** Reads, checks and plans an uploaded file's text, or the page that refuses it. */
async function planned(c: ImportContext, text: string, format: ContentFormat): Promise<Read> {
  const viewer = c.get("viewer");
  const access = c.get("access");
  const read = await readContentFile(c.env.DB, text, format, (entity) => roleOn(access, entity) === "editor");
  if (read.records.length === 0 && read.errors.length === 0) {
    return { response: await problem(c, 400, "The file is empty", "The file holds no FAQs. Nothing was imported.") };
  }
  const refused = await outOfReach(c, read.records);
  if (refused.length > 0) {
    return {
      response: await problem(
        c,
        403,
        "You may not import this file",
        `Nothing was imported. ${refused.map((r) => r.message.split(":")[0]).join(", ")}: you may not change ${refused.length === 1 ? "it" : "them"}.`,
      ),
    };
  }
  if (read.errors.length > 0) return { response: await page(render(problemsPage(viewer, read.errors, read.more, read.unchecked)), 400) };
  const preview = await previewImport(c.env.DB, read.records, { faqListsOnly: format === "csv" });
  if (preview.plan.errors.length > 0) return { response: await page(render(problemsPage(viewer, preview.plan.errors)), 400) };
  const shared = await sharedRemovals(c, preview);
  if (shared.length > 0) {
    return {
      response: await problem(
        c,
        403,
        "Only the operator can remove these",
        `Nothing was imported. The file leaves out ${shared.join(", ")}, which another organization also publishes or looks after, so removing ${shared.length === 1 ? "it" : "them"} is the operator's decision. Keep ${shared.length === 1 ? "it" : "them"} in the file, or ask your operator.`,
      ),
    };
  }
  return { preview };
}

const canImport = (access: ConsoleAccess) => access.grants.some((grant) => grant.role !== "viewer");

// Before a file is read: a person who may edit nothing is refused without the cost of parsing it.
const readOnly = (c: ImportContext) =>
  problem(c, 403, "You can read content but not change it", "Ask your organization's administrator if you need to import FAQs.");

importRoutes.get("/console/import", (c) => {
  if (!canImport(c.get("access"))) return readOnly(c);
  return page(render(uploadPage(c.get("viewer"))));
});

importRoutes.post("/console/import", async (c) => {
  if (!canImport(c.get("access"))) return readOnly(c);
  const form = c.get("form");
  const text = form.get("file") ?? "";
  const format = formatOf(form.get("file.name") ?? "", text);
  const read = await planned(c, text, format);
  if ("response" in read) return read.response;
  await c.env.OAUTH_KV.put(await keptKey(c, read.preview.digest), JSON.stringify({ text, format }), { expirationTtl: KEPT_SECONDS });
  return page(render(previewPage(c.get("viewer"), read.preview)));
});

importRoutes.post("/console/import/confirm", async (c) => {
  if (!canImport(c.get("access"))) return readOnly(c);
  const form = c.get("form");
  const digest = form.get("digest") ?? "";
  const key = await keptKey(c, /^[0-9a-f]{64}$/.test(digest) ? digest : "none");
  const kept = await c.env.OAUTH_KV.get<{ text: string; format: ContentFormat }>(key, "json");
  if (!kept)
    return problem(
      c,
      410,
      "This import is no longer waiting",
      "Nothing was imported. The check is kept for 30 minutes: upload the file again.",
    );
  const read = await planned(c, kept.text, kept.format);
  if ("response" in read) return read.response;
  const { preview } = read;
  if (preview.digest !== digest) {
    await c.env.OAUTH_KV.put(await keptKey(c, preview.digest), JSON.stringify(kept), { expirationTtl: KEPT_SECONDS });
    return page(
      render(
        previewPage(
          c.get("viewer"),
          preview,
          "The content changed since you checked the file; nothing was imported. Check what the import would do now.",
        ),
      ),
      409,
    );
  }
  if (removes(preview) && form.get("remove") !== removalKey(preview)) {
    const words = removalWords(preview);
    return page(
      render(previewPage(c.get("viewer"), preview, `Nothing was imported: this import removes content. Tick "${words}" to confirm.`)),
      400,
    );
  }
  const applied = await applyImport(c.env, preview, `person:${c.get("person").email}`, (work) => c.executionCtx.waitUntil(work));
  if (!applied)
    return problem(
      c,
      409,
      "Someone changed this content meanwhile",
      "Nothing was imported. Upload the file again to see what it would do now.",
    );
  await c.env.OAUTH_KV.delete(key);
  const changed = preview.entities.filter((e) => e.status !== "unchanged").length;
  return page(
    render(
      <Page title="Imported" viewer={c.get("viewer")}>
        <h1>Imported</h1>
        <p class="notice ok" role="status">
          {changed === 0
            ? "The file matches what is stored: nothing changed."
            : `Saved: ${changed} ${changed === 1 ? "brand, hotel or page" : "brands, hotels or pages"} changed.`}
        </p>
        <p>
          <a href="/console">Back to your content</a>
        </p>
      </Page>,
    ),
  );
});

importRoutes.get("/console/export", async (c) => {
  const access = c.get("access");
  const scope = (c.req.query("scope") ?? "all").trim();
  const format = c.req.query("format") ?? "ndjson";
  if (!(CONTENT_FORMATS as readonly string[]).includes(format)) return problem(c, 400, "Unknown format", "Choose NDJSON, JSON or CSV.");
  const within = await entitiesWithin(c.env.DB, { reach: reachOf(access), scope: access.scope, search: "", limit: EXPORT_LIMIT });
  const entities = within
    .filter((entity) => roleOn(access, entity) !== null && (scope === "all" || entity.id === scope || entity.brand_id === scope))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (entities.length === 0) return problem(c, 404, "Not found", "There is no brand, hotel or page with this ID that you may see.");
  const body = serializeContent(await recordsOf(c.env.DB, entities), format as ContentFormat);
  const type = format === "csv" ? "text/csv" : format === "json" ? "application/json" : "application/x-ndjson";
  const name = `${scope === "all" ? "content" : scope}.${format}`.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(body, {
    headers: {
      "Content-Type": `${type}; charset=utf-8`,
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
