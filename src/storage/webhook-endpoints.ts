/** SQL for `webhook_endpoints` and the brands each one follows (`webhook_endpoint_brands`). */

export interface WebhookEndpointRow {
  id: string;
  url: string;
  description: string | null;
  secret_sealed: string;
  /** The content API's origin when the endpoint was registered: its events' URLs point there unless API_URL is set. */
  api_origin: string;
  cursor_seq: number;
  last_success_at: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
}

/** An endpoint with the brands it follows and how many of its deliveries are in each state. */
export interface WebhookEndpointView extends WebhookEndpointRow {
  brands: string[];
  pending: number;
  delivered: number;
  dead: number;
}

const ENDPOINT_COLUMNS = `e.id, e.url, e.description, e.secret_sealed, e.api_origin, e.cursor_seq, e.last_success_at, e.disabled_at,
  e.disabled_reason, e.created_at`;

/** Endpoints (one, or all, newest first), each with its brands and delivery counts. */
export async function listWebhookEndpoints(db: D1Database, id?: string): Promise<WebhookEndpointView[]> {
  const { results } = await db
    .prepare(
      `SELECT ${ENDPOINT_COLUMNS},
         (SELECT json_group_array(brand_id) FROM (SELECT brand_id FROM webhook_endpoint_brands WHERE endpoint_id = e.id ORDER BY brand_id)) AS brands,
         (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending,
         (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'delivered') AS delivered,
         (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'dead') AS dead
       FROM webhook_endpoints e WHERE ?1 IS NULL OR e.id = ?1 ORDER BY e.created_at DESC, e.id`,
    )
    .bind(id ?? null)
    .all<Omit<WebhookEndpointView, "brands"> & { brands: string }>();
  return results.map((row) => ({ ...row, brands: JSON.parse(row.brands) as string[] }));
}

/** Active endpoints with the brands they follow: the ones events are made for. */
export async function activeWebhookEndpoints(db: D1Database): Promise<(WebhookEndpointRow & { brands: string[] })[]> {
  const { results } = await db
    .prepare(
      `SELECT ${ENDPOINT_COLUMNS}, (SELECT json_group_array(brand_id) FROM webhook_endpoint_brands WHERE endpoint_id = e.id) AS brands
       FROM webhook_endpoints e WHERE e.disabled_at IS NULL ORDER BY e.id`,
    )
    .all<WebhookEndpointRow & { brands: string }>();
  return results.map((row) => ({ ...row, brands: JSON.parse(row.brands) as string[] }));
}

export const findWebhookEndpoint = (db: D1Database, id: string): Promise<WebhookEndpointRow | null> =>
  db.prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.id = ?`).bind(id).first<WebhookEndpointRow>();

export const insertWebhookEndpoint = (db: D1Database, row: WebhookEndpointRow, brands: string[]): D1PreparedStatement[] => [
  db
    .prepare(
      `INSERT INTO webhook_endpoints (id, url, description, secret_sealed, api_origin, cursor_seq, last_success_at, disabled_at,
         disabled_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      row.id,
      row.url,
      row.description,
      row.secret_sealed,
      row.api_origin,
      row.cursor_seq,
      row.last_success_at,
      row.disabled_at,
      row.disabled_reason,
      row.created_at,
    ),
  db
    .prepare("INSERT INTO webhook_endpoint_brands (endpoint_id, brand_id) SELECT ?1, value FROM json_each(?2)")
    .bind(row.id, JSON.stringify(brands)),
];

/** Removes an endpoint; its brands, deliveries and their log go with it (ON DELETE CASCADE). */
export const deleteWebhookEndpoint = (db: D1Database, id: string): D1PreparedStatement =>
  db.prepare("DELETE FROM webhook_endpoints WHERE id = ?").bind(id);

/**
 * Stops making events for an endpoint, saying why; only while it has had no success since `failingSince`
 * (a delivery that succeeded meanwhile shows the endpoint works), and only once.
 */
export const disableWebhookEndpoint = (db: D1Database, id: string, at: string, reason: string, failingSince: string): D1PreparedStatement =>
  db
    .prepare(
      `UPDATE webhook_endpoints SET disabled_at = ?2, disabled_reason = ?3
       WHERE id = ?1 AND disabled_at IS NULL AND (last_success_at IS NULL OR last_success_at < ?4)`,
    )
    .bind(id, at, reason, failingSince);

/** Makes events for an endpoint again, from `cursorSeq` on (what happened while it was disabled is in the change feed). */
export const enableWebhookEndpoint = (db: D1Database, id: string, cursorSeq: number): D1PreparedStatement =>
  db
    .prepare(
      "UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, cursor_seq = ? WHERE id = ? AND disabled_at IS NOT NULL",
    )
    .bind(cursorSeq, id);

/** Moves an active endpoint's cursor from `fromSeq` to `toSeq`; nothing when another dispatcher moved it first. */
export const advanceWebhookCursor = (db: D1Database, id: string, fromSeq: number, toSeq: number): D1PreparedStatement =>
  db
    .prepare("UPDATE webhook_endpoints SET cursor_seq = ?3 WHERE id = ?1 AND cursor_seq = ?2 AND disabled_at IS NULL")
    .bind(id, fromSeq, toSeq);

export const recordWebhookSuccess = (db: D1Database, id: string, at: string): D1PreparedStatement =>
  db.prepare("UPDATE webhook_endpoints SET last_success_at = ? WHERE id = ?").bind(at, id);
