import type { D1Reader } from "./reader";
import { ENTITY_COLUMNS, type EntityRow } from "./entities";
import { jsonChunks } from "./json-chunks";

/** SQL for the `faqs` table (its FTS5 index follows through triggers). */

export interface FaqRow {
  category: string;
  question: string;
  answer: string;
}

/** An FAQ's question and answer in a language other than its entity's default. */
export interface FaqTranslation {
  language: string;
  question: string;
  answer: string;
}

/** An FAQ in its entity's default language, with the ways guests ask it and its translations by language tag. */
export interface LocalizedFaq extends FaqRow {
  phrasings: string[];
  translations: FaqTranslation[];
}

/** One row of `faqs`: an FAQ in one language, at its position among its entity's FAQs. */
export interface FaqInput extends FaqRow {
  entity_id: string;
  position: number;
  /** BCP 47 tag of the text's language. */
  language: string;
  /** 0 for the FAQ in its entity's default language, 1 for a translation of it (same entity and position). */
  translation: 0 | 1;
  /** The ways guests ask it, as a JSON array of text (migration 0025): `[]` (or absent) on a translation's row. */
  phrasings?: string;
}

export interface StoredFaq extends FaqInput {
  id: number;
  /** The version of the analysis its index terms were written with (src/search/analyze.ts). */
  analyzer: number;
}

/** What the search index keeps of an FAQ: question, answer and category as analysed term strings (migration 0010). */
export interface FaqIndexTerms {
  terms_q: string;
  terms_a: string;
  terms_c: string;
  analyzer: number;
}

/** The columns of a row as LocalizedFaq is grouped from, in its order: by position, the default language's first. */
export type FaqLanguageRow = FaqRow & Pick<FaqInput, "position" | "language" | "translation" | "phrasings">;
const FAQ_LANGUAGE_COLUMNS = "position, category, question, answer, language, translation, phrasings";

/** The stored JSON of an FAQ's phrasings as a list. */
export const phrasingsOf = (stored: string | undefined): string[] => (stored === undefined ? [] : (JSON.parse(stored) as string[]));

/** One entity's FAQs in their stored order, each in every language it has (grouped by `localizedFaqs`). */
export const faqsStatement = (db: D1Reader, entityId: string): D1PreparedStatement =>
  db.prepare(`SELECT ${FAQ_LANGUAGE_COLUMNS} FROM faqs WHERE entity_id = ? ORDER BY position, translation, language`).bind(entityId);

/** Rows of `faqsStatement` (one entity, in its order) as its FAQs, each with its translations. */
export function localizedFaqs(rows: FaqLanguageRow[]): LocalizedFaq[] {
  const faqs: LocalizedFaq[] = [];
  let sourcePosition: number | null = null;
  for (const { position, category, question, answer, language, translation, phrasings } of rows) {
    if (translation === 0) {
      faqs.push({ category, question, answer, phrasings: phrasingsOf(phrasings), translations: [] });
      sourcePosition = position;
    } else if (position === sourcePosition) faqs[faqs.length - 1]!.translations.push({ language, question, answer });
  }
  return faqs;
}

export type EntityFaqRow = EntityRow & { [K in keyof FaqLanguageRow]: FaqLanguageRow[K] | null };

/**
 * The next `limit` entities after `afterId` (by ID), all of them or only a brand's properties, each
 * with its FAQs in stored order (every language of each); an entity without FAQs comes as one row with
 * null FAQ columns.
 */
export async function listEntityFaqPage(db: D1Reader, page: { brandId?: string; afterId: string; limit: number }): Promise<EntityFaqRow[]> {
  const { results } = await db
    .prepare(
      `WITH page AS (
         SELECT ${ENTITY_COLUMNS} FROM entities
         WHERE (?1 IS NULL OR brand_id = ?1) AND id > ?2 ORDER BY id LIMIT ?3
       )
       SELECT page.*, f.position, f.category, f.question, f.answer, f.language, f.translation, f.phrasings
       FROM page LEFT JOIN faqs f ON f.entity_id = page.id
       ORDER BY page.id, f.position, f.translation, f.language`,
    )
    .bind(page.brandId ?? null, page.afterId, page.limit)
    .all<EntityFaqRow>();
  return results;
}

/** Rows of `listEntityFaqPage` as one entry per entity, its FAQs in order with their translations. */
export function groupByEntity(rows: EntityFaqRow[]): { entity: EntityRow; faqs: LocalizedFaq[] }[] {
  const groups: { entity: EntityRow; rows: FaqLanguageRow[] }[] = [];
  for (const { position, category, question, answer, language, translation, phrasings, ...entity } of rows) {
    let group = groups[groups.length - 1];
    if (group?.entity.id !== entity.id) groups.push((group = { entity, rows: [] }));
    if (question !== null) {
      group.rows.push({
        position: position ?? 0,
        category: category ?? "",
        question,
        answer: answer ?? "",
        language: language ?? "",
        translation: translation ?? 0,
        phrasings: phrasings ?? "[]",
      });
    }
  }
  return groups.map(({ entity, rows: faqRows }) => ({ entity, faqs: localizedFaqs(faqRows) }));
}

