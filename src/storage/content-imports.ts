import { jsonChunks } from "./json-chunks";

/** SQL for `content_imports` and their staged rows. */

export interface StagedRow {
  line: number;
  entity_id: string | null;
  record: string;
  /** JSON array of RowError, or null when the row is valid. */
  errors: string | null;
}

export const insertImport = (db: D1Database, id: string, at: string, actor: string): D1PreparedStatement =>
  db.prepare("INSERT INTO content_imports (id, created_at, actor) VALUES (?, ?, ?)").bind(id, at, actor);

export const findImport = (db: D1Database, id: string): Promise<{ id: string; created_at: string; rows: number; invalid: number } | null> =>
  db
    .prepare(
      `SELECT i.id, i.created_at,
         (SELECT count(*) FROM content_import_rows WHERE import_id = i.id) AS rows,
         (SELECT count(*) FROM content_import_rows WHERE import_id = i.id AND errors IS NOT NULL) AS invalid
       FROM content_imports i WHERE i.id = ?`,
    )
    .bind(id)
    .first();

/** Stages rows; a line sent twice replaces the earlier copy. */
export const stageRows = (db: D1Database, importId: string, rows: StagedRow[]): D1PreparedStatement[] =>
  jsonChunks(rows).map((chunk) =>
    db
      .prepare(
        `INSERT OR REPLACE INTO content_import_rows (import_id, line, entity_id, record, errors)
         SELECT ?1, json_extract(value, '$.line'), json_extract(value, '$.entity_id'), json_extract(value, '$.record'),
           json_extract(value, '$.errors') FROM json_each(?2)`,
      )
      .bind(importId, chunk),
  );

export async function stagedRows(db: D1Database, importId: string): Promise<StagedRow[]> {
  const { results } = await db
    .prepare("SELECT line, entity_id, record, errors FROM content_import_rows WHERE import_id = ? ORDER BY line")
    .bind(importId)
    .all<StagedRow>();
  return results;
}

export const deleteImportRows = (db: D1Database, id: string): D1PreparedStatement =>
  db.prepare("DELETE FROM content_import_rows WHERE import_id = ?").bind(id);

export const deleteImport = (db: D1Database, id: string): D1PreparedStatement =>
  db.prepare("DELETE FROM content_imports WHERE id = ?").bind(id);

/** Drops imports started before `before` that were never committed or discarded. */
export const deleteStaleImports = (db: D1Database, before: string): D1PreparedStatement =>
  db.prepare("DELETE FROM content_imports WHERE created_at < ?").bind(before);
