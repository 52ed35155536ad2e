import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { rejectedPlan, type ContentPlan, type StagedRecord } from "../catalogue/plan";
import { applyImport, previewImport, type ImportPreview } from "../catalogue/content-import";
import { readContentFile } from "../catalogue/content-files";
import { csvTemplate, withRosters } from "../catalogue/csv";
import { withUnlisted } from "../catalogue/file-bounds";
import { ContentRecord, parseRecord, RowError, toRecord } from "../catalogue/records";
import { forgetContentVersion } from "../catalogue/snapshot";
import { randomId } from "../crypto/random";
import { charsetOf, decodeTextFile, encodingWords } from "../http/text-files";
import {
  deleteImport,
  deleteImportRows,
  deleteStaleImports,
  findImport,
  insertImport,
  stagedRows,
  stageRows,
  type StagedRow,
} from "../storage/content-imports";
import { countProperties, deleteEntities, findEntity } from "../storage/entities";
import { groupByEntity, listEntityFaqPage } from "../storage/faqs";
import { requestDispatch } from "../storage/webhook-queue";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, IdParam, SafeId, Timestamp } from "./openapi";
import { itemsOf, resource } from "./operation";

/**
 * Content import in three steps, so a file of any size is checked whole and applied at once:
 * rows are uploaded in chunks to a staged import (each row validated and kept with its errors),
 * the plan says what would be added, changed and removed, and the commit applies all of it in one
 * D1 batch (one transaction) or nothing. Export pages through the same record format.
 */

export const MAX_ROWS_PER_REQUEST = 2000;
const MAX_RECORD_BYTES = 256 * 1024;
const STALE_IMPORT_MS = 24 * 3_600_000;
const MAX_ERRORS_SHOWN = 1000;

const ImportStatus = z
  .object({ id: z.string(), createdAt: Timestamp, rows: z.number().int(), invalid: z.number().int() })
  .openapi("ImportStatus");
const RowsUpload = z.strictObject({
  rows: z
    // `record` is any JSON (each is checked by line after upload) but must be there: say so, as z.unknown() does not.
    .array(z.strictObject({ line: z.number().int().min(1), record: z.unknown() }).openapi({ required: ["line", "record"] }))
    .min(1)
    .max(MAX_ROWS_PER_REQUEST)
    .openapi({ description: "Rows with their line in the file (NDJSON) or position (JSON array); sending a line again replaces it." }),
});
const CsvUpload = z
  .strictObject({
    // Bounded by the request's size (4 MiB, as a chunk of rows), not here.
    csv: z.string().openapi({
      description:
        "A CSV content file, one FAQ a row (docs/operator-cli.md): the FAQ lists of stored entities. The request is at most 4 MiB. Sending one replaces the import's rows.",
    }),
  })
  .openapi({
    description:
      "The file as JSON text, or its bytes as `text/csv` (or `text/tab-separated-values`): UTF-8 with or without a byte order mark, UTF-16 with one, or Windows-1252, as the Content-Type's charset says or else as the bytes show; cells separated by commas, semicolons or tabs.",
  });
/** Media types the CSV upload takes as the file's own bytes. */
const CSV_FILE_TYPES = ["text/csv", "text/tab-separated-values"];
const RowsAccepted = z
  .object({
    received: z.number().int(),
    invalid: z.array(RowError),
    encoding: z.string().optional().openapi({ description: "How a CSV file's bytes were read (Windows-1252, UTF-16…)." }),
  })
  .openapi("RowsAccepted");
const ImportPlan = z
  .object({
    importId: z.string(),
    rows: z.number().int(),
    valid: z.boolean(),
    errors: z.array(RowError).openapi({ description: `Every problem, by line (the first ${MAX_ERRORS_SHOWN}).` }),
    errorCount: z.number().int(),
    summary: z.object({
      entities: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int(), unchanged: z.number().int() }),
      faqs: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int() }).openapi({
        description: "FAQs in their entity's default language.",
      }),
      translations: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int() }).openapi({
        description: "FAQs in other languages.",
      }),
    }),
    added: z.array(z.string()),
    changed: z.array(z.string()),
    removed: z.array(z.string()),
  })
  .openapi("ImportPlan");
const ImportCommitted = ImportPlan.extend({ contentVersion: z.number().int() }).openapi("ImportCommitted");
const ExportPage = z
  .object({ records: z.array(ContentRecord), next: z.string().optional().openapi({ description: "Pass as `after` for the next page." }) })
  .openapi("ExportPage");

