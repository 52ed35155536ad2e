import type { D1Reader } from "./reader";
import { jsonChunks } from "./json-chunks";

/** SQL for the `entities` table: brands, properties, destinations and airports. */

export const ENTITY_KINDS = ["brand", "property", "destination", "airport"] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** SPEC "Entity identifiers": brands and properties are HO-, destinations DMO-, airports AIR-. */
export const ID_PREFIX: Record<EntityKind, string> = { brand: "HO-", property: "HO-", destination: "DMO-", airport: "AIR-" };

/** What an entity ID may be: it goes into URLs, cache keys and logs, so no spaces, slashes or control characters. */
export const ENTITY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface EntityRow {
  id: string;
  kind: EntityKind;
  name: string;
  brand_id: string | null;
  property_id: number | null;
  /** The entity's own public page (https), or null. */
  url: string | null;
  updated_at: string;
  /** The BCP 47 tag of the language its name and FAQs are written in. */
  default_language: string;
  /** Its name in other languages, where it differs: a JSON object of tag to name. */
  translated_names: string;
}

/** The columns of an EntityRow, for every statement that reads one. */
export const ENTITY_COLUMNS = "id, kind, name, brand_id, property_id, url, updated_at, default_language, translated_names";

/** A stored entity with the key its name was folded to when written (src/search/normalize.ts `nameKey`). */
export type StoredEntity = EntityRow & { name_key: string };

export const entityStatement = (db: D1Reader, id: string): D1PreparedStatement =>
  db.prepare(`SELECT ${ENTITY_COLUMNS} FROM entities WHERE id = ?`).bind(id);

export const findEntity = (db: D1Reader, id: string): Promise<EntityRow | null> => entityStatement(db, id).first<EntityRow>();

export type RosterRow = Pick<EntityRow, "id" | "name" | "property_id" | "default_language" | "translated_names">;

/** A brand's properties in roster order: by name, then ID. */
export const rosterStatement = (db: D1Reader, brandId: string): D1PreparedStatement =>
  db
    .prepare("SELECT id, name, property_id, default_language, translated_names FROM entities WHERE brand_id = ? ORDER BY name, id")
    .bind(brandId);

export const propertyCountStatement = (db: D1Reader, brandId: string): D1PreparedStatement =>
  db.prepare("SELECT count(*) AS n FROM entities WHERE brand_id = ?").bind(brandId);

export async function countProperties(db: D1Reader, brandId: string): Promise<number> {
  return (await propertyCountStatement(db, brandId).first<{ n: number }>())?.n ?? 0;
}

export async function countEntities(db: D1Reader): Promise<number> {
  const row = await db.prepare("SELECT count(*) AS n FROM entities").first<{ n: number }>();
  return row?.n ?? 0;
}

/** The next `limit` stored entities after `afterId`, by ID. */
export async function storedEntitiesAfter(db: D1Reader, afterId: string, limit: number): Promise<StoredEntity[]> {
  const { results } = await db
    .prepare(`SELECT ${ENTITY_COLUMNS}, name_key FROM entities WHERE id > ? ORDER BY id LIMIT ?`)
    .bind(afterId, limit)
    .all<StoredEntity>();
  return results;
}

/** How many entities are stored. */
export async function entityCount(db: D1Reader): Promise<number> {
  return (await db.prepare("SELECT count(*) AS n FROM entities").first<{ n: number }>())?.n ?? 0;
}

/** Stored entities with one of `ids`, and the properties of the brands among `brandIds`. */
export async function entitiesByIdOrBrand(db: D1Reader, ids: string[], brandIds: string[]): Promise<StoredEntity[]> {
  const statements = [
    ...jsonChunks(ids).map((chunk) =>
      db.prepare(`SELECT ${ENTITY_COLUMNS}, name_key FROM entities WHERE id IN (SELECT value FROM json_each(?))`).bind(chunk),
    ),
    ...jsonChunks(brandIds).map((chunk) =>
      db.prepare(`SELECT ${ENTITY_COLUMNS}, name_key FROM entities WHERE brand_id IN (SELECT value FROM json_each(?))`).bind(chunk),
    ),
  ];
  if (statements.length === 0) return [];
  const unique = new Map<string, StoredEntity>();
  for (const result of await db.batch<StoredEntity>(statements)) for (const row of result.results) unique.set(row.id, row);
  return [...unique.values()];
}

