import type { D1Reader } from "./reader";
import { nameKey, type EntityKind } from "./entities";

/**
 * Reads for the MCP tools. Every statement filters by the caller's organization in SQL: an entity is
 * in scope when it is scoped to the organization itself or is a property of a scoped brand. `?1` is
 * always the organization ID.
 */
const IN_SCOPE = `(e.id IN (SELECT entity_id FROM organization_scopes WHERE organization_id = ?1)
  OR e.brand_id IN (SELECT entity_id FROM organization_scopes WHERE organization_id = ?1))`;

/**
 * FTS5 expressions that match only FAQs in scope (migrations 0008, 0009): each FAQ is indexed with the
 * scope keys of its entity and, for a property, its brand (`k` and the hex of the ID). `keys` is an SQL
 * expression of FTS5 key alternatives, `words` a safe FTS5 expression (`ftsAnyOf`) searched in the
 * question and answer only. No key at all becomes a key nothing has.
 */
const scopedMatch = (keys: string, words: string, andKey = "''") =>
  `'scope_key : (' || coalesce(${keys}, 'knone') || ')' || ${andKey} || ' AND {question answer} : (' || ${words} || ')'`;
const scopeKey = (id: string) => `'k' || hex(${id})`;
// The scope key weighs nothing: the words alone rank, as they did before it was indexed.
const RANK = "bm25(faq_search, 1.0, 1.0, 0.0)";

export interface ScopedEntity {
  id: string;
  name: string;
  kind: EntityKind;
  brand_id: string | null;
  property_id: number | null;
}

export interface EntityFilter {
  kind?: EntityKind;
  /** A brand ID, matched case-insensitively. */
  brandId?: string;
  /** A fragment of the name, folded with `nameKey`. */
  nameContains?: string;
  afterId: string;
  limit: number;
}

export async function listScopedEntities(db: D1Reader, organizationId: string, filter: EntityFilter): Promise<ScopedEntity[]> {
  const { results } = await db
    .prepare(
      `SELECT e.id, e.name, e.kind, e.brand_id, e.property_id FROM entities e
       WHERE ${IN_SCOPE}
         AND (?2 IS NULL OR e.kind = ?2)
         AND (?3 IS NULL OR e.brand_id = ?3 COLLATE NOCASE)
         AND (?4 IS NULL OR instr(e.name_key, ?4) > 0)
         AND e.id > ?5
       ORDER BY e.id LIMIT ?6`,
    )
    .bind(organizationId, filter.kind ?? null, filter.brandId ?? null, filter.nameContains ?? null, filter.afterId, filter.limit)
    .all<ScopedEntity>();
  return results;
}

/**
 * The in-scope entity with this ID, else with this full registered name, both case-insensitive (IDs
 * are ASCII; names compare by their Unicode-folded key).
 */
export function findScopedEntity(
  db: D1Reader,
  organizationId: string,
  idOrName: string,
): Promise<(ScopedEntity & { property_count: number }) | null> {
  return db
    .prepare(
      `SELECT e.id, e.name, e.kind, e.brand_id, e.property_id,
         (SELECT count(*) FROM entities p WHERE p.brand_id = e.id) AS property_count
       FROM entities e
       WHERE ${IN_SCOPE} AND (e.id = ?2 COLLATE NOCASE OR e.name_key = ?3)
       ORDER BY e.id = ?2 COLLATE NOCASE DESC, e.id LIMIT 1`,
    )
    .bind(organizationId, idOrName, nameKey(idOrName))
    .first();
}

