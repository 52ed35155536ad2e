import { Hono, type Context } from "hono";
import { CONTENT_FORMATS, formatOf, readContentFile, recordsOf, serializeContent, type ContentFormat } from "../catalogue/content-files";
import { CSV_COLUMNS, csvTemplate } from "../catalogue/csv";
import { applyImport, previewImport, type EntityPreview, type ImportPreview } from "../catalogue/content-import";
import { changeCounts, type FaqChange, type FieldChange, type FieldValue } from "../catalogue/record-changes";
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
import { Csrf, Page, plural, render, type Viewer } from "./pages";

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

const FORMAT_NAMES: Record<ContentFormat, string> = { csv: "CSV (for a spreadsheet)", ndjson: "NDJSON", json: "JSON" };
/** The formats an export offers, a spreadsheet's first. */
const EXPORT_FORMATS: ContentFormat[] = ["csv", "ndjson", "json"];

/** What each column of a CSV content file means, in the order an export writes them. */
const COLUMN_MEANINGS: Record<(typeof CSV_COLUMNS)[number], string> = {
  entity: "The ID of the brand, hotel or page the FAQ belongs to (HO-AUR-0001). Required on every row.",
  position: "The FAQ's place in its list: 1, 2, 3… Empty: after the numbered ones, in the file's order.",
  category: "The FAQ's topic (Parking, Breakfast…). Required on a row in the default language; empty on a translation.",
  question: "The question, as guests ask it. Required.",
  answer: "The answer. Required.",
  language: "Empty for the default language. On a translation row, its language (pt, pt-BR, de…).",
  source: "Empty for the default language. On a translation row, the question it translates, as its own row writes it.",
  phrasings:
    "Optional, on a row in the default language: other ways guests ask the FAQ, one a line in the cell; the search answers them with it.",
};

/** What the person may export: everything first, then each brand, hotel or page by name. */
type ExportChoice = Pick<EntityRow, "id" | "name" | "kind">;