const FROM_JSON = `SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.kind') AS kind, json_extract(value, '$.name') AS name,
  json_extract(value, '$.brand_id') AS brand_id, json_extract(value, '$.property_id') AS property_id,
  json_extract(value, '$.url') AS url, json_extract(value, '$.updated_at') AS updated_at,
  json_extract(value, '$.default_language') AS default_language, json_extract(value, '$.translated_names') AS translated_names,
  json_extract(value, '$.name_key') AS name_key FROM json_each(?)`;

export const insertEntities = (db: D1Reader, rows: StoredEntity[]): D1PreparedStatement[] =>
  jsonChunks(rows).map((chunk) => db.prepare(`INSERT INTO entities (${ENTITY_COLUMNS}, name_key) ${FROM_JSON}`).bind(chunk));

export const updateEntities = (db: D1Reader, rows: StoredEntity[]): D1PreparedStatement[] =>
  jsonChunks(rows).map((chunk) =>
    db
      .prepare(
        `UPDATE entities SET kind = j.kind, name = j.name, brand_id = j.brand_id, property_id = j.property_id, url = j.url,
           updated_at = j.updated_at, default_language = j.default_language, translated_names = j.translated_names, name_key = j.name_key
         FROM (${FROM_JSON}) AS j WHERE entities.id = j.id`,
      )
      .bind(chunk),
  );

/** Removes entities; their FAQs, properties and organization scopes go with them (ON DELETE CASCADE). */
export const deleteEntities = (db: D1Reader, ids: string[]): D1PreparedStatement[] =>
  jsonChunks(ids).map((chunk) => db.prepare("DELETE FROM entities WHERE id IN (SELECT value FROM json_each(?))").bind(chunk));

/** The IDs of the entities `scope` holds: each entity it names, and the properties of each brand it names. */
export async function entityIdsWithin(db: D1Reader, scope: string[]): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT id FROM entities
       WHERE id IN (SELECT value FROM json_each(?1)) OR brand_id IN (SELECT value FROM json_each(?1)) ORDER BY id`,
    )
    .bind(JSON.stringify(scope))
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/**
 * Up to `limit` entities, by name then ID, that are one of `reach` or a property of one, and also one of `scope`
 * or a property of one; with `search`, only those whose name or ID contains it (case aside).
 */
export async function entitiesWithin(
  db: D1Reader,
  query: { reach: string[]; scope: string[]; search: string; limit: number; kind?: EntityKind },
): Promise<EntityRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${ENTITY_COLUMNS} FROM entities
       WHERE (id IN (SELECT value FROM json_each(?1)) OR brand_id IN (SELECT value FROM json_each(?1)))
         AND (id IN (SELECT value FROM json_each(?2)) OR brand_id IN (SELECT value FROM json_each(?2)))
         AND (?3 = '' OR instr(lower(name), lower(?3)) > 0 OR instr(lower(id), lower(?3)) > 0)
         AND (?5 IS NULL OR kind = ?5)
       ORDER BY name, id LIMIT ?4`,
    )
    .bind(JSON.stringify(query.reach), JSON.stringify(query.scope), query.search, query.limit, query.kind ?? null)
    .all<EntityRow>();
  return results;
}

/**
 * A statement that fails, rolling back the batch it opens, unless entity `id` still has `updatedAt`: a batch
 * planned from what was read then writes only onto that state, whoever else writes meanwhile.
 */
export const entityStillAt = (db: D1Reader, id: string, updatedAt: string): D1PreparedStatement =>
  db
    .prepare(
      "SELECT CASE WHEN (SELECT updated_at FROM entities WHERE id = ?1) IS ?2 THEN 1 ELSE json_extract('changed meanwhile', '$') END",
    )
    .bind(id, updatedAt);
