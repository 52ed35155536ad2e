/** SQL for the `content_version` row that every content change moves (by trigger): a counter and a random epoch. */

import type { D1Reader } from "./reader";

export interface ContentVersion {
  version: number;
  /** Drawn anew at every change, so a counter brought back by a restore never names a cached body again. */
  epoch: string;
}

export const contentVersionStatement = (db: D1Reader): D1PreparedStatement =>
  db.prepare("SELECT version, epoch FROM content_version WHERE id = 1");

export const readContentVersion = (result: D1Result<ContentVersion>): ContentVersion => result.results[0] ?? { version: 0, epoch: "" };

/** The version as it goes into a cache key. */
export const versionTag = ({ version, epoch }: ContentVersion): string => `${version}.${epoch}`;
