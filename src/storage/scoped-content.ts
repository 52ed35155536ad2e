import type { D1Reader } from "./reader";
import { nameKey, type EntityKind } from "./entities";

/**
 * Reads for the MCP tools. Every statement filters by the caller's organization in SQL: an entity is
 * in scope when it is scoped to the organization itself or is a property of a scoped brand. `?1` is
 * always the organization ID.
 */
const IN_SCOPE = `(e.id IN (SELECT entity_id FROM organization_scopes WHERE organization_id = ?1)
  OR e.brand_id IN (SELECT entity_id FROM organization_scopes WHERE organization_id = ?1))`;

/** How many times `mark` occurs in the SQL text expression `text`. */
const occurrences = (text: string, mark: string) => `(length(${text}) - length(replace(${text}, ${mark}, '')))`;

/**
 * Ranked full-text matches among the FAQs in scope, as SQL common table expressions ending in
 * `ranked(id, score)`. Each FAQ is indexed with scope keys (migrations 0008, 0009): `k` and the hex of
 * its entity's ID and, for a property, of its brand's. `keys` is an SQL expression giving the FTS5
 * expression of the keys a FAQ must carry; `phrases` the parameter holding the JSON array of the
 * query's words as FTS5 phrases (`ftsPhrases`), searched in the question and answer only.
 *
 * The score is BM25 (k1 = 1.2, b = 0.75, length in characters) computed from the admitted FAQs alone:
 * their number, each phrase's document frequency among them, their average length. FTS5's own bm25()
 * reads the document frequency of every word across the whole index, which costs the whole catalogue on
 * every query and lets other organizations' content move the ranking; this reads only what is in scope.
 */
const scopeRanking = (keys: string, phrases: string) => `
  admitted(expr) AS (SELECT ${keys}),
  phrases(phrase) AS (SELECT value FROM json_each(${phrases})),
  -- Materialized: flattened into the joins below, the planner could reach the index by rowid instead of by
  -- the full-text match, where highlight() has nothing to mark.
  hits(phrase, id, tf) AS MATERIALIZED (
    SELECT phrase, id, ${occurrences("marked", "char(1)")} FROM (
      SELECT p.phrase, faq_search.rowid AS id,
        highlight(faq_search, 0, char(1), '') || highlight(faq_search, 1, char(1), '') AS marked
      FROM phrases p CROSS JOIN faq_search
      WHERE faq_search MATCH ((SELECT expr FROM admitted) || ' AND {question answer} : ' || p.phrase))
  ),
  admitted_stats(n, length) AS (
    SELECT count(*), avg(length(f.question) + length(f.answer)) FROM faq_search JOIN faqs f ON f.id = faq_search.rowid
    WHERE faq_search MATCH (SELECT expr FROM admitted)
  ),
  df(phrase, n) AS (SELECT phrase, count(*) FROM hits GROUP BY phrase),
  ranked(id, score) AS (
    SELECT h.id, sum(
      ln(1 + (s.n - df.n + 0.5) / (df.n + 0.5))
        * h.tf * 2.2 / (h.tf + 1.2 * (0.25 + 0.75 * (length(f.question) + length(f.answer)) / s.length)))
    FROM hits h JOIN df USING (phrase) JOIN faqs f ON f.id = h.id CROSS JOIN admitted_stats s
    GROUP BY h.id
  )`;
const scopeKey = (id: string) => `'k' || hex(${id})`;
/** The FTS5 expression admitting `keys` (an SQL list of key alternatives); no key at all admits nothing. */
const admitting = (keys: string) => `'scope_key : (' || coalesce(${keys}, 'knone') || ')'`;

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
  const hits = fragments
    .slice(0, 5)
    .map((_, i) => `(instr(e.name_key, ?${i + 3}) > 0)`)
    .join(" + ");
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
 * One entity's FAQs (optionally of one category): those matching any of `phrases` first, by BM25 among
 * the entity's own FAQs, then the rest in stored order. Returns the page and the total before the limit.
 */
export async function entityFaqs(
  db: D1Reader,
  entityId: string,
  options: { phrases: string[]; category?: string; limit: number },
): Promise<{ faqs: RankedFaq[]; total: number }> {
  const { results } = await db
    .prepare(
      `WITH ${scopeRanking(admitting(scopeKey("?1")), "?3")}
       SELECT f.question, f.answer, f.category, count(*) OVER () AS total FROM faqs f LEFT JOIN ranked r ON r.id = f.id
       WHERE f.entity_id = ?1 AND (?2 IS NULL OR f.category = ?2 COLLATE NOCASE)
       ORDER BY r.score IS NULL, r.score DESC, f.position LIMIT ?4`,
    )
    .bind(entityId, options.category ?? null, JSON.stringify(options.phrases), options.limit)
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
 * Full-text search over in-scope FAQs, best first. The caller's scoped entities (a scoped brand is one key
 * for all its properties), and with an entity filter that entity's own key besides, are what FTS5 matches
 * with the words: only in-scope FAQs are found, scored and ranked, however large the catalogue.
 */
export async function searchScopedFaqs(
  db: D1Reader,
  organizationId: string,
  phrases: string[],
  filter: { entityId?: string; kind?: EntityKind; category?: string; limit: number },
): Promise<SearchHit[]> {
  const scope = admitting(`(SELECT group_concat(${scopeKey("entity_id")}, ' OR ') FROM organization_scopes WHERE organization_id = ?1)`);
  const entity = `CASE WHEN ?3 IS NULL THEN '' ELSE ' AND scope_key : ' || coalesce((SELECT ${scopeKey("id")} FROM entities WHERE id = ?3 COLLATE NOCASE), 'knone') END`;
  const { results } = await db
    .prepare(
      // The snippet comes from the question or the answer, whichever shows more of the words (the question
      // on a tie), never from the scope keys.
      `WITH ${scopeRanking(`${scope} || ${entity}`, "?2")},
       top AS (
         SELECT r.id, r.score, e.id AS entity_id, e.name AS entity_name, f.question, f.answer, f.category
         FROM ranked r JOIN faqs f ON f.id = r.id JOIN entities e ON e.id = f.entity_id
         -- The keys admit only the scope already; the scope is checked again on what is returned.
         WHERE ${IN_SCOPE}
           AND (?4 IS NULL OR e.kind = ?4)
           AND (?5 IS NULL OR f.category = ?5 COLLATE NOCASE)
         ORDER BY r.score DESC, r.id LIMIT ?6
       ),
       shown AS (
         SELECT top.*, snippet(faq_search, 0, '**', '**', '…', 16) AS q, snippet(faq_search, 1, '**', '**', '…', 16) AS a
         FROM top CROSS JOIN faq_search
         WHERE faq_search MATCH ((SELECT expr FROM admitted) || ' AND {question answer} : (' || (SELECT group_concat(phrase, ' OR ') FROM phrases) || ')')
           AND faq_search.rowid = top.id
       )
       SELECT entity_id, entity_name, question, answer, category,
         CASE WHEN ${occurrences("a", "'**'")} > ${occurrences("q", "'**'")} THEN a ELSE q END AS snippet
       FROM shown ORDER BY score DESC, id`,
    )
    .bind(organizationId, JSON.stringify(phrases), filter.entityId ?? null, filter.kind ?? null, filter.category ?? null, filter.limit)
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
