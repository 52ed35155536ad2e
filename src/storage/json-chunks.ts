/** D1 binds at most 1 MB per value (and 100 values per statement), so bulk writes pass rows as JSON arrays. */
export const MAX_JSON_PARAM_BYTES = 900_000;

const encoder = new TextEncoder();

/** `items` as JSON arrays of at most `maxBytes` each, in order; none when there are no items. */
export function jsonChunks(items: readonly unknown[], maxBytes = MAX_JSON_PARAM_BYTES): string[] {
  const chunks: string[] = [];
  let parts: string[] = [];
  let bytes = 2;
  for (const item of items) {
    const json = JSON.stringify(item);
    const size = encoder.encode(json).byteLength + 1;
    if (parts.length > 0 && bytes + size > maxBytes) {
      chunks.push(`[${parts.join(",")}]`);
      parts = [];
      bytes = 2;
    }
    parts.push(json);
    bytes += size;
  }
  if (parts.length > 0) chunks.push(`[${parts.join(",")}]`);
  return chunks;
}

/**
 * The `entity_id`s a query finds among `ids`, run once per chunk: `sql` reads the chunk as `json_each(?1)` and its
 * other parameters from ?2 on.
 */
export async function entityIdsAmong(db: D1Database, sql: string, ids: readonly string[], ...params: unknown[]): Promise<string[]> {
  const statements = jsonChunks(ids).map((chunk) => db.prepare(sql).bind(chunk, ...params));
  if (statements.length === 0) return [];
  return [...new Set((await db.batch<{ entity_id: string }>(statements)).flatMap((result) => result.results.map((row) => row.entity_id)))];
}
