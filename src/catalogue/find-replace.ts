import { z } from "@hono/zod-openapi";
import type { Env } from "../env";
import { LanguageTag } from "../http/language-tags";
import { insertAudit } from "../storage/admin-audit";
import { contentVersionStatement } from "../storage/content-version";
import { entitiesByIdOrBrand, entityStillAt, type StoredEntity } from "../storage/entities";
import { faqsOfEntities, localizedFaqs, type StoredFaq } from "../storage/faqs";
import { requestDispatch } from "../storage/webhook-queue";
import { changeStatements } from "./apply";
import { inStoredOrder } from "./csv";
import { faqListVersion } from "./faq-edits";
import { faqVersionStatements, type FaqVersionChange } from "./faq-versions";
import { planFaqList } from "./plan";
import type { FaqChange, RecordChanges } from "./record-changes";
import { ContentRecord, EntityId, toRecord } from "./records";
import { forgetContentVersion } from "./snapshot";

/**
 * Find and replace across a brand (its own FAQs and its hotels') or one entity: a preview lists every field of every
 * FAQ, in every language asked for, that the text occurs in, as it is and as it would be; applying writes the chosen
 * ones in one D1 batch through the catalogue's own path (the plan of an FAQ list, its writes, an audit row per
 * entity, the content version, webhooks), as an edit or an import would. Each entity's FAQ list version is read with
 * the preview: an entity changed since is refused, by name, and nothing is written.
 */

/** Changes one apply writes at most, and one preview lists at most. */
export const MAX_REPLACEMENTS = 500;
export const MAX_FIND_TEXT = 200;
export const MAX_REPLACEMENT_TEXT = 1_000;

/** The fields a replacement may change, in this order. */
export const REPLACED_FIELDS = ["question", "answer"] as const;
export type ReplacedField = (typeof REPLACED_FIELDS)[number];

export const ReplaceRequest = z
  .strictObject({
    scope: EntityId.openapi({
      description: "A brand (its FAQs and its hotels'), or one hotel, destination or airport.",
      example: "HO-AUR",
    }),
    find: z
      .string()
      .min(1, "is empty")
      .max(MAX_FIND_TEXT, `is longer than ${MAX_FIND_TEXT} characters`)
      .openapi({ description: "The text to find, as written (no pattern).", example: "Wi-Fi" }),
    replacement: z
      .string()
      .max(MAX_REPLACEMENT_TEXT, `is longer than ${MAX_REPLACEMENT_TEXT.toLocaleString("en")} characters`)
      .openapi({ description: "What it becomes; may be empty.", example: "WiFi" }),
    caseSensitive: z.boolean().default(false),
    languages: z
      .array(LanguageTag.openapi({ type: "string" }))
      .max(100)
      .optional()
      .openapi({ description: "Only FAQs in these languages (BCP 47 tags); all when left out." }),
  })
  .openapi("ReplaceRequest");
export type ReplaceRequest = z.output<typeof ReplaceRequest>;

/** One field of one FAQ in one language, as it is and as the replacement makes it. */
export interface Replacement {
  /** Names the change in an apply: `<entity>/<position>/<language>/<field>`. */
  key: string;
  entityId: string;
  entityName: string;
  /** 1 is the entity's first FAQ. */
  position: number;
  language: string;
  field: ReplacedField;
  before: string;
  after: string;
}

export interface ReplacePreview {
  scope: { id: string; name: string; kind: StoredEntity["kind"] };
  /** At most MAX_REPLACEMENTS, by entity name, position, language, field. */
  changes: Replacement[];
  /** More changes were found than listed: apply these, then preview again. */
  more: boolean;
  /** Each entity with a change listed, and the version of its FAQ list read. */
  versions: Record<string, string>;
}

export type ApplyOutcome =
  | { outcome: "applied"; changes: number; entities: string[] }
  | { outcome: "no_scope" }
  | { outcome: "nothing_chosen" }
  /** More than MAX_REPLACEMENTS changes were chosen. */
  | { outcome: "too_many"; chosen: number }
  /** Changes that no entity of the scope has (or whose entity's version was not given). */
  | { outcome: "unknown"; keys: string[] }
  /** These entities changed since the preview; nothing was written. */
  | { outcome: "stale"; entities: { id: string; name: string }[] }
  /** The replacement breaks a rule of an entity's FAQs (a question too long, asked twice); nothing was written. */
  | { outcome: "invalid"; problems: { entityId: string; entityName: string; message: string }[] };

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const patternOf = (request: Pick<ReplaceRequest, "find" | "caseSensitive">) =>
  new RegExp(escaped(request.find), request.caseSensitive ? "gu" : "giu");

interface ScopeContent {
  scope: StoredEntity;
  entities: StoredEntity[];
  rows: Map<string, StoredFaq[]>;
}

