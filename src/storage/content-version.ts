/** SQL for the `content_version` row that every content change moves (by trigger). */

export const contentVersionStatement = (db: D1Database): D1PreparedStatement =>
  db.prepare("SELECT version FROM content_version WHERE id = 1");

export const readContentVersion = (result: D1Result<{ version: number }>): number =>
  result.results[0]?.version ?? 0;
