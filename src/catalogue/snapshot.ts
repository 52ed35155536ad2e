import { RefreshingCache } from "../cache/refreshing-cache";
import type { Env } from "../env";
import { contentVersionStatement, readContentVersion, versionTag, type ContentVersion } from "../storage/content-version";
import type { D1Reader } from "../storage/reader";

/**
 * The content version this isolate serves, read from the primary at most `CONTENT_VERSION_MAX_AGE_MS`
 * ago (refreshed in the background after half of it), with the D1 bookmark of that read. Bodies are
 * built through a D1 session that starts at the bookmark, so a read replica near the caller is used
 * and is never older than the version the body is cached under.
 */
export const CONTENT_VERSION_MAX_AGE_MS = 1_000;
const versions = new RefreshingCache<{ tag: string; bookmark: string | null }>(
  CONTENT_VERSION_MAX_AGE_MS / 2,
  CONTENT_VERSION_MAX_AGE_MS,
  1,
);

export interface ContentSnapshot {
  /** The content version as it goes into cache keys. */
  version: string;
  /** A D1 session whose reads are at least as new as that version; opened only when a body must be built. */
  reader: () => D1Reader;
}

export async function contentSnapshot(env: Env, waitUntil: (promise: Promise<unknown>) => void): Promise<ContentSnapshot> {
  const { tag, bookmark } = await versions.get(
    "content",
    async () => {
      const session = env.DB.withSession("first-primary");
      const row = await contentVersionStatement(session).all<ContentVersion>();
      return { tag: versionTag(readContentVersion(row)), bookmark: session.getBookmark() };
    },
    waitUntil,
  );
  return { version: tag, reader: () => env.DB.withSession(bookmark ?? "first-primary") };
}

/** A content change made by this isolate is served by it at once; other isolates see it within the maximum age. */
export const forgetContentVersion = (): void => versions.delete("content");