const byName = (a: StoredEntity, b: StoredEntity) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);
/** The scope entity, the entities it covers (a brand's hotels after it, by name) and their FAQ rows in list order. */
async function readScope(db: D1Database, scopeId: string): Promise<ScopeContent | null> {
  const [scope] = await entitiesByIdOrBrand(db, [scopeId], []);
  if (!scope) return null;
  const properties = scope.kind === "brand" ? (await entitiesByIdOrBrand(db, [], [scope.id])).sort(byName) : [];
  const entities = [scope, ...properties];
  const rows = Map.groupBy(
    await faqsOfEntities(
      db,
      entities.map((entity) => entity.id),
    ),
    (faq) => faq.entity_id,
  );
  return { scope, entities, rows: new Map([...rows].map(([id, list]) => [id, inStoredOrder(list)])) };
}

/** Every replacement in `content`, stopping once `limit` are found. */
function replacementsIn(content: ScopeContent, request: ReplaceRequest, limit: number): Replacement[] {
  const pattern = patternOf(request);
  const languages = request.languages && new Set(request.languages.map((tag) => tag.toLowerCase()));
  const found: Replacement[] = [];
  for (const entity of content.entities) {
    for (const row of content.rows.get(entity.id) ?? []) {
      if (languages && !languages.has(row.language.toLowerCase())) continue;
      for (const field of REPLACED_FIELDS) {
        const before = row[field];
        const after = before.replace(pattern, () => request.replacement);
        if (after === before) continue;
        const position = row.position + 1;
        const key = `${entity.id}/${position}/${row.language}/${field}`;
        found.push({ key, entityId: entity.id, entityName: entity.name, position, language: row.language, field, before, after });
        if (found.length >= limit) return found;
      }
    }
  }
  return found;
}

const versionOf = (rows: StoredFaq[]) => faqListVersion(localizedFaqs(rows));

/** What replacing `request.find` would change in its scope; null when there is no such entity. */
export async function previewReplace(db: D1Database, request: ReplaceRequest): Promise<ReplacePreview | null> {
  const content = await readScope(db, request.scope);
  if (!content) return null;
  const found = replacementsIn(content, request, MAX_REPLACEMENTS + 1);
  const changes = found.slice(0, MAX_REPLACEMENTS);
  const versions: Record<string, string> = {};
  for (const id of new Set(changes.map((change) => change.entityId))) versions[id] = await versionOf(content.rows.get(id) ?? []);
  const { id, name, kind } = content.scope;
  return { scope: { id, name, kind }, changes, more: found.length > MAX_REPLACEMENTS, versions };
}

/** One entity's record with `changes` made; a translation's source follows its question's new wording. */
function replacedRecord(entity: StoredEntity, rows: StoredFaq[], changes: Replacement[]): ContentRecord {
  const record = toRecord(entity, localizedFaqs(rows));
  const faqs = record.faqs.map((faq) => ({ ...faq }));
  const own = (change: Replacement) => change.language === entity.default_language;
  const renamed = new Map<string, string>();
  for (const change of changes.filter(own)) {
    const faq = faqs[change.position - 1]!;
    if (change.field === "question") renamed.set(faq.question, change.after);
    faq[change.field] = change.after;
  }
  const translations = record.translations?.map((translation) => ({
    ...translation,
    faqs: translation.faqs?.map((faq) => {
      const position = record.faqs.findIndex((source) => source.question === faq.source) + 1;
      const next = { ...faq, source: renamed.get(faq.source) ?? faq.source };
      for (const change of changes)
        if (!own(change) && change.language === translation.language && change.position === position) next[change.field] = change.after;
      return next;
    }),
  }));
  return { ...record, faqs, ...(translations ? { translations } : {}) };
}

/** Where in a record a problem is, in words: "FAQ 3's question", "the pt translation of FAQ 3's answer". */
function placeOf(path: PropertyKey[]): string {
  const [list, index, third, at, field] = path;
  if (list === "faqs" && typeof index === "number") return `FAQ ${index + 1}'s ${String(third ?? "text")}`;
  if (list === "translations" && typeof index === "number" && third === "faqs" && typeof at === "number")
    return `translation ${index + 1}'s FAQ ${at + 1}'s ${String(field ?? "text")}`;
  return path.map(String).join(".") || "the FAQs";
}

/** The audit row's changes of one entity: each FAQ and language changed, field by field. */
function auditChanges(changes: Replacement[]): RecordChanges {
  const faqs = new Map<string, FaqChange>();
  for (const change of changes) {
    const key = `${change.position} ${change.language}`;
    const faq = faqs.get(key) ?? { language: change.language, change: "changed" as const, question: "", fields: [] };
    faq.fields.push({ field: change.field, before: change.before, after: change.after });
    faqs.set(key, faq);
  }
  for (const change of changes) if (change.field === "question") faqs.get(`${change.position} ${change.language}`)!.question = change.after;
  return { fields: [], faqs: [...faqs.values()] };
}

/**
 * Applies the changes named by `chosen` (keys of a preview of `request`) onto the entities at `versions`, as `actor`,
 * in one batch; refuses, writing nothing, when an entity changed since, a change is unknown, or more than
 * MAX_REPLACEMENTS are chosen.
 */