/** Up to `limit` in-scope names containing the most of the given folded fragments (at most five). */
export async function similarScopedNames(db: D1Reader, organizationId: string, fragments: string[], limit: number): Promise<string[]> {
  if (fragments.length === 0) return [];
  const hits = fragments.slice(0, 5).map((_, i) => `(instr(e.name_key, ?${i + 3}) > 0)`).join(" + ");
  const { results } = await db
    .prepare(
      `SELECT e.name, ${hits} AS hits FROM entities e
       WHERE ${IN_SCOPE} AND ${hits} > 0
       ORDER BY hits DESC, e.name LIMIT ?2`,
    )
    .bind(organizationId, limit, ...fragments.slice(0, 5))
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

export interface RankedFaq {
  question: string;
  answer: string;
  category: string;
}

/**
 * One entity's FAQs (optionally of one category): ranked by bm25 against `match` when given, the
 * matching ones first, then the rest in stored order. Returns the page and the total before the limit.
 */
export async function entityFaqs(
  db: D1Reader,
  entityId: string,
  options: { match?: string; category?: string; limit: number },
): Promise<{ faqs: RankedFaq[]; total: number }> {
  const [ranking, order] = options.match
    ? [
        `LEFT JOIN (SELECT rowid AS id, ${RANK} AS rank FROM faq_search
           WHERE faq_search MATCH (${scopedMatch(scopeKey("?1"), "?3")})) m ON m.id = f.id`,
        "m.rank IS NULL, m.rank, f.position",
      ]
    : ["", "f.position"];
  const { results } = await db
    .prepare(
      `SELECT f.question, f.answer, f.category, count(*) OVER () AS total FROM faqs f ${ranking}
       WHERE f.entity_id = ?1 AND (?2 IS NULL OR f.category = ?2 COLLATE NOCASE)
       ORDER BY ${order} LIMIT ?4`,
    )
    .bind(entityId, options.category ?? null, options.match ?? null, options.limit)
    .all<RankedFaq & { total: number }>();
  return {
    faqs: results.map(({ question, answer, category }) => ({ question, answer, category })),
    total: results[0]?.total ?? 0,
  };
}

export interface SearchHit {
  entity_id: string;
  entity_name: string;
  question: string;
  answer: string;
  category: string;
  snippet: string;
}

/**
 * Full-text search over in-scope FAQs, best bm25 first. `match` must already be a safe FTS5 expression.
 * The caller's scope (narrowed by the entity and kind filters) becomes the keys FTS5 matches with the
 * words, so only in-scope FAQs are found and ranked, however large the catalogue.
 */
export async function searchScopedFaqs(
  db: D1Reader,
  organizationId: string,
  match: string,
  filter: { entityId?: string; kind?: EntityKind; category?: string; limit: number },
): Promise<SearchHit[]> {
  // The organization's scoped entities (a brand stands for its properties), and with an entity filter that
  // entity's own key besides (an unknown entity is a key nothing has).
  const scope = `(SELECT group_concat(${scopeKey("entity_id")}, ' OR ') FROM organization_scopes WHERE organization_id = ?1)`;
  const entity = `CASE WHEN ?3 IS NULL THEN '' ELSE ' AND scope_key : ' || coalesce((SELECT ${scopeKey("id")} FROM entities WHERE id = ?3 COLLATE NOCASE), 'knone') END`;
  const highlights = (snippet: string) => `(length(${snippet}) - length(replace(${snippet}, '**', '')))`;
  const { results } = await db
    .prepare(
      // The snippet comes from the question or the answer, whichever shows more of the words (the question
      // on a tie), never from the scope keys.
      `SELECT entity_id, entity_name, question, answer, category,
         CASE WHEN ${highlights("a")} > ${highlights("q")} THEN a ELSE q END AS snippet
       FROM (
         SELECT e.id AS entity_id, e.name AS entity_name, f.question, f.answer, f.category,
           snippet(faq_search, 0, '**', '**', '…', 16) AS q, snippet(faq_search, 1, '**', '**', '…', 16) AS a
         FROM faq_search
           JOIN faqs f ON f.id = faq_search.rowid
           JOIN entities e ON e.id = f.entity_id
         WHERE faq_search MATCH (${scopedMatch(scope, "?2", entity)})
           AND ${IN_SCOPE}
           AND (?4 IS NULL OR e.kind = ?4)
           AND (?5 IS NULL OR f.category = ?5 COLLATE NOCASE)
         ORDER BY ${RANK}, f.id LIMIT ?6
       )`,
    )
    .bind(organizationId, match, filter.entityId ?? null, filter.kind ?? null, filter.category ?? null, filter.limit)
    .all<SearchHit>();
  return results;
}

/** The FAQ categories that occur in the organization's scope, by name. */
export async function scopedCategories(db: D1Reader, organizationId: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT f.category FROM faqs f JOIN entities e ON e.id = f.entity_id
       WHERE ${IN_SCOPE} ORDER BY f.category`,
    )
    .bind(organizationId)
    .all<{ category: string }>();
  return results.map((r) => r.category);
}
