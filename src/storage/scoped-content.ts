import type { D1Reader } from "./reader";
import type { EntityKind } from "./entities";

/**
 * Reads for the MCP tools. Every statement filters by the caller's organization in SQL: an entity is
 * in scope when it is scoped to the organization itself or is a property of a scoped brand. `?1` is
 * always the organization ID.
 */
const IN_SCOPE = `(e.id IN (SELECT entity_id FROM organization_scopes WHERE organization_id = ?1)
  OR e.brand_id IN (SELECT entity_id FROM organization_scopes WHERE organization_id = ?1))`;

/** How many times `pattern` occurs in the SQL text expression `text`. */
const occurrences = (text: string, pattern: string) =>
  `((length(${text}) - length(replace(${text}, ${pattern}, ''))) / length(${pattern}))`;

/**
 * What a search looks for, as the JSON of one parameter (src/search/plan.ts): groups of terms, each counting
 * as one term (a word of the question, or a concept with its terms); the topic patterns that make an FAQ
 * about the question and what that adds; how much more a match in the question counts than one in the answer.
 */
export interface RankingInput {
  /** `match`: the FTS5 expression of the group's phrases ("a" OR "b c"); `patterns`: the same in stored term strings. */
  groups: { match: string; patterns: string[]; weight: number }[];
  /** Topic patterns, each with what it adds to an FAQ whose question or category holds it (the most of them counts). */
  topics: [pattern: string, boost: number][];
  questionField: number;
  /**
   * The languages asked for, in RFC 4647 lookup order (src/catalogue/languages.ts `lookupOrder`): FAQs translated
   * into them are searched besides every FAQ in its entity's default language, and each FAQ found is answered in the
   * first of them it has, else in its default language. Empty: the default languages alone.
   */
  languages: string[];
}

/**
 * At most this many FAQs are ranked by BM25F: those whose matching groups weigh most by document frequency and
 * field (question or answer) alone. The rows one question may rank, however common its words are in scope.
 */
export const RANKED_AT_MOST = 200;

/**
 * Ranked full-text matches among the FAQs in scope, as SQL common table expressions ending in
 * `ranked(id, score, literal)`. Each FAQ is indexed with scope keys (migrations 0008, 0009): `k` and the hex
 * of its entity's ID and, for a property, of its brand's. `keys` is an SQL expression giving the FTS5
 * expression of the keys a FAQ must carry; `input` the parameter holding the RankingInput; `filters` SQL
 * conditions on the FAQ `f` and its entity `e` that a ranked FAQ meets (a category, a kind), none when
 * nothing narrows the search (the rows are then not read before they are chosen).
 *
 * The score is BM25F (k1 = 1.2, b = 0.75) over the analysed question and answer, a question match counting
 * `questionField` times, each group of terms counting as one term (its frequency the sum of its terms'),
 * weighted, computed from the admitted FAQs alone: their number and each group's document frequency among
 * them, and the average length of the FAQs ranked. FTS5's own bm25() reads the document frequency of every
 * word across the whole index, which costs the whole catalogue on every query and lets other organizations'
 * content move the ranking; this reads only what is in scope. `literal` says whether one of the question's
 * own words matched (weight 1), not only terms its concepts brought in.
 */