export async function applyReplace(
  env: Pick<Env, "DB" | "WEBHOOK_QUEUE">,
  change: { request: ReplaceRequest; chosen: string[]; versions: Record<string, string>; actor: string },
  waitUntil: (work: Promise<unknown>) => void,
): Promise<ApplyOutcome> {
  const db = env.DB;
  const { request, versions, actor } = change;
  const chosen = new Set(change.chosen);
  if (chosen.size === 0) return { outcome: "nothing_chosen" };
  if (chosen.size > MAX_REPLACEMENTS) return { outcome: "too_many", chosen: chosen.size };
  const content = await readScope(db, request.scope);
  if (!content) return { outcome: "no_scope" };
  const touched = new Set([...chosen].map((key) => key.split("/")[0]!));
  const entities = content.entities.filter((entity) => touched.has(entity.id));
  const covered = new Set(entities.map((entity) => entity.id));
  const outside = [...chosen].filter((key) => !covered.has(key.split("/")[0]!) || versions[key.split("/")[0]!] === undefined);
  if (outside.length > 0) return { outcome: "unknown", keys: outside };
  const stale: { id: string; name: string }[] = [];
  for (const entity of entities)
    if ((await versionOf(content.rows.get(entity.id) ?? [])) !== versions[entity.id]) stale.push({ id: entity.id, name: entity.name });
  if (stale.length > 0) return { outcome: "stale", entities: stale };
  // The entities are as previewed, so their replacements are the preview's: a key among none of them is no change.
  const picked = replacementsIn(content, request, Infinity).filter((replacement) => chosen.has(replacement.key));
  if (picked.length < chosen.size) {
    const known = new Set(picked.map((replacement) => replacement.key));
    return { outcome: "unknown", keys: [...chosen].filter((key) => !known.has(key)) };
  }

  const now = new Date().toISOString();
  const problems: { entityId: string; entityName: string; message: string }[] = [];
  const statements: D1PreparedStatement[] = [];
  const versioned: FaqVersionChange[] = [];
  for (const entity of entities) {
    const changes = picked.filter((replacement) => replacement.entityId === entity.id);
    const rows = content.rows.get(entity.id) ?? [];
    const parsed = ContentRecord.safeParse(replacedRecord(entity, rows, changes));
    if (!parsed.success) {
      problems.push(
        ...parsed.error.issues.map((issue) => ({
          entityId: entity.id,
          entityName: entity.name,
          message: `${placeOf(issue.path)} ${issue.message}`,
        })),
      );
      continue;
    }
    statements.push(
      entityStillAt(db, entity.id, entity.updated_at),
      ...changeStatements(db, planFaqList(entity, rows, parsed.data, now)),
      insertAudit(db, {
        at: now,
        actor,
        action: "content.replace",
        target: entity.id,
        detail: {
          find: request.find,
          replacement: request.replacement,
          caseSensitive: request.caseSensitive,
          changes: auditChanges(changes),
        },
      }),
    );
    // Each FAQ a replace changes gets its version, as an edit's or an import's does: its history shows it and undoes it.
    versioned.push({
      entityId: entity.id,
      before: toRecord(entity, localizedFaqs(rows)),
      after: parsed.data,
      since: entity.updated_at,
      at: now,
      actor,
      action: "content.replace",
    });
  }
  if (problems.length > 0) return { outcome: "invalid", problems };
  try {
    await db.batch([...statements, ...faqVersionStatements(db, versioned), contentVersionStatement(db)]);
  } catch (error) {
    // A guard failed (the batch wrote nothing): someone wrote between the read and the batch.
    const now = await readScope(db, request.scope);
    const changed = [];
    for (const entity of entities)
      if ((await versionOf(now?.rows.get(entity.id) ?? [])) !== versions[entity.id]) changed.push({ id: entity.id, name: entity.name });
    if (changed.length > 0) return { outcome: "stale", entities: changed };
    throw error;
  }
  forgetContentVersion();
  waitUntil(requestDispatch(env));
  return { outcome: "applied", changes: picked.length, entities: entities.map((entity) => entity.id) };
}

/** A piece of a changed text: as it stays, or the text found (`removed`) and what replaces it (`added`). */
export type ReplacedPiece = { kept: string } | { removed: string; added: string };

/** `before` in pieces: what stays, and each occurrence found with its replacement, as the preview shows a change. */
export function replacedPieces(before: string, request: Pick<ReplaceRequest, "find" | "replacement" | "caseSensitive">): ReplacedPiece[] {
  const pieces: ReplacedPiece[] = [];
  let at = 0;
  for (const match of before.matchAll(patternOf(request))) {
    if (match.index > at) pieces.push({ kept: before.slice(at, match.index) });
    pieces.push({ removed: match[0], added: request.replacement });
    at = match.index + match[0].length;
  }
  if (at < before.length) pieces.push({ kept: before.slice(at) });
  return pieces;
}