/** Stored FAQs of the given entities. */
export async function faqsOfEntities(db: D1Reader, entityIds: string[]): Promise<StoredFaq[]> {
  const statements = jsonChunks(entityIds).map((chunk) =>
    db.prepare(`SELECT ${STORED_FAQ_COLUMNS} FROM faqs WHERE entity_id IN (SELECT value FROM json_each(?))`).bind(chunk),
  );
  if (statements.length === 0) return [];
  return (await db.batch<StoredFaq>(statements)).flatMap((result) => result.results);
}

const STORED_FAQ_COLUMNS = "id, entity_id, position, language, translation, category, question, answer, phrasings, analyzer";

/** At most `limit` FAQs whose index terms an analysis older than `version` wrote, in the order of faqs_by_analyzer. */
export async function staleFaqs(db: D1Reader, version: number, limit: number): Promise<StoredFaq[]> {
  const { results } = await db
    .prepare(`SELECT ${STORED_FAQ_COLUMNS} FROM faqs WHERE analyzer < ? ORDER BY analyzer, id LIMIT ?`)
    .bind(version, limit)
    .all<StoredFaq>();
  return results;
}

/** How many FAQs an analysis older than `version` wrote. */
export async function staleFaqCount(db: D1Reader, version: number): Promise<number> {
  return (await db.prepare("SELECT count(*) AS n FROM faqs WHERE analyzer < ?").bind(version).first<{ n: number }>())?.n ?? 0;
}

export const insertFaqs = (db: D1Reader, faqs: (FaqInput & FaqIndexTerms)[]): D1PreparedStatement[] =>
  jsonChunks(faqs).map((chunk) =>
    db
      .prepare(
        // brand_id repeats the entity's brand for the FAQ's scope key (migration 0009).
        `INSERT INTO faqs (entity_id, position, language, translation, category, question, answer, phrasings, brand_id, terms_q, terms_a, terms_c, analyzer)
         SELECT json_extract(value, '$.entity_id'), json_extract(value, '$.position'), json_extract(value, '$.language'),
           json_extract(value, '$.translation'), json_extract(value, '$.category'),
           json_extract(value, '$.question'), json_extract(value, '$.answer'), coalesce(json_extract(value, '$.phrasings'), '[]'),
           (SELECT e.brand_id FROM entities e WHERE e.id = json_extract(value, '$.entity_id')),
           json_extract(value, '$.terms_q'), json_extract(value, '$.terms_a'), json_extract(value, '$.terms_c'),
           json_extract(value, '$.analyzer') FROM json_each(?)`,
      )
      .bind(chunk),
  );

/** FAQs with their index terms as JSON chunks, read back by FAQS_FROM_JSON as the table `j` an update reads from. */
const faqRowChunks = (faqs: (StoredFaq & FaqIndexTerms)[]): string[] =>
  jsonChunks(
    faqs.map(({ id, category, question, answer, phrasings, terms_q, terms_a, terms_c, analyzer }) => ({
      id,
      category,
      question,
      answer,
      phrasings,
      terms_q,
      terms_a,
      terms_c,
      analyzer,
    })),
  );
const FAQS_FROM_JSON = `(SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.category') AS category,
    json_extract(value, '$.question') AS question, json_extract(value, '$.answer') AS answer,
    coalesce(json_extract(value, '$.phrasings'), '[]') AS phrasings, json_extract(value, '$.terms_q') AS terms_q, json_extract(value, '$.terms_a') AS terms_a,
    json_extract(value, '$.terms_c') AS terms_c, json_extract(value, '$.analyzer') AS analyzer FROM json_each(?)) AS j`;

/** Rewrites FAQs' text and index terms (a changed FAQ). */
export const updateFaqs = (db: D1Reader, faqs: (StoredFaq & FaqIndexTerms)[]): D1PreparedStatement[] =>
  faqRowChunks(faqs).map((chunk) =>
    db
      .prepare(
        `UPDATE faqs SET category = j.category, question = j.question, answer = j.answer, phrasings = j.phrasings,
           terms_q = j.terms_q, terms_a = j.terms_a, terms_c = j.terms_c, analyzer = j.analyzer
         FROM ${FAQS_FROM_JSON} WHERE faqs.id = j.id`,
      )
      .bind(chunk),
  );

/**
 * Rewrites FAQs' index terms (analysed again), each only while its text is what was analysed: an FAQ an import
 * changed meanwhile keeps what the import wrote.
 */
