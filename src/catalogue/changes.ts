import { z } from "@hono/zod-openapi";
import { fromBase64Url, toBase64Url } from "../crypto/base64url";
import {
  brandKnownStatement,
  changeFeedStateStatement,
  changesAfterStatement,
  type ChangeFeedState,
  type ChangeRow,
} from "../storage/content-changes";
import { ENTITY_KINDS, type EntityKind } from "../storage/entities";
import type { D1Reader } from "../storage/reader";

/**
 * The change feed: what was added, changed or removed after a cursor, oldest first, read by the content
 * API (GET /api/v3/content/changes) and listed in webhook events. Removals are kept `REMOVALS_KEPT_DAYS`
 * (the daily upkeep deletes older ones); a cursor from before a deleted removal must resynchronise.
 */

export const REMOVALS_KEPT_DAYS = 30;
export const MAX_CHANGES_PER_PAGE = 1000;

export const ChangeEntry = z
  .object({
    entityId: z.string().openapi({ example: "HO-BOR-0042" }),
    kind: z.enum(ENTITY_KINDS),
    brandId: z.string().nullable().openapi({
      description: "The brand it belongs to: a property's brand, a brand's own ID; null for a destination or an airport.",
      example: "HO-BOR",
    }),
    change: z.enum(["upserted", "removed"]).openapi({
      description: "`upserted`: added or changed, fetch `url`. `removed`: gone from the brand (deleted, or moved to another brand).",
    }),
    changedAt: z.string().openapi({ description: "When the change was committed (ISO 8601 UTC).", example: "2026-11-23T10:00:00.000Z" }),
    url: z.string().url().openapi({
      description: "Where its content is: the entity's FAQ feed, or for a brand its NDJSON stream (the brand's own FAQPage first).",
      example: "https://api.hotels.example/api/v3/content/HO-BOR-0042/faq.json",
    }),
  })
  .openapi("ContentChange");
export type ChangeEntry = z.infer<typeof ChangeEntry>;

/** Where a partner fetches what changed: a brand's stream (a brand's own FAQPage is only served there), else the entity's feed. */
const contentUrl = (apiOrigin: string, kind: EntityKind, entityId: string): string =>
  `${apiOrigin}/api/v3/content/${encodeURIComponent(entityId)}/${kind === "brand" ? "faq.ndjson" : "faq.json"}`;

export const changeEntry = (row: ChangeRow, apiOrigin: string): ChangeEntry => ({
  entityId: row.entity_id,
  kind: row.kind,
  brandId: row.brand_id,
  change: row.change,
  changedAt: row.changed_at,
  url: contentUrl(apiOrigin, row.kind, row.entity_id),
});

/** A position in the feed: this feed's identity and the `seq` of the last change seen. */
export interface ChangeCursor {
  feedId: string;
  seq: number;
}

const CURSOR_TEXT = /^c1\.([0-9a-f]{16})\.(\d{1,15})$/;

export const encodeCursor = ({ feedId, seq }: ChangeCursor): string => toBase64Url(new TextEncoder().encode(`c1.${feedId}.${seq}`));

/** The characters and length of a cursor as it is written: base64url of CURSOR_TEXT. */
export const CURSOR_CHARACTERS = "[A-Za-z0-9_-]{1,64}";
const CURSOR_SHAPE = new RegExp(`^${CURSOR_CHARACTERS}$`);

/** The cursor `text` names, or null when it is not one this service issues. */
export function decodeCursor(text: string): ChangeCursor | null {
  if (!CURSOR_SHAPE.test(text)) return null;
  let decoded: string;
  try {
    decoded = String.fromCharCode(...fromBase64Url(text));
  } catch {
    return null; // a length base64 cannot have
  }
  const match = CURSOR_TEXT.exec(decoded);
  return match ? { feedId: match[1]!, seq: Number(match[2]) } : null;
}

/** The position after everything written so far. */
export const latestCursor = (state: ChangeFeedState): ChangeCursor => ({ feedId: state.feed_id, seq: state.high_water });

export type ChangesPage =
  | { found: "page"; changes: ChangeRow[]; next: ChangeCursor; hasMore: boolean }
  | { found: "gone"; reason: string }
  | { found: "unknown-brand" };

/** Why a cursor cannot be continued from, or null when it can. */
function cursorProblem(cursor: ChangeCursor, state: ChangeFeedState): string | null {
  if (cursor.feedId !== state.feed_id) return "The cursor belongs to another database's feed (the content was restored or moved).";
  if (cursor.seq < state.pruned_through) {
    return `The cursor is older than the ${REMOVALS_KEPT_DAYS} days of removals the feed keeps, so removals after it may be missing.`;
  }
  if (cursor.seq > state.high_water) return "The cursor is ahead of the feed (the content was restored to an earlier point).";
  return null;
}

/**
 * One page of the feed after `cursor` (from the start without one), in one D1 batch so the page and the
 * position after it agree. The last page's `next` is the feed's latest position, not its last entry's:
 * a brand that changes rarely still moves its cursor along, so it never falls behind the removals kept.
 */
export async function readChanges(db: D1Reader, request: { cursor?: ChangeCursor; brandId?: string; limit: number }): Promise<ChangesPage> {
  const afterSeq = request.cursor?.seq ?? 0;
  const [stateResult, pageResult, knownResult] = await db.batch([
    changeFeedStateStatement(db),
    changesAfterStatement(db, { afterSeq, brandId: request.brandId, limit: request.limit + 1 }),
    ...(request.brandId ? [brandKnownStatement(db, request.brandId)] : []),
  ]);
  const state = (stateResult as D1Result<ChangeFeedState>).results[0]!;
  const problem = request.cursor ? cursorProblem(request.cursor, state) : null;
  if (problem) return { found: "gone", reason: problem };
  if (knownResult && !(knownResult as D1Result<{ known: number }>).results[0]?.known) return { found: "unknown-brand" };
  const rows = (pageResult as D1Result<ChangeRow>).results;
  const hasMore = rows.length > request.limit;
  const changes = rows.slice(0, request.limit);
  const next = hasMore ? { feedId: state.feed_id, seq: changes[changes.length - 1]!.seq } : latestCursor(state);
  return { found: "page", changes, next, hasMore };
}