const EntityParam = z.object({ entityId: SafeId.openapi({ param: { name: "entityId", in: "path" } }) });
const ExportQuery = z.object({
  after: z
    .string()
    .max(128)
    .default("")
    .openapi({ param: { name: "after", in: "query" } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(200)
    .openapi({ param: { name: "limit", in: "query" } }),
});

const problems = (n: number) => (n === 1 ? "1 problem" : `${n} problems`);

/** The staged rows as records, or every validation error they carry. */
function readStaged(rows: StagedRow[]): { records: StagedRecord[]; errors: RowError[] } {
  const records: StagedRecord[] = [];
  const errors: RowError[] = [];
  for (const row of rows) {
    if (row.errors !== null) errors.push(...(JSON.parse(row.errors) as RowError[]));
    else records.push({ line: row.line, record: ContentRecord.parse(JSON.parse(row.record)) });
  }
  return { records, errors };
}

function planView(importId: string, rows: number, plan: Pick<ContentPlan, "errors" | "summary" | "ids">) {
  return {
    importId,
    rows,
    valid: plan.errors.length === 0,
    errors: plan.errors.slice(0, MAX_ERRORS_SHOWN),
    errorCount: plan.errors.length,
    summary: plan.summary,
    ...plan.ids,
  };
}

export function contentRoutes(app: OpenAPIHono<AdminEnv>): void {
  /** The import's plan from its staged rows and what is stored now. */
  // The valid rows are planned even beside invalid ones, so one plan reports every problem of the file.
  /** What committing the staged rows would do (the console's import path), and every problem of the rows. */
  async function previewOf(db: D1Database, importId: string): Promise<{ preview: ImportPreview; plan: ContentPlan; errors: RowError[] }> {
    const staged = readStaged(await stagedRows(db, importId));
    const preview = await previewImport(db, staged.records);
    const errors = [...staged.errors, ...preview.plan.errors];
    return { preview, plan: staged.errors.length > 0 ? rejectedPlan(errors) : preview.plan, errors };
  }

  const imports = resource(app, {
    tag: "Content",
    path: "/imports",
    noun: "import",
    params: IdParam,
    item: ImportStatus,
    load: (c, { params }) => findImport(c.env.DB, params.id),
    view: (found) => ({ id: found.id, createdAt: found.created_at, rows: found.rows, invalid: found.invalid }),
  });

  imports.create(
    { summary: "Start a content import", description: "An empty import to upload rows to.", schema: ImportStatus },
    async (c) => {
      const id = randomId("import_");
      const now = new Date();
      await c.env.DB.batch([
        deleteStaleImports(c.env.DB, new Date(now.getTime() - STALE_IMPORT_MS).toISOString()),
        insertImport(c.env.DB, id, now.toISOString(), c.get("operator")),
      ]);
      return { id, createdAt: now.toISOString(), rows: 0, invalid: 0 };
    },
  );

  imports.get("How many rows an import holds, and how many are invalid", "The import.");

  imports.on(
    {
      method: "post",
      path: "/rows",
      body: RowsUpload,
      summary: `Upload up to ${MAX_ROWS_PER_REQUEST} rows; each is validated and kept, nothing is applied`,
      description: "What was received, and the invalid rows by line and field.",
      schema: RowsAccepted,
    },
    async (c, found, { body }) => {
      const invalid: RowError[] = [];
      const rows = body.rows.map(({ line, record }): StagedRow => {
        const text = JSON.stringify(record ?? null);
        const parsed =
          text.length > MAX_RECORD_BYTES
            ? { errors: [{ line, field: "(record)", message: `is larger than ${MAX_RECORD_BYTES} bytes` }] }
            : parseRecord(line, record);
        if ("errors" in parsed) {
          invalid.push(...parsed.errors);
          // Kept (truncated) only so the plan and commit know the import has a bad row.
          return { line, entity_id: null, record: text.slice(0, 1024), errors: JSON.stringify(parsed.errors) };
        }
        return { line, entity_id: parsed.record.id, record: text, errors: null };
      });
      await c.env.DB.batch(stageRows(c.env.DB, found.id, rows));
      return { received: rows.length, invalid };
    },
  );

  imports.on(
    {
      method: "post",
      path: "/csv",
      body: CsvUpload,
      files: CSV_FILE_TYPES,
      summary: "Upload a CSV file whole; its rows are read into records, checked and kept, nothing is applied",
      description: "What was received (one row per entity), and every problem by CSV line and column.",
      schema: RowsAccepted,
    },
    async (c, found, { body }) => {
      const db = c.env.DB;
      const sent = body as z.output<typeof CsvUpload> | undefined;
      const file = sent
        ? { text: sent.csv }
        : decodeTextFile(new Uint8Array(await c.req.arrayBuffer()), charsetOf(c.req.header("Content-Type")));
      if (!("text" in file)) {
        return adminError(c, 400, `The file cannot be read as text: line ${file.line} ${file.message}.`, [
          { line: file.line, field: "(file)", message: file.message },
        ]);
      }
      const read = await readContentFile(db, file.text, "csv");
      const invalid = withUnlisted(read);
      // A file with problems keeps only them, one row per line, so the plan and commit report all of them.
      const rows: StagedRow[] =
        invalid.length > 0
          ? [...Map.groupBy(invalid, (error) => error.line)].map(([line, errors]) => ({
              line,
              entity_id: null,
              record: "null",
              errors: JSON.stringify(errors),
            }))
          : (await withRosters(db, read.records)).map(({ line, record }) => ({
              line,
              entity_id: record.id,
              record: JSON.stringify(record),
              errors: null,
            }));
      await db.batch([deleteImportRows(db, found.id), ...stageRows(db, found.id, rows)]);
      return { received: rows.length, invalid, ...("encoding" in file ? { encoding: encodingWords(file) } : {}) };
    },
  );

  imports.on(
    {
      method: "post",
      path: "/plan",
      summary: "What committing would add, change and remove (a dry run)",
      description: "The plan; `valid` false lists every problem.",
      schema: ImportPlan,
    },
    async (c, found) => planView(found.id, found.rows, (await previewOf(c.env.DB, found.id)).plan),
  );

  imports.on(
    {
      method: "post",
      path: "/commit",
      summary: "Apply the import: everything at once, or nothing",
      description: "Applied; the import is gone.",
      schema: ImportCommitted,
    },
    async (c, found) => {
      if (found.rows === 0) return adminError(c, 400, "The import holds no rows; upload some first.");
      const db = c.env.DB;
      const { preview, errors } = await previewOf(db, found.id);
      if (errors.length > 0) {
        return adminError(c, 400, `The import has ${problems(errors.length)}; nothing was applied.`, errors.slice(0, MAX_ERRORS_SHOWN));
      }
      const version = await applyImport(c.env, preview, c.get("operator"), (work) => c.executionCtx.waitUntil(work), [
        deleteImport(db, found.id),
      ]);
      if (!version) return adminError(c, 409, "The content changed while the import was applied; nothing was applied. Commit it again.");
      return { ...planView(found.id, found.rows, preview.plan), contentVersion: version.version };
    },
  );

  imports.remove({ summary: "Discard an import and its rows", description: "Discarded." }, async (c, found) => {
    await deleteImport(c.env.DB, found.id).run();
  });

  imports.operation(
    {
      method: "get",
      path: "/content/export",
      query: ExportQuery,
      summary: "Every entity with its FAQs, as import records, by ID",
      description: "A page of records.",
      schema: ExportPage,
    },
    async (c, { query: { after, limit } }) => {
      const groups = groupByEntity(await listEntityFaqPage(c.env.DB, { afterId: after, limit }));
      const records = groups.map(({ entity, faqs }) => toRecord(entity, faqs));
      const next = groups.length === limit ? groups[groups.length - 1]!.entity.id : undefined;
      return { records, ...(next ? { next } : {}) };
    },
  );

  imports.operation(
    {
      method: "get",
      path: "/content/template.csv",
      summary: "A CSV file to start an import from: the columns, one example FAQ and its translation",
      description:
        "The template, UTF-8 with a byte order mark as every CSV export (Excel opens it right). Its example hotel is no stored entity, so importing it unchanged is refused.",
      schema: z.string(),
      produces: "text/csv",
    },
    () => csvTemplate(),
  );

  imports.operation(
    {
      method: "delete",
      path: "/content/entities/{entityId}",
      params: EntityParam,
      summary: "Remove an entity with its FAQs (a brand with its properties) and from every organization's scope",
      description: "Removed.",
    },
    itemsOf("entity", { params: EntityParam }, (c, { params }) => findEntity(c.env.DB, params.entityId))(async (c, entity) => {
      const properties = entity.kind === "brand" ? await countProperties(c.env.DB, entity.id) : 0;
      await c.env.DB.batch([
        ...deleteEntities(c.env.DB, [entity.id]),
        audit(c, "content.remove", entity.id, { kind: entity.kind, properties }),
      ]);
      forgetContentVersion();
      c.executionCtx.waitUntil(requestDispatch(c.env));
    }),
  );
}
