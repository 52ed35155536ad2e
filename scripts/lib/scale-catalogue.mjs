// A throw-away catalogue of `faqs` FAQs for `npm run bench -- --scale`, generated inside D1 by SQL (recursive
// CTEs), never sent row by row: brands of 100 properties with 10 FAQs each, words drawn from a fixed
// vocabulary so that common words have long posting lists, as real FAQs do. Each word's index terms come from
// the Worker's own analysis (src/search/analyze.ts), and the schema's triggers index each row as it is
// inserted, exactly as an import would. One organization, `org-scale`,
// sees the first brand only (100 properties, 1,000 FAQs), through the identity client `scale-bot`.
import { createHash } from "node:crypto";

export const SCALE_CLIENT = { id: "scale-bot", secret: "scale-secret" };
export const SCOPED_PROPERTY = "HO-S0001-042";

const VOCABULARY = (
  "parking breakfast pets wifi airport shuttle pool spa gym check in out late early room suite view sea city " +
  "family children cot bed towel laundry restaurant bar dinner lunch vegan gluten allergy terrace garden " +
  "quiet noise accessible wheelchair lift stairs floor heating air conditioning safe luggage storage taxi " +
  "metro tram bus train station beach museum tour ticket price included extra free charge deposit card cash"
).split(" ");

const QUESTION_WORDS = 8;
const ANSWER_WORDS = 16;

/**
 * The word (column `w`), or its index terms (column `t`), at `position` of FAQ `n`: a multiplicative hash per
 * position, so each word follows its own pattern.
 */
const word = (position, column = "w") =>
  `(SELECT ${column} FROM vocabulary WHERE k = ((n + 1) * ${1_000_003 + 7919 * position}) % 999983 % ${VOCABULARY.length})`;
const sentence = (count, offset) => Array.from({ length: count }, (_, i) => word(i + offset)).join(" || ' ' || ");
const terms = (count, offset) => Array.from({ length: count }, (_, i) => word(i + offset, "t")).join(" || ");

/**
 * The SQL that fills a migrated, empty database with `faqs` FAQs (a multiple of 1,000); `analysis` is the
 * Worker's analysis module, which gives each vocabulary word its index terms.
 */
export function scaleCatalogueSql(faqs, { analyze, termString, languageOf, ANALYZER_VERSION }) {
  const brands = Math.max(1, Math.round(faqs / 1000));
  const properties = brands * 100;
  const english = languageOf("en");
  const vocabulary = VOCABULARY.map((w, k) => `(${k}, '${w}', '${termString(analyze(w, english))}')`).join(", ");
  const now = "2026-11-01T00:00:00.000Z";
  const secretHash = createHash("sha256").update(SCALE_CLIENT.secret).digest("hex");
  return `
CREATE TABLE vocabulary (k INTEGER PRIMARY KEY, w TEXT NOT NULL, t TEXT NOT NULL);
INSERT INTO vocabulary (k, w, t) VALUES ${vocabulary};
WITH RECURSIVE b(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM b WHERE i < ${brands})
INSERT INTO entities (id, kind, name, brand_id, property_id, updated_at, name_key)
  SELECT printf('HO-S%04d', i), 'brand', printf('Scale Brand %d', i), NULL, NULL, '${now}', printf('scale brand %d', i) FROM b;
WITH RECURSIVE p(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM p WHERE i < ${properties - 1})
INSERT INTO entities (id, kind, name, brand_id, property_id, updated_at, name_key)
  SELECT printf('HO-S%04d-%03d', i / 100 + 1, i % 100 + 1), 'property', printf('Scale Hotel %d', i), printf('HO-S%04d', i / 100 + 1), i, '${now}', printf('scale hotel %d', i) FROM p;
WITH RECURSIVE f(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM f WHERE n < ${properties * 10 - 1})
INSERT INTO faqs (entity_id, position, category, question, answer, brand_id, terms_q, terms_a, terms_c, analyzer)
  SELECT printf('HO-S%04d-%03d', n / 1000 + 1, (n / 10) % 100 + 1), n % 10,
    (SELECT w FROM vocabulary WHERE k = n % 12),
    ${sentence(QUESTION_WORDS, 0)} || '?',
    ${sentence(ANSWER_WORDS, QUESTION_WORDS)} || '.',
    printf('HO-S%04d', n / 1000 + 1),
    ${terms(QUESTION_WORDS, 0)},
    ${terms(ANSWER_WORDS, QUESTION_WORDS)},
    (SELECT t FROM vocabulary WHERE k = n % 12),
    ${ANALYZER_VERSION}
  FROM f;
DROP TABLE vocabulary;
INSERT INTO organizations (id, name, created_at) VALUES ('org-scale', 'Scale test', '${now}');
INSERT INTO organization_scopes (organization_id, entity_id) VALUES ('org-scale', 'HO-S0001');
INSERT INTO identity_clients (issuer, client_id, secret_hash, organization_id, created_at) VALUES ('realm', '${SCALE_CLIENT.id}', '${secretHash}', 'org-scale', '${now}');
`;
}
