import { Hono, type Context } from "hono";
import { listedFaq, readFaqList, type FaqList } from "../catalogue/faq-edits";
import { entityHistory, historyAt, isCurrent, restoreVersion } from "../catalogue/faq-history";
import type { EntityRow } from "../storage/entities";
import type { FaqVersion } from "../storage/faq-versions";
import type { LocalizedFaq } from "../storage/faqs";
import { listPeople, type PersonRow } from "../storage/people";
import { page, problem, seeOther } from "./answers";
import { actionWords } from "./change-words";
import type { ConsoleEnv } from "./context";
import { entityInReach, formBasis, nothingHere, noSuchFaq, positionParam, readOnly } from "./entity-reach";
import {
  Csrf,
  EntityHeading,
  FaqBasis,
  LanguageText,
  Page,
  render,
  whenWords,
  type EntityHistoryView,
  type RemovedFaq,
  type Viewer,
} from "./pages";

/**
 * An FAQ's history and its restore, and the confirmation before a removal: each FAQ's versions (catalogue/
 * faq-history.ts), newest first and whole, any of which an editor brings back in one POST; the entity page's "last
 * changed" lines and its recently removed FAQs. People are named as their organization knows them.
 */

type HistoryContext = Context<ConsoleEnv>;

/** How long after a removal the entity page offers "Undo" in its notice (the removed list keeps "Restore"). */
const UNDO_MINUTES = 10;

/** Who wrote a version or an audit row, in words: one of `people` by name, anyone else's actor as the operator. */
export function namerOf(people: Pick<PersonRow, "email" | "display_name">[]): (actor: string | null) => string {
  const names = new Map(people.map((person) => [`person:${person.email}`, person.display_name]));
  return (actor) =>
    actor === null
      ? "nobody recorded"
      : (names.get(actor) ?? (actor.startsWith("person:") ? actor.slice("person:".length) : "the operator"));
}

/** namerOf the organization's people. */
export const actorNamer = async (db: D1Database, organizationId: string) => namerOf(await listPeople(db, organizationId));

const removedFaq = (version: FaqVersion, who: string): RemovedFaq => ({
  versionId: version.id,
  question: version.faq.question,
  languages: version.faq.translations.map((translation) => translation.language),
  who,
  at: version.at,
});

/** What the entity page shows of its FAQs' history: who changed each last, what was removed, and the removal to undo. */
export async function entityHistoryView(c: HistoryContext, list: FaqList, done: string | undefined): Promise<EntityHistoryView> {
  const person = c.get("person");
  const [history, nameOf] = await Promise.all([entityHistory(c.env.DB, list), actorNamer(c.env.DB, person.organization_id)]);
  const lastChanges = new Map([...history.latest].map(([key, version]) => [key, { who: nameOf(version.actor), at: version.at }]));
  const removed = history.removed.map((version) => removedFaq(version, nameOf(version.actor)));
  const recent = new Date(Date.now() - UNDO_MINUTES * 60_000).toISOString();
  const own = history.removed.find((version) => version.actor === `person:${person.email}` && version.at >= recent);
  return { lastChanges, removed, undo: done === "remove" && own ? removedFaq(own, nameOf(own.actor)) : undefined };
}

/** An FAQ whole: its question, answer and category, then each translation. */
const WholeFaq = ({ faq, entity }: { faq: LocalizedFaq; entity: EntityRow }) => (
  <div class="texts">
    <LanguageText language={entity.default_language} question={faq.question} answer={faq.answer}>
      <p class="muted" lang="en">
        Category: {faq.category}
      </p>
    </LanguageText>
    {faq.translations.map((translation) => (
      <LanguageText {...translation} />
    ))}
  </div>
);

const versionHeading = (version: FaqVersion, who: string): string =>
  version.actor === null
    ? "As it was before its first recorded change"
    : `${version.removed ? "Removed" : actionWords(version.action)} by ${who}, ${whenWords(version.at)}`;

interface HistoryView {
  viewer: Viewer;
  list: FaqList;
  position: number;
  editor: boolean;
  versions: { version: FaqVersion; who: string }[];
}

