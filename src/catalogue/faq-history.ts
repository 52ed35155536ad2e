import type { Env } from "../env";
import { findVersion, newestVersionsOf, versionsOf, type FaqVersion } from "../storage/faq-versions";
import { editFaqs, listedFaq, readFaqList, type EditBasis, type EditOutcome, type FaqList } from "./faq-edits";
import { questionKey } from "./records";

/**
 * An FAQ's history (catalogue/faq-versions.ts writes it) as the console and the operator API read it, and the
 * restore of any earlier version in one edit: in place of the FAQ as it is now, or, for a removed FAQ, back where
 * it was (last, when the list is shorter now). A restore is an edit like another (faq-edits.ts): checked against
 * what it was made on, audited, and itself a version.
 */

/** How many removed FAQs an entity lists for restoring, newest first. */
export const REMOVED_LISTED = 20;

/** The newest version of each FAQ the entity has now, by question key, and the FAQs removed, newest first. */
export async function entityHistory(db: D1Database, list: FaqList): Promise<{ latest: Map<string, FaqVersion>; removed: FaqVersion[] }> {
  const newest = await newestVersionsOf(db, list.entity.id);
  const asked = new Set(list.faqs.map((faq) => questionKey(faq.question)));
  return {
    latest: new Map(newest.filter((version) => !version.removed).map((version) => [version.question_key, version])),
    removed: newest.filter((version) => version.removed && !asked.has(version.question_key)).slice(0, REMOVED_LISTED),
  };
}

/** The versions of the FAQ at `position` of `list`, newest first: none when it has had no recorded change. */
export async function historyAt(db: D1Database, list: FaqList, position: number): Promise<FaqVersion[] | null> {
  const faq = list.faqs[position - 1];
  if (!faq) return null;
  const newest = (await entityHistory(db, list)).latest.get(questionKey(faq.question));
  return newest ? versionsOf(db, newest.faq_id) : [];
}

/** A version of one of `entityId`'s FAQs, or null when there is none of that entity with that ID. */
export async function versionOf(db: D1Database, entityId: string, versionId: number): Promise<FaqVersion | null> {
  const version = Number.isSafeInteger(versionId) ? await findVersion(db, versionId) : null;
  return version?.entity_id === entityId ? version : null;
}

/** Whether a version is the FAQ as it stands now (nothing to restore). */
export const isCurrent = (list: FaqList, version: FaqVersion): boolean =>
  !version.removed && list.faqs.some((faq) => JSON.stringify(faq) === JSON.stringify(version.faq));

export type RestoreOutcome = EditOutcome | { outcome: "no_version" };

/**
 * Restores version `versionId` of one of `entityId`'s FAQs, as `actor`, unless what `basis` names changed since: in
 * place of the FAQ as it is now, or a removed FAQ back where it was. A basis of no FAQ (the console's Restore and
 * Undo of a removal) conflicts with nobody's edit of the other FAQs.
 */
export async function restoreVersion(
  env: Pick<Env, "DB" | "WEBHOOK_QUEUE">,
  change: { entityId: string; versionId: number; basis: EditBasis; actor: string },
  waitUntil: (work: Promise<unknown>) => void,
): Promise<RestoreOutcome> {
  const db = env.DB;
  const version = await versionOf(db, change.entityId, change.versionId);
  if (!version) return { outcome: "no_version" };
  const [newest] = await versionsOf(db, version.faq_id);
  const list = await readFaqList(db, change.entityId);
  const faqs = list?.faqs ?? [];
  const index = newest && !newest.removed ? faqs.findIndex((faq) => questionKey(faq.question) === newest.question_key) : -1;
  let basis = change.basis;
  if (list && "faq" in basis) {
    // Restoring what the FAQ already is changes nothing, whatever the request was made on (an Undo sent twice); a
    // request made on the whole list keeps HTTP's rule that a stale If-Match is refused.
    if (index >= 0 && JSON.stringify(faqs[index]) === JSON.stringify(version.faq)) basis = { list: list.version };
    // Made on an FAQ (its history page): that FAQ, as it was shown, and no other, or nothing at all.
    else if (basis.faq !== "" && (index < 0 || list.faqVersions[index] !== basis.faq))
      return { outcome: "conflict", list, current: index >= 0 ? listedFaq(list, index + 1) : null };
  }
  const edit =
    index >= 0
      ? { action: "restore" as const, position: index + 1, replace: true, faq: version.faq }
      : { action: "restore" as const, position: (newest ?? version).position, replace: false, faq: version.faq };
  return editFaqs(env, { entityId: change.entityId, edit, basis, actor: change.actor }, waitUntil);
}
