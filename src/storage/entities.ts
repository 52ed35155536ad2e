/** SQL for the `entities` table: brands, properties, destinations and airports. */

export const ENTITY_KINDS = ["brand", "property", "destination", "airport"] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

export interface EntityRow {
  id: string;
  kind: EntityKind;
  name: string;
  brand_id: string | null;
  property_id: number | null;
  updated_at: string;
}

export function findEntity(db: D1Database, id: string): Promise<EntityRow | null> {
  return db
    .prepare("SELECT id, kind, name, brand_id, property_id, updated_at FROM entities WHERE id = ?")
    .bind(id)
    .first<EntityRow>();
}

/** A brand's properties in roster order: by name, then ID. */
export async function listRoster(
  db: D1Database,
  brandId: string,
): Promise<Pick<EntityRow, "id" | "name" | "property_id">[]> {
  const { results } = await db
    .prepare("SELECT id, name, property_id FROM entities WHERE brand_id = ? ORDER BY name, id")
    .bind(brandId)
    .all<Pick<EntityRow, "id" | "name" | "property_id">>();
  return results;
}

export async function countProperties(db: D1Database, brandId: string): Promise<number> {
  const row = await db
    .prepare("SELECT count(*) AS n FROM entities WHERE brand_id = ?")
    .bind(brandId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export async function countEntities(db: D1Database): Promise<number> {
  const row = await db.prepare("SELECT count(*) AS n FROM entities").first<{ n: number }>();
  return row?.n ?? 0;
}

export function upsertEntity(db: D1Database, entity: EntityRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO entities (id, kind, name, brand_id, property_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, brand_id = excluded.brand_id,
         property_id = excluded.property_id, updated_at = excluded.updated_at`,
    )
    .bind(entity.id, entity.kind, entity.name, entity.brand_id, entity.property_id, entity.updated_at);
}