const historyPage = ({ viewer, list, position, editor, versions }: HistoryView) => {
  const { entity } = list;
  // Restores are made on this FAQ as the page shows it: another FAQ's change since does not refuse them.
  const faq = listedFaq(list, position)!;
  const base = `/console/entities/${entity.id}`;
  const title = `History of “${faq.question}”`;
  return (
    <Page title={title} viewer={viewer}>
      <EntityHeading entity={entity} title={title} anchor={`#faq-${position}`} />
      <p class="muted">
        Every version of this FAQ of {entity.name}, newest first, each with its translations.
        {editor &&
          " Restoring one brings it back as it was, translations included, in place of the FAQ as it is now; the restore is itself a new version."}
      </p>
      {versions.length === 0 ? (
        <p>This FAQ has not been changed since its history began.</p>
      ) : (
        <ol class="faqs">
          {versions.map(({ version, who }) => {
            const current = isCurrent(list, version);
            return (
              <li id={`version-${version.id}`}>
                <h2>{versionHeading(version, who)}</h2>
                {current && <p class="notice ok">This is the FAQ as it is now.</p>}
                <WholeFaq faq={version.faq} entity={entity} />
                {editor && !current && (
                  <form method="post" action={`${base}/versions/${version.id}/restore`} class="actions">
                    <Csrf token={viewer.csrf} />
                    <FaqBasis faq={faq} />
                    <button type="submit">Restore this version</button>
                  </form>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Page>
  );
};

const removePage = ({ viewer, list, position }: { viewer: Viewer; list: FaqList; position: number }) => {
  const { entity } = list;
  const faq = list.faqs[position - 1]!;
  const base = `/console/entities/${entity.id}`;
  return (
    <Page title={`Remove FAQ ${position} of ${entity.name}?`} viewer={viewer}>
      <EntityHeading entity={entity} title={`Remove “${faq.question}”?`} anchor={`#faq-${position}`} />
      <p class="notice warn">
        {faq.translations.length === 0
          ? "This FAQ goes, and guests and partners stop seeing it within minutes."
          : `This FAQ goes with its ${faq.translations.length === 1 ? "translation" : `${faq.translations.length} translations`}, and guests and partners stop seeing them within minutes.`}{" "}
        You can restore it afterwards from the page of {entity.name}.
      </p>
      <h2>What is removed</h2>
      <WholeFaq faq={faq} entity={entity} />
      <form method="post" action={`${base}/faqs/${position}/remove`} class="actions">
        <Csrf token={viewer.csrf} />
        <FaqBasis faq={listedFaq(list, position)!} />
        <button class="primary" type="submit">
          Remove it
        </button>
        <a href={`${base}#faq-${position}`}>Cancel</a>
      </form>
    </Page>
  );
};

export const historyRoutes = new Hono<ConsoleEnv>();

/** The entity of the path in reach, its FAQ list, and the FAQ position of the path within it; or the page that refuses. */
async function faqInReach(c: HistoryContext) {
  const found = await entityInReach(c);
  const list = found && (await readFaqList(c.env.DB, found.entity.id));
  if (!found || !list) return nothingHere(c);
  const position = positionParam(c);
  if (position === null || !list.faqs[position - 1]) return noSuchFaq(c, found.entity.name, position);
  return { ...found, list, position };
}

historyRoutes.get("/console/entities/:entityId/faqs/:position/history", async (c) => {
  const found = await faqInReach(c);
  if (found instanceof Response) return found;
  const { list, position, role } = found;
  const [versions, nameOf] = await Promise.all([
    historyAt(c.env.DB, list, position),
    actorNamer(c.env.DB, c.get("person").organization_id),
  ]);
  const named = (versions ?? []).map((version) => ({ version, who: nameOf(version.actor) }));
  return page(render(historyPage({ viewer: c.get("viewer"), list, position, editor: role === "editor", versions: named })));
});

historyRoutes.get("/console/entities/:entityId/faqs/:position/remove", async (c) => {
  const found = await faqInReach(c);
  if (found instanceof Response) return found;
  if (found.role !== "editor") return readOnly(c);
  return page(render(removePage({ viewer: c.get("viewer"), list: found.list, position: found.position })));
});

historyRoutes.post("/console/entities/:entityId/versions/:versionId/restore", async (c) => {
  const found = await entityInReach(c);
  if (!found) return nothingHere(c);
  if (found.role !== "editor") return readOnly(c);
  const viewer = c.get("viewer");
  const entity = found.entity;
  const outcome = await restoreVersion(
    c.env,
    {
      entityId: entity.id,
      versionId: Number(c.req.param("versionId")),
      basis: formBasis(c.get("form")),
      actor: `person:${c.get("person").email}`,
    },
    (work) => c.executionCtx.waitUntil(work),
  );
  switch (outcome.outcome) {
    case "saved":
      return seeOther(`/console/entities/${entity.id}?done=restore${outcome.after ? `#faq-${outcome.after.position}` : ""}`);
    case "no_entity":
      return nothingHere(c);
    case "no_version":
    case "no_faq":
      return problem(404, "No such version", `${entity.name} has no FAQ version at this address. Open its history again.`, viewer);
    case "conflict":
      return problem(
        409,
        "Someone else changed this FAQ",
        `This FAQ of ${entity.name} changed after you opened the page, so nothing was restored. Open the page again and restore on what is saved now.`,
        viewer,
      );
    case "duplicate":
      return problem(
        409,
        "Another FAQ asks this question",
        `FAQ ${outcome.position} of ${entity.name} already asks the question of this version (capital letters and spaces aside), so nothing was restored. Change or remove that one first.`,
        viewer,
      );
    case "invalid":
      return problem(
        400,
        "This version cannot be restored",
        `Restoring it would break a rule of the content: ${outcome.problems.map((p) => `${p.field} ${p.message}`).join("; ")}. Nothing was restored.`,
        viewer,
      );
  }
});
