import type { RecordChanges } from "../catalogue/record-changes";
import type { ConsoleGrantRow } from "../storage/console-grants";

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
  "content.replace": "Replaced a text in FAQs",
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
const SHOWN = 140;
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

const ROLE_WORDS: Record<ConsoleGrantRow["role"], string> = {
  viewer: "Can read",
  editor: "Can edit",
  administrator: "Administrator of the organization",
};

/** A role in words, its entity by name (with the ID) where `names` knows it. */
export const grantWords = (grant: ConsoleGrantRow, names?: ReadonlyMap<string, string>): string => {
  if (grant.entity_id === null) return ROLE_WORDS[grant.role];
  const name = names?.get(grant.entity_id);
  return `${ROLE_WORDS[grant.role]} ${name === undefined ? grant.entity_id : `${name} (${grant.entity_id})`}`;
};

const isGrant = (value: unknown): value is ConsoleGrantRow =>
  isObject(value) && typeof value.role === "string" && value.role in ROLE_WORDS && "entity_id" in value;
const isGrantList = (value: unknown): value is ConsoleGrantRow[] => Array.isArray(value) && value.every(isGrant);

/** A person's roles before and after a grant or a revocation: what was given, what removed, what they have now. */
function grantLines(before: ConsoleGrantRow[], after: ConsoleGrantRow[], names?: ReadonlyMap<string, string>): string[] {
  const key = (grant: ConsoleGrantRow) => `${grant.role} ${grant.entity_id ?? ""}`;
  const was = new Set(before.map(key));
  const now = new Set(after.map(key));
  return [
    ...after.filter((grant) => !was.has(key(grant))).map((grant) => `Given: ${grantWords(grant, names)}`),
    ...before.filter((grant) => !now.has(key(grant))).map((grant) => `Removed: ${grantWords(grant, names)}`),
    `Roles now: ${after.length === 0 ? "none" : after.map((grant) => grantWords(grant, names)).join("; ")}`,
  ];
}

const yesNo = (value: unknown) => (value ? "yes" : "no");
/** A person's details as the people pages name them, each value in words. */
const PERSON_DETAILS: Record<string, { name: string; words: (value: unknown) => string }> = {
  email: { name: "E-mail", words: valueWords },
  displayName: { name: "Name", words: valueWords },
  organizationId: { name: "Organization", words: valueWords },
  mustChoosePassword: { name: "Must choose their own password", words: yesNo },
  by: { name: "Set by", words: (value) => (value === "themselves" ? "the person themselves" : `an ${valueWords(value)}`) },
  sessionsEnded: { name: "Signed out", words: (value) => (value === "all" ? "everywhere" : "everywhere else") },
  disabledAt: { name: "Can sign in", words: (value) => (value === null ? "yes" : `no (disabled ${valueWords(value).slice(0, 10)})`) },
};

const detailLine = (field: string, value: unknown): string => {
  const known = PERSON_DETAILS[field];
  if (isObject(value) && "from" in value && "to" in value)
    return known
      ? `${known.name}: ${known.words(value.from)} → ${known.words(value.to)}`
      : `${field}: ${valueWords(value.from)} → ${valueWords(value.to)}`;
  return known ? `${known.name}: ${known.words(value)}` : `${field}: ${valueWords(value)}`;
};

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

/**
 * What changed, one line each, each value cut at `shown` characters; `names` gives the entities' names a person's
 * roles are on, where known.
 */
export function changeLines(detail: unknown, names?: ReadonlyMap<string, string>, shown = SHOWN): string[] {
  if (!isObject(detail)) return detail === null || detail === undefined ? [] : [valueWords(detail)];
  if (isRecordChanges(detail.changes)) return recordChangeLines(detail.changes, shown);
  const { before, after, ...rest } = detail;
  if ((before === null || isFaq(before)) && (after === null || isFaq(after)) && (before ?? after) !== null)
    return faqEditLines(before, after, shown);
  // Roles are told from FAQ lists by their grants: an empty list on one side says nothing.
  if (isGrantList(before) && isGrantList(after) && before.length + after.length > 0) return grantLines(before, after, names);
  if (isFaqList(before) && (after === null || isFaqList(after))) return faqListLines(before, after, shown);
  if (isObject(before) && isObject(after)) {
    const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return [
      ...Object.entries(rest).map(([field, value]) => detailLine(field, value)),
      ...fields.map((field) => detailLine(field, { from: before[field] ?? null, to: after[field] ?? null })),
    ];
  }
  return Object.entries(detail).map(([field, value]) => detailLine(field, value));
}
