import type { D1Reader } from "./reader";
import type { EntityKind } from "./entities";

/**
 * Reads for the MCP tools. Every statement filters by the caller's organization in SQL: an entity is
 * in scope when it is scoped to the organization itself or is a property of a scoped brand. `?1` is
 * always the organization ID.
 */
const IN_SCOPE = `(e.id IN (SELECT entity_id FROM organization_scopes WHERE organization_id = ?1)
  OR e.brand_id IN (SELECT entity_id FROM organization_scopes WHERE organization_id = ?1))`;

/**
 * What a search of a whole scope looks for, as the JSON of one parameter (src/search/plan.ts `rankingInput`): groups
 * of terms, each counting as one term (a word of the question with its alternatives, or a topic with its terms);
 * the topic patterns that make an FAQ about the question and what that adds; how much more a match in the
 * question counts than one in the answer; the languages asked for.
 */
export interface RankingInput {
  /** `match`: the FTS5 expression of the group's phrases ("a" OR "b c"); `patterns`: the same in stored term strings. */
  groups: { key: string; match: string; patterns: string[]; weight: number }[];
  /** Topic patterns, each with what it adds to an FAQ whose question or category holds it (the most of them counts). */
  topics: [pattern: string, boost: number][];
  questionField: number;
  /**
   * The languages asked for, in RFC 4647 lookup order (src/http/language-tags.ts `lookupOrder`): FAQs translated
   * into them are searched besides every FAQ in its entity's default language, and each FAQ found is answered in the
   * first of them it has, else in its default language. Empty: the default languages alone.
   */
  languages: string[];
}

/**
 * At most this many FAQs of a scope are read for ranking (src/search/rank.ts): those whose matching groups weigh most
 * by document frequency and field (question or answer) alone. The rows one search may rank, however common its
 * words are in scope.
 */
export const RANKED_AT_MOST = 200;

/**
 * The FAQs of a scope worth ranking, as SQL common table expressions ending in `candidates(id)`, with `df(grouping,
 * n)` and `admitted_count(n)`. Each FAQ is indexed with scope keys (migrations 0008, 0009): `k` and the hex of its
 * entity's ID and, for a property, of its brand's. `keys` is an SQL expression giving the FTS5 expression of the
 * keys a FAQ must carry; `input` the parameter holding the RankingInput; `filters` SQL conditions on the FAQ `f` and
 * its entity `e` that a candidate meets (a category, a kind), none when nothing narrows the search (the rows are
 * then not read before they are chosen).
 *
 * Document frequencies are counted among the admitted FAQs alone: FTS5's own bm25() reads the document frequency of
 * every word across the whole index, which costs the whole catalogue on every query and lets other organizations'
 * content move the ranking; this reads only what is in scope.
 */
const scopeCandidates = (keys: string, input: string, filters: string[]) => `
  admitted(expr) AS (SELECT ${keys}),
  groups(grouping, expr, weight) AS MATERIALIZED (
    SELECT key, json_extract(value, '$.match'), json_extract(value, '$.weight') FROM json_each(${input}, '$.groups')
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
  )`;

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

/** An FAQ as a tool shows it: in the language asked for where it is translated, else in its entity's default language. */
export interface ShownFaq {
  /** The question and answer in `language`: a translation asked for, else as written in the entity's default language. */
  question: string;
  answer: string;
  language: string;
  /** 1 when `question` and `answer` are a translation. */
  translation: 0 | 1;
  /** The question as written in the entity's default language: what names the FAQ whatever language it is shown in. */
  source_question: string;
  category: string;
}

/**
 * One entity's FAQs (optionally of one category) in stored order, each shown in the first language of `languages`
 * (RFC 4647 lookup order) it is translated into, else in its default language. Returns the page and the total
 * before the limit.
 */
export async function entityFaqs(
  db: D1Reader,
  entityId: string,
  options: { languages: string[]; category?: string; limit: number },
): Promise<{ faqs: ShownFaq[]; total: number }> {
  const { results } = await db
    .prepare(
      `WITH ${languagesAsked("?3")}
       SELECT shown.question, shown.answer, shown.language, shown.translation, s.question AS source_question, s.category,
         count(*) OVER () AS total
       FROM faqs s JOIN faqs shown ON shown.id = ${shownRow("?1", "s.position", "s.id")}
       WHERE s.entity_id = ?1 AND s.translation = 0 AND (?2 IS NULL OR s.category = ?2 COLLATE NOCASE)
       ORDER BY s.position LIMIT ?4`,
    )
    .bind(entityId, options.category ?? null, JSON.stringify({ languages: options.languages }), options.limit)
    .all<ShownFaq & { total: number }>();
  return { faqs: results.map(({ total: _, ...faq }) => faq), total: results[0]?.total ?? 0 };
}

/** An FAQ row as the ranking reads it (src/search/rank.ts): its analysed text, and which FAQ of its entity it is. */
export interface IndexedFaqRow {
  id: number;
  position: number;
  language: string;
  translation: 0 | 1;
  category: string;
  question: string;
  answer: string;
  terms_q: string;
  terms_a: string;
  terms_c: string;
  /** The version of the analysis its terms were written with. */
  analyzer: number;
  /** The ways guests ask it, as stored JSON (migration 0025): `[]` on a translation. */
  phrasings: string;
}

