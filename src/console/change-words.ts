import type { RecordChanges } from "../catalogue/record-changes";

/**
 * An audit row in the content team's words: what was done, and what changed, before and after, one line each.
 * The rows keep their exact detail for the operator API; this only reads it, and falls back to "field: value"
 * for a kind of detail it does not know, so a new kind of change is never hidden.
 */

interface Faq {
  question: string;
  answer: string;
  category: string;
  position?: number;
}

const ACTION_WORDS: Record<string, string> = {
  "faq.add": "Added an FAQ",
  "faq.replace": "Changed an FAQ",
  "faq.remove": "Removed an FAQ",
  "faq.move": "Moved an FAQ",
  "faq.restore": "Restored an FAQ",
  "content.import": "Imported FAQs",
  "content.remove": "Removed a brand, hotel or page",
  "person.invite": "Invited a person",
  "person.grant": "Gave a role",
  "person.revoke": "Removed a role",
  "person.disable": "Disabled a person",
  "person.enable": "Enabled a person again",
  "person.password": "Set a new password",
  "api_key.create": "Issued an API key",
  "api_key.update": "Changed an API key's terms",
  "api_key.revoke": "Revoked an API key",
};

/** What was done, in words; the action's own name for one not listed. */
export const actionWords = (action: string): string => ACTION_WORDS[action] ?? action;

/** How many characters of a value a line shows; the audit page shows the whole line under it when it is longer. */
export const SHOWN = 140;
/**
 * A value as a quoted string with its quotes, backslashes and line breaks escaped (JSON's rules), so a value cannot
 * close its own quotes or start a line that reads as another change; cut at `shown` characters.
 */