const scopeRanking = (keys: string, input: string, filters: string[]) => `
  admitted(expr) AS (SELECT ${keys}),
  groups(grouping, expr, weight) AS MATERIALIZED (
    SELECT key, json_extract(value, '$.match'), json_extract(value, '$.weight') FROM json_each(${input}, '$.groups')
  ),
  patterns(grouping, pattern) AS MATERIALIZED (
    SELECT g.key, p.value FROM json_each(${input}, '$.groups') g, json_each(g.value, '$.patterns') p
  ),
  question_field(weight) AS MATERIALIZED (SELECT json_extract(${input}, '$.questionField')),
  -- Materialized: each group is found through the full-text index together with the scope keys, before any join.
  hits(grouping, weight, id) AS MATERIALIZED (
    SELECT g.grouping, g.weight, faq_search.rowid FROM groups g CROSS JOIN faq_search
    WHERE faq_search MATCH ((SELECT expr FROM admitted) || ' AND {terms_q terms_a} : (' || g.expr || ')')
  ),
  -- The same, in the question alone.
  question_hits(grouping, id) AS MATERIALIZED (
    SELECT g.grouping, faq_search.rowid FROM groups g CROSS JOIN faq_search
    WHERE faq_search MATCH ((SELECT expr FROM admitted) || ' AND {terms_q} : (' || g.expr || ')')
  ),
  admitted_count(n) AS (SELECT count(*) FROM faq_search WHERE faq_search MATCH (SELECT expr FROM admitted)),
  df(grouping, n) AS (SELECT grouping, count(*) FROM hits GROUP BY grouping),
  -- The FAQs worth ranking among those the filter keeps: those whose groups weigh most by document frequency
  -- and field alone, at most RANKED_AT_MOST.
  candidates(id) AS MATERIALIZED (
    SELECT h.id FROM hits h JOIN df USING (grouping) CROSS JOIN admitted_count n CROSS JOIN question_field q
      LEFT JOIN question_hits qh ON qh.grouping = h.grouping AND qh.id = h.id
      ${filters.length === 0 ? "" : `JOIN faqs f ON f.id = h.id JOIN entities e ON e.id = f.entity_id WHERE ${filters.join(" AND ")}`}
    GROUP BY h.id
    ORDER BY sum(h.weight * ln(1 + (n.n - df.n + 0.5) / (df.n + 0.5)) * (CASE WHEN qh.id IS NULL THEN 1 ELSE q.weight END)) DESC, h.id
    LIMIT ${RANKED_AT_MOST}
  ),
  counted(id, grouping, weight, tf, len) AS (
    SELECT h.id, h.grouping, h.weight,
      -- At least 1: a row the index matched, though written before the analysis (migration 0010), still counts.
      max(1, sum(q.weight * ${occurrences("f.terms_q", "p.pattern")} + ${occurrences("f.terms_a", "p.pattern")})),
      q.weight * length(f.terms_q) + length(f.terms_a)
    FROM candidates c JOIN hits h ON h.id = c.id JOIN faqs f ON f.id = h.id JOIN patterns p ON p.grouping = h.grouping CROSS JOIN question_field q
    GROUP BY h.id, h.grouping
  ),
  average(len) AS (SELECT avg(len) FROM (SELECT DISTINCT id, len FROM counted)),
  ranked(id, score, literal) AS (
    SELECT c.id, sum(c.weight * ln(1 + (n.n - df.n + 0.5) / (df.n + 0.5)) * c.tf * 2.2 / (c.tf + 1.2 * (0.25 + 0.75 * c.len / a.len))),
      max(c.weight >= 1)
    FROM counted c JOIN df USING (grouping) CROSS JOIN admitted_count n CROSS JOIN average a
    GROUP BY c.id
  )`;

/** What the question's topics add to the FAQ `f`: the most that one of them its question or category is about adds. */
const topicBoost = (input: string) =>
  `coalesce((SELECT max(json_extract(value, '$[1]')) FROM json_each(${input}, '$.topics')
     WHERE instr(f.terms_c, json_extract(value, '$[0]')) > 0 OR instr(f.terms_q, json_extract(value, '$[0]')) > 0), 0)`;
const scopeKey = (id: string) => `'k' || hex(${id})`;
/**
 * The FTS5 expression, to AND with the scope keys, admitting every FAQ in its entity's default language (`lsource`)
 * and the translations into the languages of `input` (`l` and the hex of the tag), as migration 0015 keys them.
 */
const admittingLanguages = (input: string) =>
  `' AND scope_key : (lsource' || coalesce((SELECT group_concat(' OR l' || hex(lower(value)), '') FROM json_each(${input}, '$.languages')), '') || ')'`;