const INDEXED_COLUMNS =
  "f.id, f.position, f.language, f.translation, f.category, f.question, f.answer, f.terms_q, f.terms_a, f.terms_c, f.analyzer, f.phrasings";

/**
 * Every row of one entity's FAQs (optionally of one category) that a question is ranked against: each FAQ in its
 * entity's default language and its translations into `languages`; in stored order, the default language's first.
 * At most the 500 FAQs an entity may hold (catalogue/records.ts), times the languages asked for.
 */
export async function entityFaqRows(
  db: D1Reader,
  entityId: string,
  options: { languages: string[]; category?: string },
): Promise<IndexedFaqRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${INDEXED_COLUMNS} FROM faqs f
       WHERE f.entity_id = ?1
         AND (f.translation = 0 OR lower(f.language) IN (SELECT lower(value) FROM json_each(?3)))
         AND (?2 IS NULL OR f.position IN (SELECT position FROM faqs WHERE entity_id = ?1 AND translation = 0 AND category = ?2 COLLATE NOCASE))
       ORDER BY f.position, f.translation, f.language`,
    )
    .bind(entityId, options.category ?? null, JSON.stringify(options.languages))
    .all<IndexedFaqRow>();
  return results;
}

/** A candidate of a scope's search: its row as the ranking reads it, its entity, and the FAQ as a tool shows it. */
export interface ScopeCandidate extends IndexedFaqRow {
  entity_id: string;
  entity_name: string;
  entity_url: string | null;
  shown: ShownFaq;
}

/**
 * The FAQs of the organization's scope worth ranking for `input` (at most RANKED_AT_MOST rows, of a category or kind
 * when asked), with the document frequency of each group among the FAQs admitted and their number. The caller's
 * scoped entities (a scoped brand is one key for all its properties), and with an entity filter that entity's own
 * key besides, are what FTS5 matches with the terms: only in-scope FAQs are found, however large the catalogue. A
 * translation carries its source's keys, so it is found exactly where its source is.
 */
export async function scopeCandidateRows(
  db: D1Reader,
  organizationId: string,
  input: RankingInput,
  filter: { entityId?: string; kind?: EntityKind; category?: string },
): Promise<{ documents: number; frequencies: Map<string, number>; rows: ScopeCandidate[] }> {
  const scope = admitting(`(SELECT group_concat(${scopeKey("entity_id")}, ' OR ') FROM organization_scopes WHERE organization_id = ?1)`);
  const entity = `CASE WHEN ?3 IS NULL THEN '' ELSE ' AND scope_key : ' || coalesce((SELECT ${scopeKey("id")} FROM entities WHERE id = ?3 COLLATE NOCASE), 'knone') END`;
  const { results } = await db
    .prepare(
      `WITH ${scopeCandidates(`${scope} || ${entity} || ${admittingLanguages("?2")}`, "?2", [
        ...(filter.kind === undefined ? [] : ["e.kind = ?4"]),
        ...(filter.category === undefined ? [] : ["f.category = ?5 COLLATE NOCASE"]),
      ])},
       ${languagesAsked("?2")}
       SELECT ${INDEXED_COLUMNS}, e.id AS entity_id, e.name AS entity_name, e.url AS entity_url,
         json_object('question', shown.question, 'answer', shown.answer, 'language', shown.language, 'translation', shown.translation,
           'source_question', s.question, 'category', s.category) AS shown,
         (SELECT n FROM admitted_count) AS documents, (SELECT json_group_object(grouping, n) FROM df) AS frequencies
       FROM candidates c
       JOIN faqs f ON f.id = c.id
       JOIN faqs s ON s.entity_id = f.entity_id AND s.position = f.position AND s.translation = 0
       JOIN faqs shown ON shown.id = ${shownRow("f.entity_id", "f.position", "s.id")}
       JOIN entities e ON e.id = f.entity_id
       -- The keys admit only the scope already; the scope, and the filters chosen with the candidates, are checked again on what is returned.
       WHERE ${IN_SCOPE} AND (?4 IS NULL OR e.kind = ?4) AND (?5 IS NULL OR s.category = ?5 COLLATE NOCASE)
       ORDER BY f.id`,
    )
    .bind(organizationId, JSON.stringify(input), filter.entityId ?? null, filter.kind ?? null, filter.category ?? null)
    .all<Omit<ScopeCandidate, "shown"> & { shown: string; documents: number; frequencies: string }>();
  const first = results[0];
  return {
    documents: first?.documents ?? 0,
    // By group key: df counts each group by its index in input.groups.
    frequencies: new Map(
      Object.entries(JSON.parse(first?.frequencies ?? "{}") as Record<string, number>).map(([index, n]) => [
        input.groups[Number(index)]!.key,
        n,
      ]),
    ),
    rows: results.map(({ documents: _, frequencies: __, shown, ...row }) => ({ ...row, shown: JSON.parse(shown) as ShownFaq })),
  };
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
