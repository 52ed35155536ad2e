/** SQL for `webhook_deliveries` (one event for one endpoint) and their log, `webhook_attempts`. */

export type DeliveryStatus = "pending" | "delivered" | "dead";

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  payload: string;
  change_count: number;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

const DELIVERY_COLUMNS = "id, endpoint_id, event_type, payload, change_count, status, attempts, next_attempt_at, created_at, finished_at";

const insertSql = (guard: string) =>
  `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 ${guard}`;
const bindDelivery = (statement: D1PreparedStatement, row: DeliveryRow, ...more: unknown[]) =>
  statement.bind(
    row.id,
    row.endpoint_id,
    row.event_type,
    row.payload,
    row.change_count,
    row.status,
    row.attempts,
    row.next_attempt_at,
    row.created_at,
    row.finished_at,
    ...more,
  );

export const insertDelivery = (db: D1Database, row: DeliveryRow): D1PreparedStatement => bindDelivery(db.prepare(insertSql("")), row);

/**
 * A delivery of the events after an active endpoint's cursor, written only while the cursor is still
 * `cursorSeq`: batched with moving the cursor on (webhook-endpoints.ts), two dispatchers never make one event twice.
 */
export const insertDeliveryWhileCursorIs = (db: D1Database, row: DeliveryRow, cursorSeq: number): D1PreparedStatement =>
  bindDelivery(
    db.prepare(insertSql("WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ?2 AND cursor_seq = ?11 AND disabled_at IS NULL)")),
    row,
    cursorSeq,
  );

export const findDelivery = (db: D1Database, id: string): Promise<DeliveryRow | null> =>
  db.prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`).bind(id).first<DeliveryRow>();

/** Takes attempt `attempts + 1` of a pending delivery; false when another consumer took it first. */
export async function claimAttempt(db: D1Database, id: string, attempts: number): Promise<boolean> {
  const { meta } = await db
    .prepare("UPDATE webhook_deliveries SET attempts = attempts + 1 WHERE id = ? AND status = 'pending' AND attempts = ?")
    .bind(id, attempts)
    .run();
  return meta.changes === 1;
}

export const insertAttempt = (db: D1Database, row: AttemptRow): D1PreparedStatement =>
  db
    .prepare("INSERT INTO webhook_attempts (delivery_id, attempt, at, response_status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(row.delivery_id, row.attempt, row.at, row.response_status, row.error, row.duration_ms);

export const finishDelivery = (db: D1Database, id: string, status: Exclude<DeliveryStatus, "pending">, at: string): D1PreparedStatement =>
  db.prepare("UPDATE webhook_deliveries SET status = ?, finished_at = ?, next_attempt_at = NULL WHERE id = ?").bind(status, at, id);

export const scheduleDelivery = (db: D1Database, id: string, nextAttemptAt: string): D1PreparedStatement =>
  db.prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?").bind(nextAttemptAt, id);

/** An endpoint's deliveries, newest first (only those in `status` when given). */
export async function listDeliveries(
  db: D1Database,
  endpointId: string,
  filter: { status?: DeliveryStatus; limit: number },
): Promise<DeliveryRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = ?1 AND (?2 IS NULL OR status = ?2)
       ORDER BY created_at DESC, id LIMIT ?3`,
    )
    .bind(endpointId, filter.status ?? null, filter.limit)
    .all<DeliveryRow>();
  return results;
}

/** The attempts of the given deliveries, in order. */
export async function attemptsOf(db: D1Database, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT delivery_id, attempt, at, response_status, error, duration_ms FROM webhook_attempts
       WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt`,
    )
    .bind(JSON.stringify(deliveryIds))
    .all<AttemptRow>();
  return results;
}

/** Pending deliveries whose next attempt was due before `before`: their queue message was lost. */
export async function overdueDeliveries(db: D1Database, before: string, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at < ? ORDER BY next_attempt_at LIMIT ?")
    .bind(before, limit)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/** Deletes finished deliveries (and their log) made before `before`. */
export const deleteFinishedDeliveriesBefore = (db: D1Database, before: string): D1PreparedStatement =>
  db.prepare("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < ?").bind(before);