/** The languages of `input` with their priority (0 first), and the row of an FAQ to answer with: see RankingInput. */
const languagesAsked = (input: string) => `languages(tag, priority) AS (SELECT value, key FROM json_each(${input}, '$.languages'))`;
const shownRow = (entity: string, position: string, source: string) =>
  `coalesce((SELECT t.id FROM faqs t JOIN languages l ON l.tag = t.language WHERE t.entity_id = ${entity} AND t.position = ${position}
     ORDER BY l.priority LIMIT 1), ${source})`;
/** The FTS5 expression admitting `keys` (an SQL list of key alternatives); no key at all admits nothing. */
const admitting = (keys: string) => `'scope_key : (' || coalesce(${keys}, 'knone') || ')'`;
/** The FTS5 expression admitting the FAQs of one entity only: its key comes first, a property's brand key after it. */
const admittingOwn = (id: string) => `'scope_key : ^' || ${scopeKey(id)}`;

export interface ScopedEntity {
  id: string;
  name: string;
  kind: EntityKind;
  brand_id: string | null;
  property_id: number | null;
  url: string | null;
  updated_at: string;
}

const SCOPED_COLUMNS = "e.id, e.name, e.kind, e.brand_id, e.property_id, e.url, e.updated_at";

export interface EntityFilter {
  kind?: EntityKind;
  /** The start of the ID, in any case. */
  idPrefix?: string;
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
      `SELECT ${SCOPED_COLUMNS} FROM entities e
       WHERE ${IN_SCOPE}
         AND (?2 IS NULL OR e.kind = ?2)
         AND (?3 IS NULL OR e.brand_id = ?3 COLLATE NOCASE)
         AND (?4 IS NULL OR instr(e.name_key, ?4) > 0)
         AND (?7 IS NULL OR substr(e.id, 1, length(?7)) = ?7 COLLATE NOCASE)
         AND e.id > ?5
       ORDER BY e.id LIMIT ?6`,
    )
    .bind(
      organizationId,
      filter.kind ?? null,
      filter.brandId ?? null,
      filter.nameContains ?? null,
      filter.afterId,
      filter.limit,
      filter.idPrefix ?? null,
    )
    .all<ScopedEntity>();
  return results;
}

export interface EntityCandidate extends ScopedEntity {
  brand_name: string | null;
  /** How many properties a brand has (0 for other kinds). */
  property_count: number;
}

const CANDIDATE_COLUMNS = `${SCOPED_COLUMNS}, b.name AS brand_name,
  CASE WHEN e.kind = 'brand' THEN (SELECT count(*) FROM entities p WHERE p.brand_id = e.id) ELSE 0 END AS property_count`;

/** The in-scope entity with this ID, in any case; null when there is none in scope. */
export function scopedEntity(db: D1Reader, organizationId: string, id: string): Promise<EntityCandidate | null> {
  return db
    .prepare(
      `SELECT ${CANDIDATE_COLUMNS} FROM entities e LEFT JOIN entities b ON b.id = e.brand_id WHERE ${IN_SCOPE} AND e.id = ?2 COLLATE NOCASE`,
    )
    .bind(organizationId, id)
    .first<EntityCandidate>();
}

/** `?n` as a JSON list of kinds an entity must be one of; null for any kind. */
const ofKinds = (n: number) => `(?${n} IS NULL OR e.kind IN (SELECT value FROM json_each(?${n})))`;

/**
 * The in-scope entities (of `kinds`, when given) with this ID (any case) or whose folded name is `key`
 * (src/search/normalize.ts), the one with the ID first; at most `limit`.
 */
