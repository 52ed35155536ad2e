import type { D1Reader } from "./reader";
import { jsonChunks } from "./json-chunks";
import type { LocalizedFaq } from "./faqs";

/** SQL for `faq_versions` (migration 0026): every version of every FAQ, by the change that wrote it. */

export interface FaqVersionInput {
  entity_id: string;
  /** The FAQ's 1-based position when the version was written (for a removal, where it was). */
  position: number;
  /** The question key the FAQ had before this change: the FAQ whose versions this one continues. */
  found_by: string;
  /** The version's own question key (for a removal, the removed FAQ's). */
  question_key: string;
  faq: LocalizedFaq;
  removed: 0 | 1;
  at: string;
  /** Null for the text an FAQ had before its first recorded change. */
  actor: string | null;
  action: string;
  /** The `faq_id` the version starts when it continues no FAQ. */
  new_faq_id: string;
}

export interface FaqVersion {
  id: number;
  faq_id: string;
  entity_id: string;
  position: number;
  question_key: string;
  faq: LocalizedFaq;
  removed: boolean;
  at: string;
  actor: string | null;
  action: string;
}

type FaqVersionRow = Omit<FaqVersion, "faq" | "removed"> & { faq: string; removed: number };

const COLUMNS = "id, faq_id, entity_id, position, question_key, faq, removed, at, actor, action";
const parsed = (row: FaqVersionRow): FaqVersion => ({ ...row, faq: JSON.parse(row.faq) as LocalizedFaq, removed: row.removed === 1 });

const FROM_JSON = `(SELECT json_extract(value, '$.entity_id') AS entity_id, json_extract(value, '$.position') AS position,
    json_extract(value, '$.found_by') AS found_by, json_extract(value, '$.question_key') AS question_key,
    json_extract(value, '$.faq') AS faq, json_extract(value, '$.removed') AS removed, json_extract(value, '$.at') AS at,
    json_extract(value, '$.actor') AS actor, json_extract(value, '$.action') AS action,
    json_extract(value, '$.new_faq_id') AS new_faq_id FROM json_each(?)) AS j`;

/** The `faq_id` of the FAQ of `j.entity_id` whose newest version asks `j.found_by`, if any. */
const CONTINUED = `(SELECT v.faq_id FROM faq_versions v
    WHERE v.entity_id = j.entity_id AND v.question_key = j.found_by
      AND v.id = (SELECT max(w.id) FROM faq_versions w WHERE w.faq_id = v.faq_id)
    ORDER BY v.id DESC LIMIT 1)`;

const chunksOf = (versions: FaqVersionInput[]) => jsonChunks(versions.map((version) => ({ ...version, faq: JSON.stringify(version.faq) })));

/** Writes each version as the first of a new FAQ only when no FAQ of its entity asks its question yet. */
export const insertFirstVersions = (db: D1Reader, versions: FaqVersionInput[]): D1PreparedStatement[] =>
  chunksOf(versions).map((chunk) =>
    db
      .prepare(
        `INSERT INTO faq_versions (faq_id, entity_id, position, question_key, faq, removed, at, actor, action)
         SELECT j.new_faq_id, j.entity_id, j.position, j.question_key, j.faq, j.removed, j.at, j.actor, j.action
         FROM ${FROM_JSON} WHERE ${CONTINUED} IS NULL`,
      )
      .bind(chunk),
  );

/** Writes each version as the next of the FAQ it continues, or the first of a new one. */
export const insertVersions = (db: D1Reader, versions: FaqVersionInput[]): D1PreparedStatement[] =>
  chunksOf(versions).map((chunk) =>
    db
      .prepare(
        `INSERT INTO faq_versions (faq_id, entity_id, position, question_key, faq, removed, at, actor, action)
         SELECT coalesce(${CONTINUED}, j.new_faq_id), j.entity_id, j.position, j.question_key, j.faq, j.removed, j.at, j.actor, j.action
         FROM ${FROM_JSON}`,
      )
      .bind(chunk),
  );

/** Deletes all but the newest `kept` versions of each FAQ of the given entities. */
export const pruneVersions = (db: D1Reader, entityIds: string[], kept: number): D1PreparedStatement[] =>
  jsonChunks(entityIds).map((chunk) =>
    db
      .prepare(
        `DELETE FROM faq_versions WHERE id IN (
           SELECT id FROM (
             SELECT id, row_number() OVER (PARTITION BY faq_id ORDER BY id DESC) AS n FROM faq_versions
             WHERE entity_id IN (SELECT value FROM json_each(?1))
           ) WHERE n > ?2)`,
      )
      .bind(chunk, kept),
  );

/** Deletes the versions written before `at`. */
export const deleteVersionsBefore = (db: D1Reader, at: string): D1PreparedStatement =>
  db.prepare("DELETE FROM faq_versions WHERE at < ?").bind(at);

export async function findVersion(db: D1Reader, id: number): Promise<FaqVersion | null> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM faq_versions WHERE id = ?`).bind(id).first<FaqVersionRow>();
  return row ? parsed(row) : null;
}

/** Every version of one FAQ, newest first. */
export async function versionsOf(db: D1Reader, faqId: string): Promise<FaqVersion[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM faq_versions WHERE faq_id = ? ORDER BY id DESC`)
    .bind(faqId)
    .all<FaqVersionRow>();
  return results.map(parsed);
}

/** The newest version of each FAQ of an entity (its FAQs now, and those removed), newest first. */
export async function newestVersionsOf(db: D1Reader, entityId: string): Promise<FaqVersion[]> {
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM faq_versions
       WHERE id IN (SELECT max(id) FROM faq_versions WHERE entity_id = ?1 GROUP BY faq_id) ORDER BY id DESC`,
    )
    .bind(entityId)
    .all<FaqVersionRow>();
  return results.map(parsed);
}