const quoted = (text: unknown, shown: number): string => {
  const value = typeof text === "string" ? text : JSON.stringify(text);
  return JSON.stringify(value.length > shown ? `${value.slice(0, shown - 1)}…` : value);
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isFaq = (value: unknown): value is Faq => isObject(value) && typeof value.question === "string" && typeof value.answer === "string";
const isFaqList = (value: unknown): value is Faq[] => Array.isArray(value) && value.every(isFaq);

/** The fields of one FAQ that differ, as "field: before → after". */
function faqDifferences(before: Faq, after: Faq, shown: number): string[] {
  return (["question", "answer", "category"] as const)
    .filter((field) => before[field] !== after[field])
    .map((field) => `${field[0]!.toUpperCase()}${field.slice(1)}: ${quoted(before[field], shown)} → ${quoted(after[field], shown)}`);
}

/** An FAQ named by its question, and where it stands. */
const named = (faq: Faq, shown: number) => `${quoted(faq.question, shown)}${faq.position === undefined ? "" : ` (number ${faq.position})`}`;

/** One FAQ's edit (faq.add, replace, remove, move, restore), the FAQ named by its question as it was. */
function faqEditLines(before: Faq | null, after: Faq | null, shown: number): string[] {
  if (!before && after) return [`FAQ ${named(after, shown)}`, `Answer: ${quoted(after.answer, shown)}`];
  if (before && !after) return [`FAQ ${named(before, shown)}`];
  if (!before || !after) return [];
  const moved = before.position !== after.position ? [`Position: ${before.position} → ${after.position}`] : [];
  return [`FAQ ${named(before, shown)}`, ...faqDifferences(before, after, shown), ...moved];
}

/** A whole list's change (an import): what was added, removed and changed, by question. */
function faqListLines(before: Faq[], after: Faq[] | null, shown: number): string[] {
  if (after === null) return [`All ${before.length} FAQs removed with it.`];
  const key = (faq: Faq) => faq.question.trim().toLowerCase();
  const was = new Map(before.map((faq) => [key(faq), faq]));
  const now = new Map(after.map((faq) => [key(faq), faq]));
  const lines: string[] = [];
  for (const faq of after) {
    const old = was.get(key(faq));
    if (!old) lines.push(`Added: ${quoted(faq.question, shown)}`);
    else if (old.answer !== faq.answer || old.category !== faq.category)
      lines.push(`Changed: ${quoted(faq.question, shown)}`, ...faqDifferences(old, faq, shown).map((line) => `  ${line}`));
  }
  for (const faq of before) if (!now.has(key(faq))) lines.push(`Removed: ${quoted(faq.question, shown)}`);
  const order = (list: Faq[]) => list.map(key).filter((question) => was.has(question) && now.has(question));
  if (lines.length === 0 && order(before).join("\n") !== order(after).join("\n")) lines.push("The FAQs' order changed.");
  return lines.length > 0 ? lines : ["No FAQ changed."];
}

const valueWords = (value: unknown): string =>
  value === null
    ? "none"
    : typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : JSON.stringify(value);

const isRecordChanges = (value: unknown): value is RecordChanges =>
  isObject(value) && Array.isArray(value.fields) && Array.isArray(value.faqs);

const FIELD_NAMES: Record<string, string> = {
  url: "Web page",
  brandId: "Brand",
  propertyId: "Partner's property number",
  defaultLanguage: "Language",
};
const fieldName = (field: string) => FIELD_NAMES[field] ?? `${field[0]!.toUpperCase()}${field.slice(1)}`;

/** An import's changes to one entity: its fields, then each FAQ by question and language, field by field. */
function recordChangeLines(changes: RecordChanges, shown: number): string[] {
  const change = (field: RecordChanges["fields"][number]) =>
    `${fieldName(field.field)}: ${quoted(field.before ?? "", shown)} → ${quoted(field.after ?? "", shown)}`;
  const lines = changes.fields.map(change);
  for (const faq of changes.faqs) {
    const word = faq.change === "added" ? "Added" : faq.change === "changed" ? "Changed" : "Removed";
    lines.push(`${word} (${faq.language}): ${quoted(faq.question, shown)}`);
    if (faq.change === "changed") lines.push(...faq.fields.map((field) => `  ${change(field)}`));
  }
  return lines.length > 0 ? lines : ["Nothing changed."];
}

interface Grant {
  role: string;
  entity_id: string | null;
}
const isGrantList = (value: unknown): value is Grant[] =>
  Array.isArray(value) && value.every((grant) => isObject(grant) && typeof grant.role === "string");
const ROLE_WORDS: Record<string, string> = { viewer: "can read", editor: "can edit", administrator: "administrator" };
const rolesWords = (grants: Grant[]) =>
  grants.length === 0
    ? "none"
    : grants.map((grant) => `${ROLE_WORDS[grant.role] ?? grant.role}${grant.entity_id === null ? "" : ` ${grant.entity_id}`}`).join(", ");

/** A person's change: their roles, whether they can sign in, who set a password, in words. */
function personLines(detail: Record<string, unknown>): string[] | null {
  const { before, after, email } = detail;
  const who = typeof email === "string" ? [`Person: ${email}`] : [];
  if (isGrantList(before) && isGrantList(after)) return [...who, `Roles: ${rolesWords(before)} → ${rolesWords(after)}`];
  if (isObject(before) && isObject(after) && "disabledAt" in after)
    return [...who, `Can sign in: ${before.disabledAt === null ? "yes" : "no"} → ${after.disabledAt === null ? "yes" : "no"}`];
  if (detail.by === "administrator") return [...who, "New password set by an administrator; every session of theirs ended"];
  if (detail.by === "themselves") return [...who, "Changed their own password; their other sessions ended"];
  if (typeof detail.displayName === "string") return [...who, `Name: ${detail.displayName}`];
  return null;
}

/** What changed, one line each, each value cut at `shown` characters. */
export function changeLines(detail: unknown, shown = SHOWN): string[] {
  if (!isObject(detail)) return detail === null || detail === undefined ? [] : [valueWords(detail)];
  if (isRecordChanges(detail.changes)) return recordChangeLines(detail.changes, shown);
  const { before, after } = detail;
  if ((before === null || isFaq(before)) && (after === null || isFaq(after)) && (before ?? after) !== null)
    return faqEditLines(before, after, shown);
  if (isFaqList(before) && (after === null || isFaqList(after))) return faqListLines(before, after, shown);
  const person = personLines(detail);
  if (person) return person;
  return Object.entries(detail).map(([field, value]) =>
    isObject(value) && "from" in value && "to" in value
      ? `${field}: ${valueWords(value.from)} → ${valueWords(value.to)}`
      : `${field}: ${valueWords(value)}`,
  );
}