export async function exactScopedEntities(
  db: D1Reader,
  organizationId: string,
  match: { id: string; key: string; kinds: readonly EntityKind[] | null; limit: number },
): Promise<EntityCandidate[]> {
  const { results } = await db
    .prepare(
      `SELECT ${CANDIDATE_COLUMNS} FROM entities e LEFT JOIN entities b ON b.id = e.brand_id
       WHERE ${IN_SCOPE} AND (e.id = ?2 COLLATE NOCASE OR e.name_key = ?3) AND ${ofKinds(4)}
       ORDER BY e.id = ?2 COLLATE NOCASE DESC, e.id LIMIT ?5`,
    )
    .bind(organizationId, match.id, match.key, match.kinds && JSON.stringify(match.kinds), match.limit)
    .all<EntityCandidate>();
  return results;
}

/**
 * In-scope entities (of `only`, when given) a name as written may mean: those whose folded name holds one of
 * `prefixes`, and every one of `kinds`; at most `limit`, those holding the most prefixes first.
 */
export async function nameCandidates(
  db: D1Reader,
  organizationId: string,
  filter: { prefixes: string[]; kinds: string[]; only: readonly EntityKind[] | null; limit: number },
): Promise<EntityCandidate[]> {
  const { results } = await db
    .prepare(
      `SELECT ${CANDIDATE_COLUMNS} FROM entities e LEFT JOIN entities b ON b.id = e.brand_id
       WHERE ${IN_SCOPE} AND ${ofKinds(4)}
         AND (e.kind IN (SELECT value FROM json_each(?3)) OR EXISTS (SELECT 1 FROM json_each(?2) WHERE instr(e.name_key, value) > 0))
       ORDER BY (SELECT count(*) FROM json_each(?2) WHERE instr(e.name_key, value) > 0) DESC, e.id LIMIT ?5`,
    )
    .bind(
      organizationId,
      JSON.stringify(filter.prefixes),
      JSON.stringify(filter.kinds),
      filter.only && JSON.stringify(filter.only),
      filter.limit,
    )
    .all<EntityCandidate>();
  return results;
}

export interface RankedFaq {
  /** The question and answer in `language`: a translation asked for, else as written in the entity's default language. */
  question: string;
  answer: string;
  language: string;
  /** 1 when `question` and `answer` are a translation. */
  translation: 0 | 1;
  /** The question as written in the entity's default language: what names the FAQ whatever language it is shown in. */
  source_question: string;
  category: string;
  /** 0 for an FAQ neither a term nor a topic of the question matched. */
  score: number;
  /** 1 when one of the question's own words matched it. */
  literal: number;
  /** 1 when it is about a topic of the question. */
  topical: number;
}

/**
 * One entity's FAQs (optionally of one category), best first by the ranking of `input` among the entity's
 * own FAQs, those it does not match in stored order. Returns the page and the total before the limit. An FAQ
 * scores what the best of its rows searched scores (its default language's and its translations into the
 * languages of `input`), and is answered in the language RankingInput says.
 */
export async function entityFaqs(
  db: D1Reader,
  entityId: string,
  options: { input: RankingInput; category?: string; limit: number },
): Promise<{ faqs: RankedFaq[]; total: number }> {
  const ofCategory = "f.category = ?2 COLLATE NOCASE";
  const { results } = await db
    .prepare(
      `WITH ${scopeRanking(`${admittingOwn("?1")} || ${admittingLanguages("?3")}`, "?3", options.category === undefined ? [] : [ofCategory])},
       ${languagesAsked("?3")},
       scores(position, score, literal, topical) AS (
         SELECT position, max(matched + boost), max(literal), max(boost) > 0 FROM (
           SELECT f.position, coalesce(r.score, 0) AS matched, ${topicBoost("?3")} AS boost, coalesce(r.literal, 0) AS literal
           FROM faqs f LEFT JOIN ranked r ON r.id = f.id
           WHERE f.entity_id = ?1 AND (f.translation = 0 OR f.language IN (SELECT tag FROM languages)) AND (?2 IS NULL OR ${ofCategory})
         ) GROUP BY position
       )
       SELECT shown.question, shown.answer, shown.language, shown.translation, s.question AS source_question, s.category, sc.score, sc.literal, sc.topical,
         count(*) OVER () AS total
       FROM scores sc
       JOIN faqs s ON s.entity_id = ?1 AND s.position = sc.position AND s.translation = 0
       JOIN faqs shown ON shown.id = ${shownRow("?1", "sc.position", "s.id")}
       ORDER BY sc.score DESC, sc.position LIMIT ?4`,
    )
    .bind(entityId, options.category ?? null, JSON.stringify(options.input), options.limit)
    .all<RankedFaq & { total: number }>();
  return { faqs: results.map(({ total: _, ...faq }) => faq), total: results[0]?.total ?? 0 };
}