const uploadPage = (viewer: Viewer, choices: ExportChoice[]) => (
  <Page title="Import FAQs" viewer={viewer}>
    <h1>Import FAQs from a file</h1>
    <p>
      A file in CSV (one FAQ a row, as a spreadsheet saves it), NDJSON or JSON. You see what would be added, changed and removed before
      anything changes. The FAQs of each brand, hotel or page in the file become the file's list: FAQs left out are removed.
    </p>
    <p>
      Any spreadsheet's CSV is read: UTF-8, Excel's "CSV (Comma delimited)" (Windows-1252) and "Unicode Text" (UTF-16), with commas,
      semicolons or tabs between the cells. The check says how the file was read.
    </p>
    <form method="post" action="/console/import" enctype="multipart/form-data">
      <Csrf token={viewer.csrf} />
      <label for="file">Content file</label>
      <input
        id="file"
        name="file"
        type="file"
        accept=".csv,.txt,.tsv,.json,.ndjson,.jsonl,text/csv,application/json"
        required
        aria-describedby="columns-heading"
      />
      <button class="primary" type="submit">
        Check the file
      </button>
    </form>
    <h2 id="columns-heading">The columns of a CSV file</h2>
    <p>
      The first line names the columns; entity, category, question and answer are required. Start from{" "}
      <a href="/console/import/template.csv" download>
        the template (CSV)
      </a>{" "}
      or from an export below.
    </p>
    <dl class="columns">
      {CSV_COLUMNS.map((column) => (
        <>
          <dt>
            <code>{column}</code>
          </dt>
          <dd>{COLUMN_MEANINGS[column]}</dd>
        </>
      ))}
    </dl>
    <h2>Export</h2>
    <form method="get" action="/console/export">
      <label for="scope">What to export</label>
      <select id="scope" name="scope">
        <option value="all">Everything I may see</option>
        {choices.map((entity) => (
          <option value={entity.id}>
            {entity.name} ({entity.id}){entity.kind === "brand" ? ", with its hotels" : ""}
          </option>
        ))}
      </select>
      <label for="format">Format</label>
      <select id="format" name="format">
        {EXPORT_FORMATS.map((format) => (
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

/** The entities an import changes (adds, changes or removes), in the file's order. */
const changing = (preview: ImportPreview) => preview.entities.filter((entity) => entity.status !== "unchanged");

const entityCounts = (entity: EntityPreview) => changeCounts(entity.changes, (entity.after ?? entity.before)?.defaultLanguage ?? "en");

/** The import's totals, in one sentence each: what the content team checks before anything else. */
function summaryOf(preview: ImportPreview, encoding: string): string[] {
  const totals = preview.entities.reduce(
    (sum, entity) => {
      const counts = entityCounts(entity);
      for (const kind of ["added", "changed", "removed"] as const) {
        sum.faqs[kind] += counts.faqs[kind];
        sum.translations[kind] += counts.translations[kind];
      }
      sum.fields += entity.status === "removed" ? 0 : counts.fields;
      return sum;
    },
    { faqs: { added: 0, changed: 0, removed: 0 }, translations: { added: 0, changed: 0, removed: 0 }, fields: 0 },
  );
  const lines = [
    `Read as ${encoding}.`,
    `FAQs added: ${totals.faqs.added}, changed: ${totals.faqs.changed}, removed: ${totals.faqs.removed}.`,
  ];
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

/** What an import did to one entity, counted: "2 FAQs changed, 1 translation added, name changed". */
function countWords(entity: EntityPreview): string {
  const counts = entityCounts(entity);
  const words = (["added", "changed", "removed"] as const).flatMap((kind) => [
    ...(counts.faqs[kind] > 0 ? [`${plural(counts.faqs[kind], "FAQ", "FAQs")} ${kind}`] : []),
    ...(counts.translations[kind] > 0 ? [`${plural(counts.translations[kind], "translation", "translations")} ${kind}`] : []),
  ]);
  if (entity.status !== "removed" && counts.fields > 0) words.push(plural(counts.fields, "detail", "details") + " changed");
  return words.join(", ") || STATUS_WORDS[entity.status];
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

/** A removed FAQ's question and answer as they were: what the confirmation removes, read before it goes. */
function removedFields(entity: EntityPreview, faq: FaqChange): FieldChange[] {
  const before = entity.before;
  if (!before) return [];
  const own = (before.defaultLanguage ?? "en") === faq.language;
  const rows: { question: string; answer: string }[] = own
    ? before.faqs
    : (before.translations?.find((translation) => translation.language === faq.language)?.faqs ?? []);
  const row = rows.find((candidate) => candidate.question === faq.question);
  return row
    ? [
        { field: "question", before: row.question, after: null },
        { field: "answer", before: row.answer, after: null },
      ]
    : [];
}

/** What the import does to one entity: its fields, then each FAQ it adds, changes or removes, old and new, language by language. */
const EntityChanges = ({ entity }: { entity: EntityPreview }) => (
  <section class="entity" aria-labelledby={`entity-${entity.id}`}>
    <h2 id={`entity-${entity.id}`}>
      {entity.name} ({entity.id}): {STATUS_WORDS[entity.status]}
    </h2>
    {entity.status !== "removed" && entity.changes.fields.length > 0 && <ChangeTable caption="Details" rows={entity.changes.fields} />}
    {entity.changes.faqs.map((faq) => (
      <ChangeTable
        caption={`${CHANGE_WORDS[faq.change]} (${faq.language}): ${faq.question}`}
        rows={faq.change === "removed" ? removedFields(entity, faq) : faq.fields}
      />
    ))}
  </section>
);

/** The confirmation an import that removes anything needs: its value names exactly what it removes. */
const removalKey = (preview: ImportPreview) => `${preview.removals}/${preview.entityRemovals}`;
const removalWords = (preview: ImportPreview) =>
  preview.entityRemovals > 0
    ? `Remove these ${preview.entityRemovals} ${preview.entityRemovals === 1 ? "brand, hotel or page" : "brands, hotels or pages"} and ${preview.removals} FAQs`
    : `Remove these ${preview.removals} FAQs`;
const removes = (preview: ImportPreview) => preview.removals + preview.entityRemovals > 0;

/**
 * The check of an upload: the summary, then the confirmation, then only the entities that change, each change old
 * and new. The button comes before the details so a long import is committed without scrolling past them; a second
 * one after them submits the same form.
 */
const previewPage = (viewer: Viewer, preview: ImportPreview, encoding: string, notice?: string) => (
  <Page title="Check the import" viewer={viewer}>
    <h1>Check the import</h1>
    {notice && (
      <p class="notice error" role="alert">
        {notice}
      </p>
    )}
    <div id="summary">
      {summaryOf(preview, encoding).map((line) => (
        <p>{line}</p>
      ))}
    </div>
    <form method="post" action="/console/import/confirm" id="confirm-import">
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
    {changing(preview).map((entity) => (
      <EntityChanges entity={entity} />
    ))}
    {changing(preview).length > 1 && (
      <p>
        <button class="primary" type="submit" form="confirm-import">
          Import
        </button>
      </p>
    )}
  </Page>
);

/** What was saved, by entity: the content team's record of the import. */
const importedPage = (viewer: Viewer, preview: ImportPreview) => {
  const changed = changing(preview);
  return (
    <Page title="Imported" viewer={viewer}>
      <h1>Imported</h1>
      <p class="notice ok" role="status">
        {changed.length === 0
          ? "The file matches what is stored: nothing changed."
          : `Saved: ${plural(changed.length, "brand, hotel or page", "brands, hotels or pages")} changed.`}
      </p>
      {changed.length > 0 && (
        <ul id="saved">
          {changed.map((entity) => (
            <li>
              {entity.name} ({entity.id}): {countWords(entity)}
            </li>
          ))}
        </ul>
      )}
      <p>
        <a href="/console">Back to your content</a> · <a href="/console/import">Import another file</a>
      </p>
    </Page>
  );
};

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

/** The entities the person may see, by name: what an export may hold. */
async function visibleEntities(c: ImportContext): Promise<EntityRow[]> {
  const access = c.get("access");
  const within = await entitiesWithin(c.env.DB, { reach: reachOf(access), scope: access.scope, search: "", limit: EXPORT_LIMIT });
  return within.filter((entity) => roleOn(access, entity) !== null);
}

importRoutes.get("/console/import", async (c) => {
  if (!canImport(c.get("access"))) return readOnly(c);
  return page(render(uploadPage(c.get("viewer"), await visibleEntities(c))));
});

importRoutes.get("/console/import/template.csv", (c) => {
  if (!canImport(c.get("access"))) return readOnly(c);
  return csvFile(csvTemplate(), "faq-template.csv");
});

/** A file kept between the check and the confirmation: its text, format and how its bytes were read. */
interface KeptFile {
  text: string;
  format: ContentFormat;
  encoding: string;
}

importRoutes.post("/console/import", async (c) => {
  if (!canImport(c.get("access"))) return readOnly(c);
  const form = c.get("form");
  const undecodable = form.get("file.problem");
  if (undecodable !== null) {
    const line = Number(form.get("file.line") ?? "1");
    return page(render(problemsPage(c.get("viewer"), [{ line, field: "The file", message: undecodable }])), 400);
  }
  const text = form.get("file") ?? "";
  const kept: KeptFile = { text, format: formatOf(form.get("file.name") ?? "", text), encoding: form.get("file.encoding") ?? "UTF-8" };
  const read = await planned(c, kept.text, kept.format);
  if ("response" in read) return read.response;
  await c.env.OAUTH_KV.put(await keptKey(c, read.preview.digest), JSON.stringify(kept), { expirationTtl: KEPT_SECONDS });
  return page(render(previewPage(c.get("viewer"), read.preview, kept.encoding)));
});

importRoutes.post("/console/import/confirm", async (c) => {
  if (!canImport(c.get("access"))) return readOnly(c);
  const form = c.get("form");
  const digest = form.get("digest") ?? "";
  const key = await keptKey(c, /^[0-9a-f]{64}$/.test(digest) ? digest : "none");
  const kept = await c.env.OAUTH_KV.get<KeptFile>(key, "json");
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
          kept.encoding,
          "The content changed since you checked the file; nothing was imported. Check what the import would do now.",
        ),
      ),
      409,
    );
  }
  if (removes(preview) && form.get("remove") !== removalKey(preview)) {
    const words = removalWords(preview);
    return page(
      render(
        previewPage(
          c.get("viewer"),
          preview,
          kept.encoding,
          `Nothing was imported: this import removes content. Tick "${words}" to confirm.`,
        ),
      ),
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
  return page(render(importedPage(c.get("viewer"), preview)));
});

const CONTENT_TYPES: Record<ContentFormat, string> = { csv: "text/csv", json: "application/json", ndjson: "application/x-ndjson" };

/** A file to save, never shown in the browser. */
const download = (body: string, format: ContentFormat, name: string) =>
  new Response(body, {
    headers: {
      "Content-Type": `${CONTENT_TYPES[format]}; charset=utf-8`,
      "Content-Disposition": `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
const csvFile = (body: string, name: string) => download(body, "csv", name);

importRoutes.get("/console/export", async (c) => {
  const scope = (c.req.query("scope") ?? "all").trim();
  const format = c.req.query("format") ?? "csv";
  if (!(CONTENT_FORMATS as readonly string[]).includes(format)) return problem(c, 400, "Unknown format", "Choose CSV, NDJSON or JSON.");
  const entities = (await visibleEntities(c))
    .filter((entity) => scope === "all" || entity.id === scope || entity.brand_id === scope)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (entities.length === 0) return problem(c, 404, "Not found", "There is no brand, hotel or page with this ID that you may see.");
  const body = serializeContent(await recordsOf(c.env.DB, entities), format as ContentFormat);
  return download(body, format as ContentFormat, `${scope === "all" ? "content" : scope}.${format}`);
});