export const updateFaqTerms = (db: D1Reader, faqs: (StoredFaq & FaqIndexTerms)[]): D1PreparedStatement[] =>
  faqRowChunks(faqs).map((chunk) =>
    db
      .prepare(
        `UPDATE faqs SET terms_q = j.terms_q, terms_a = j.terms_a, terms_c = j.terms_c, analyzer = j.analyzer
         FROM ${FAQS_FROM_JSON}
         WHERE faqs.id = j.id AND faqs.category = j.category AND faqs.question = j.question AND faqs.answer = j.answer
           AND faqs.phrasings = j.phrasings`,
      )
      .bind(chunk),
  );

export const deleteFaqs = (db: D1Reader, ids: number[]): D1PreparedStatement[] =>
  jsonChunks(ids).map((chunk) => db.prepare("DELETE FROM faqs WHERE id IN (SELECT value FROM json_each(?))").bind(chunk));

/**
 * Every language a brand's content is in (the brand's and its properties' FAQs, translated names and default
 * languages), each with whether it is the default language of one of them.
 */
export const brandLanguagesStatement = (db: D1Reader, brandId: string): D1PreparedStatement =>
  db
    .prepare(
      `WITH brand_entities AS (SELECT id, default_language, translated_names FROM entities WHERE id = ?1 OR brand_id = ?1)
       SELECT language, max(is_default) AS is_default FROM (
         SELECT f.language, 0 AS is_default FROM faqs f JOIN brand_entities b ON b.id = f.entity_id
         UNION ALL SELECT n.key, 0 FROM brand_entities b, json_each(b.translated_names) n
         UNION ALL SELECT default_language, 1 FROM brand_entities
       ) GROUP BY language ORDER BY language`,
    )
    .bind(brandId);

/** Per entity of a brand (the brand and its properties): its name, default language and FAQs in each language. */
export interface BrandFaqCounts {
  entities: { id: string; name: string; default_language: string; faqs: number }[];
  /** Translations by entity and language. */
  translations: { entity_id: string; language: string; faqs: number }[];
  /** Every language the brand's content is in (brandLanguagesStatement's). */
  languages: string[];
}

/** How many FAQs each entity of a brand has, and how many of them are translated into each language. */
export async function brandFaqCounts(db: D1Reader, brandId: string): Promise<BrandFaqCounts> {
  const brandEntities = "SELECT id FROM entities WHERE id = ?1 OR brand_id = ?1";
  const [entities, translations, languages] = await db.batch([
    db
      .prepare(
        `SELECT e.id, e.name, e.default_language, count(f.id) AS faqs
         FROM entities e LEFT JOIN faqs f ON f.entity_id = e.id AND f.translation = 0
         WHERE e.id IN (${brandEntities}) GROUP BY e.id ORDER BY e.id`,
      )
      .bind(brandId),
    db
      .prepare(
        `SELECT entity_id, language, count(*) AS faqs FROM faqs
         WHERE translation = 1 AND entity_id IN (${brandEntities}) GROUP BY entity_id, language`,
      )
      .bind(brandId),
    brandLanguagesStatement(db, brandId),
  ]);
  return {
    entities: entities!.results as BrandFaqCounts["entities"],
    translations: translations!.results as BrandFaqCounts["translations"],
    languages: (languages!.results as { language: string }[]).map((row) => row.language),
  };
}

/** An FAQ row a text search found, in its own language, with its entity. */
export interface FoundFaqRow {
  entity_id: string;
  entity_name: string;
  entity_kind: EntityRow["kind"];
  brand_id: string | null;
  position: number;
  language: string;
  translation: 0 | 1;
  question: string;
  answer: string;
}

/**
 * The FAQ rows (every language) the FTS5 expression `match` finds in `faq_search`, at most `limit`, by entity name,
 * then position, the default language's row first; and how many it finds in all.
 */
export async function matchingFaqRows(db: D1Reader, match: string, limit: number): Promise<{ rows: FoundFaqRow[]; total: number }> {
  const { results } = await db
    .prepare(
      `WITH found(id) AS MATERIALIZED (SELECT rowid FROM faq_search WHERE faq_search MATCH ?1)
       SELECT e.id AS entity_id, e.name AS entity_name, e.kind AS entity_kind, e.brand_id, f.position, f.language, f.translation,
         f.question, f.answer, (SELECT count(*) FROM found) AS total
       FROM found JOIN faqs f ON f.id = found.id JOIN entities e ON e.id = f.entity_id
       ORDER BY e.name, e.id, f.position, f.translation, f.language LIMIT ?2`,
    )
    .bind(match, limit)
    .all<FoundFaqRow & { total: number }>();
  return { rows: results.map(({ total: _, ...row }) => row), total: results[0]?.total ?? 0 };
}