export interface SearchHit extends RankedFaq {
  entity_id: string;
  entity_name: string;
  entity_url: string | null;
}

/**
 * Full-text search over in-scope FAQs, best first. The caller's scoped entities (a scoped brand is one key
 * for all its properties), and with an entity filter that entity's own key besides, are what FTS5 matches
 * with the terms: only in-scope FAQs are found, scored and ranked, however large the catalogue. A translation
 * carries its source's keys, so it is found exactly where its source is; an FAQ found in several languages is
 * one result, scored by its best row and answered in the language RankingInput says.
 */
export async function searchScopedFaqs(
  db: D1Reader,
  organizationId: string,
  input: RankingInput,
  filter: { entityId?: string; kind?: EntityKind; category?: string; limit: number },
): Promise<SearchHit[]> {
  const scope = admitting(`(SELECT group_concat(${scopeKey("entity_id")}, ' OR ') FROM organization_scopes WHERE organization_id = ?1)`);
  const entity = `CASE WHEN ?3 IS NULL THEN '' ELSE ' AND scope_key : ' || coalesce((SELECT ${scopeKey("id")} FROM entities WHERE id = ?3 COLLATE NOCASE), 'knone') END`;
  const { results } = await db
    .prepare(
      `WITH ${scopeRanking(`${scope} || ${entity} || ${admittingLanguages("?2")}`, "?2", [
        ...(filter.kind === undefined ? [] : ["e.kind = ?4"]),
        ...(filter.category === undefined ? [] : ["f.category = ?5 COLLATE NOCASE"]),
      ])},
       ${languagesAsked("?2")},
       scores(entity_id, position, score, literal, topical) AS (
         SELECT entity_id, position, max(matched + boost), max(literal), max(boost) > 0 FROM (
           SELECT f.entity_id, f.position, r.score AS matched, ${topicBoost("?2")} AS boost, r.literal FROM ranked r JOIN faqs f ON f.id = r.id
         ) GROUP BY entity_id, position
       )
       SELECT e.id AS entity_id, e.name AS entity_name, e.url AS entity_url, shown.question, shown.answer, shown.language,
         shown.translation, s.question AS source_question, s.category, sc.score, sc.literal, sc.topical
       FROM scores sc
       JOIN faqs s ON s.entity_id = sc.entity_id AND s.position = sc.position AND s.translation = 0
       JOIN faqs shown ON shown.id = ${shownRow("sc.entity_id", "sc.position", "s.id")}
       JOIN entities e ON e.id = sc.entity_id
       -- The keys admit only the scope already; the scope is checked again on what is returned.
       WHERE ${IN_SCOPE}
       ORDER BY sc.score DESC, s.id LIMIT ?6`,
    )
    .bind(organizationId, JSON.stringify(input), filter.entityId ?? null, filter.kind ?? null, filter.category ?? null, filter.limit)
    .all<SearchHit>();
  return results;
}

/** The FAQ categories that occur in the organization's scope (or of one entity in it), by name. */
export async function scopedCategories(db: D1Reader, organizationId: string, entityId?: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT f.category FROM faqs f JOIN entities e ON e.id = f.entity_id
       WHERE ${IN_SCOPE} AND (?2 IS NULL OR e.id = ?2) ORDER BY f.category`,
    )
    .bind(organizationId, entityId ?? null)
    .all<{ category: string }>();
  return results.map((r) => r.category);
}
