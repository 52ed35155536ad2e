import type { Env } from "../env";
import { unansweredKey } from "../search/unanswered";
import { insertAudit } from "../storage/admin-audit";
import { findEntity } from "../storage/entities";
import { forgetAttached, recordOutcomes } from "../storage/unanswered-questions";
import type { FaqTranslation } from "../storage/faqs";
import { editFaqs, type EditBasis, type EditOutcome, type FaqText } from "./faq-edits";

/**
 * What a content team does about the questions guests could not get answered, from the console and the operator API
 * alike: attach them to an FAQ as ways guests ask it (its `phrasings`, so the search gives guests that FAQ), answer
 * them with a new FAQ, or dismiss them. The FAQ is edited as any edit is (faq-edits.ts: the basis it was made on, the
 * audit, the content version, webhooks); then what was done is recorded against each question, so the list shows it
 * as handled. A refused edit records nothing.
 */

type Edits = Pick<Env, "DB" | "WEBHOOK_QUEUE">;
type Later = (work: Promise<unknown>) => void;

/** The question as the unanswered list keeps it: a phrasing "Can I bring my dog?" handles "can i bring my dog". */
const countedAs = (questions: string[]): string[] => [...new Set(questions.map((question) => unansweredKey(question) ?? question))];

/**
 * Adds `add` to the ways guests ask the FAQ at `position` and takes `remove` off them; the questions added are
 * recorded as attached to it, those removed are open again.
 */
export async function rephraseFaq(
  env: Edits,
  change: { entityId: string; position: number; add: string[]; remove: string[]; basis: EditBasis; actor: string },
  waitUntil: Later,
): Promise<EditOutcome> {
  const { entityId, position, add, remove, basis, actor } = change;
  const outcome = await editFaqs(env, { entityId, edit: { action: "phrasings", position, add, remove }, basis, actor }, waitUntil);
  if (outcome.outcome !== "saved") return outcome;
  await env.DB.batch([
    ...(remove.length > 0 ? [forgetAttached(env.DB, entityId, countedAs(remove))] : []),
    ...(add.length > 0
      ? [
          recordOutcomes(env.DB, {
            entityId,
            questions: countedAs(add),
            outcome: "attached",
            faqQuestion: outcome.after?.question ?? null,
            actor,
            at: new Date().toISOString(),
          }),
        ]
      : []),
  ]);
  return outcome;
}

/** Adds an FAQ (translated when `translations` are given) that answers `questions`, recorded as answered by it. */
export async function answerQuestions(
  env: Edits,
  change: {
    entityId: string;
    faq: FaqText;
    translations: FaqTranslation[];
    questions: string[];
    basis: EditBasis;
    actor: string;
  },
  waitUntil: Later,
): Promise<EditOutcome> {
  const { entityId, faq, translations, questions, basis, actor } = change;
  const outcome = await editFaqs(env, { entityId, edit: { action: "add", faq, translations }, basis, actor }, waitUntil);
  if (outcome.outcome === "saved" && questions.length > 0) {
    await recordOutcomes(env.DB, {
      entityId,
      questions: countedAs(questions),
      outcome: "answered",
      faqQuestion: outcome.after?.question ?? null,
      actor,
      at: new Date().toISOString(),
    }).run();
  }
  return outcome;
}

/** Records `questions` of an entity as dismissed, with an audit entry; false when there is no such entity. */
export async function dismissQuestions(db: D1Database, change: { entityId: string; questions: string[]; actor: string }): Promise<boolean> {
  const { entityId, questions, actor } = change;
  if (!(await findEntity(db, entityId))) return false;
  const at = new Date().toISOString();
  const counted = countedAs(questions);
  await db.batch([
    recordOutcomes(db, { entityId, questions: counted, outcome: "dismissed", faqQuestion: null, actor, at }),
    insertAudit(db, { at, actor, action: "unanswered.dismiss", target: entityId, detail: { questions: counted } }),
  ]);
  return true;
}
