import { Hono, type Context } from "hono";
import { z } from "zod";
import { answerQuestions, dismissQuestions, rephraseFaq } from "../catalogue/guest-questions";
import { readFaqList, type EditOutcome, type FaqList, type FaqText } from "../catalogue/faq-edits";
import { EntityId, MAX_PHRASINGS, Phrasing } from "../catalogue/records";
import { LanguageTag } from "../http/language-tags";
import { currentLexicon } from "../search/current-lexicon";
import { askEntity } from "../search/entity-question";
import { groupQuestions } from "../search/question-groups";
import { oldestKeptDay, UNANSWERED_RETENTION_DAYS } from "../search/unanswered";
import { findEntity, type EntityRow } from "../storage/entities";
import {
  listUnanswered,
  UNANSWERED_STATES,
  type UnansweredOutcome,
  type UnansweredRow,
  type UnansweredState,
} from "../storage/unanswered-questions";
import { reachOf, roleOn, type ConsoleAccess, type EntityRole } from "./access";
import { page, problem, seeOther } from "./answers";
import type { ConsoleEnv } from "./context";
import { entityInReach, formBasis, nothingHere, readOnly } from "./entity-reach";
import { Csrf, languageName, Page, Problems, render, type Viewer } from "./pages";

/**
 * The questions guests asked through the assistants that nothing in the content answers, for the entities a person
 * may see, most asked first, near-duplicates in any language as one group (src/search/question-groups.ts). An editor
 * handles a group: attaches its questions to an FAQ as ways guests ask it ("Guests also ask"), answers them with a
 * new FAQ in their language, or dismisses them; the list then shows what was done, by whom and when. The counts are
 * the operator's (`insights unanswered`), read through the same storage, and the actions the operator API's
 * (catalogue/guest-questions.ts).
 */

/** How many questions the page reads, before grouping. */
const LIMIT = 200;

const blankIsNone = (value: unknown) => (value === "" ? undefined : value);

/** The page's filters, as the query string carries them; an empty choice ("all") is no filter. */
export const UnansweredFilters = z.object({
  entity: z.preprocess(blankIsNone, EntityId.optional()),
  language: z.preprocess(blankIsNone, LanguageTag.optional()),
  state: z.preprocess(blankIsNone, z.enum(UNANSWERED_STATES).default("open")),
});
export type UnansweredFilters = z.output<typeof UnansweredFilters>;

const FILTER_PROBLEMS: Record<keyof UnansweredFilters, string> = {
  entity: "That is not the ID of a brand, hotel or page. Choose one from the list.",
  language: "That is not a language. Choose one from the list.",
  state: "Choose open or handled questions.",
};

export interface UnansweredItem {
  question: string;
  count: number;
  lastSeenAt: string;
  language: string | null;
  entityId: string | null;
  entity: { id: string; name: string; role: EntityRole } | null;
  handled: { outcome: UnansweredOutcome; faqQuestion: string | null; actor: string; at: string } | null;
}

/** The rows a person may see: of an entity they reach, or of none for an administrator; with their role on it. */
function visible(rows: UnansweredRow[], access: ConsoleAccess, administrator: boolean): UnansweredItem[] {
  return rows.flatMap((row): UnansweredItem[] => {
    const item = {
      question: row.question,
      count: row.count,
      lastSeenAt: row.last_seen_at,
      language: row.language,
      entityId: row.entity_id,
      handled:
        row.outcome === null
          ? null
          : { outcome: row.outcome, faqQuestion: row.faq_question, actor: row.actor ?? "", at: row.handled_at ?? "" },
    };
    if (row.entity_id === null) return administrator ? [{ ...item, entity: null }] : [];
    const role = roleOn(access, { id: row.entity_id, brand_id: row.brand_id });
    return role ? [{ ...item, entity: { id: row.entity_id, name: row.entity_name ?? row.entity_id, role } }] : [];
  });
}

/** A stored question (lower-cased, its ending stripped) as the first draft of an FAQ's question. */
export const draftQuestion = (question: string): string =>
  `${question.charAt(0).toUpperCase()}${question.slice(1).replace(/[?？]*$/, "")}?`;

/** The questions of a group in a query string or form: `q` once each. */
const questionsQuery = (questions: string[], more: Record<string, string> = {}) =>
  new URLSearchParams([...questions.map((q) => ["q", q]), ...Object.entries(more)]).toString();

const attachLink = (entityId: string, questions: string[]) =>
  `/console/entities/${entityId}/unanswered/attach?${questionsQuery(questions)}`;
export const answerLink = (entityId: string, questions: string[], language: string | null) =>
  `/console/entities/${entityId}/unanswered/answer?${questionsQuery(questions, language === null ? {} : { language })}`;

interface QuestionGroup {
  items: UnansweredItem[];
  entity: UnansweredItem["entity"];
  count: number;
  lastSeenAt: string;
}

interface UnansweredView {
  viewer: Viewer;
  groups: QuestionGroup[];
  /** How many questions were read: LIMIT when there may be more. */
  read: number;
  filters: { entity?: string; language?: string; state: UnansweredState };
  entities: { id: string; name: string }[];
  languages: string[];
  problems: string[];
  done?: string;
}

const languageLabel = (tag: string | null) => (tag === null ? "Not known" : `${languageName(tag)} (${tag})`);
/** Who did it, as the audit names them: a person by e-mail, the operator by token. */
const actorName = (actor: string) => actor.replace(/^person:/, "");

const DONE: Record<string, string> = {
  attached: "Attached: guests who ask these questions now get that FAQ.",
  answered: "Answered: the new FAQ is saved, and guests who ask these questions get it.",
  dismissed: "Dismissed: these questions are no longer listed as open.",
};

const Handled = ({ handled }: { handled: NonNullable<UnansweredItem["handled"]> }) => (
  <>
    {handled.outcome === "attached"
      ? `Attached to “${handled.faqQuestion ?? ""}” as a way guests ask it`
      : handled.outcome === "answered"
        ? `Answered by the new FAQ “${handled.faqQuestion ?? ""}”`
        : "Dismissed"}{" "}
    by {actorName(handled.actor)} on {handled.at.slice(0, 10)}
  </>
);

/** The table's cell of a group's questions: one question as it is, several as a list with their counts and languages. */
const GroupQuestions = ({ group }: { group: QuestionGroup }) =>
  group.items.length === 1 ? (
    <>{group.items[0]!.question}</>
  ) : (
    <ul class="asked">
      {group.items.map((item) => (
        <li>
          {item.question}{" "}
          <span class="muted">
            ({item.count} × {item.language ?? "language not known"})
          </span>
        </li>
      ))}
    </ul>
  );

function GroupActions({ group, viewer }: { group: QuestionGroup; viewer: Viewer }) {
  const open = group.items.filter((item) => item.handled === null);
  const handled = group.items.filter((item) => item.handled !== null);
  const entity = group.entity;
  const questions = open.map((item) => item.question);
  const label = entity ? `“${group.items[0]!.question}” at ${entity.name}` : "";
  return (
    <>
      {handled.map((item) => (
        <p class="muted">
          {group.items.length > 1 && <>{item.question}: </>}
          <Handled handled={item.handled!} />.
        </p>
      ))}
      {entity?.role === "editor" && open.length > 0 && (
        <div class="actions">
          <a href={attachLink(entity.id, questions)} aria-label={`Guests also ask: attach ${label} to an FAQ`}>
            Attach to an FAQ
          </a>
          <a href={answerLink(entity.id, questions, open[0]!.language)} aria-label={`Answer ${label} with a new FAQ`}>
            Answer with a new FAQ
          </a>
          <form method="post" action={`/console/entities/${entity.id}/unanswered/dismiss`}>
            <Csrf token={viewer.csrf} />
            {questions.map((q) => (
              <input type="hidden" name="q" value={q} />
            ))}
            <button type="submit" aria-label={`Dismiss ${label}`}>
              Dismiss
            </button>
          </form>
        </div>
      )}
    </>
  );
}

const GROUP_STYLE = `ul.asked{margin:0;padding-left:1rem}
.filters{flex-wrap:wrap}.filters select{min-width:0;width:100%}
td{overflow-wrap:anywhere}
@media (max-width:40rem){table.groups thead{display:none}table.groups tr,table.groups td{display:block}table.groups td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}`;

export const unansweredPage = ({ viewer, groups, read, filters, entities, languages, problems, done }: UnansweredView) => (
  <Page title="Questions guests could not get answered" viewer={viewer}>
    <style>{GROUP_STYLE}</style>
    <p>
      <a href="/console">All your content</a>
    </p>
    <h1>Questions guests could not get answered</h1>
    <p>
      Questions guests asked through the assistants in the last {UNANSWERED_RETENTION_DAYS} days that nothing in your content answers, most
      asked first; questions asking the same thing, in any words or language, are one group. E-mail addresses, phone numbers, links and
      booking numbers were taken out before they were kept. Attach a group to the FAQ that answers it, or answer it with a new FAQ: guests
      who ask again get it.
    </p>
    {done && DONE[done] && (
      <p class="notice ok" role="status">
        {DONE[done]}
      </p>
    )}
    {problems.length > 0 && (
      <div class="notice error" role="alert" id="filter-problems">
        {problems.map((message) => (
          <p>{message}</p>
        ))}
      </div>
    )}
    <form method="get" action="/console/unanswered" class="search filters">
      <div>
        <label for="state">Show</label>
        <select id="state" name="state">
          <option value="open" selected={filters.state === "open"}>
            Open questions
          </option>
          <option value="handled" selected={filters.state === "handled"}>
            Handled questions
          </option>
        </select>
      </div>
      <div>
        <label for="entity">Brand, hotel or page</label>
        <select id="entity" name="entity">
          <option value="">All you may see</option>
          {entities.map((entity) => (
            <option value={entity.id} selected={entity.id === filters.entity}>
              {entity.name} ({entity.id})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="language">Language</label>
        <select id="language" name="language">
          <option value="">All languages</option>
          {languages.map((tag) => (
            <option value={tag} selected={tag === filters.language}>
              {languageLabel(tag)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">Show</button>
    </form>
    {groups.length === 0 ? (
      <p>
        {problems.length > 0
          ? "Nothing is shown until the choice above is corrected."
          : filters.state === "open"
            ? "No open unanswered questions here."
            : "No handled questions here."}
      </p>
    ) : (
      <table class="groups">
        <caption class="muted">
          {read === LIMIT ? `The ${LIMIT} most asked questions, ` : `${read} questions, `}
          in {groups.length === 1 ? "1 group" : `${groups.length} groups`}.
        </caption>
        <thead>
          <tr>
            <th scope="col">Times asked</th>
            <th scope="col">Question</th>
            <th scope="col">Asked of</th>
            <th scope="col">Language</th>
            <th scope="col">Last asked</th>
            <th scope="col">{filters.state === "open" ? "Action" : "Done"}</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <tr>
              <td>{group.count}</td>
              <td>
                <GroupQuestions group={group} />
              </td>
              <td>{group.entity ? <a href={`/console/entities/${group.entity.id}`}>{group.entity.name}</a> : "No one hotel or page"}</td>
              <td>{[...new Set(group.items.map((item) => languageLabel(item.language)))].join(", ")}</td>
              <td data-label="Last asked">{group.lastSeenAt.slice(0, 10)}</td>
              <td>
                <GroupActions group={group} viewer={viewer} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </Page>
);

/** The page for a person, with the filters of `query`. */
export async function unansweredResponse(
  db: D1Database,
  person: { organizationId: string; access: ConsoleAccess; viewer: Viewer },
  query: Record<string, string>,
  waitUntil: (work: Promise<unknown>) => void,
): Promise<Response> {
  const { access, viewer } = person;
  const administrator = access.grants.some((grant) => grant.role === "administrator");
  const parsed = UnansweredFilters.safeParse({ entity: query.entity, language: query.language, state: query.state });
  const problems = parsed.success
    ? []
    : [...new Set(parsed.error.issues.map((issue) => FILTER_PROBLEMS[issue.path[0] as keyof UnansweredFilters]))];
  const filters: Partial<UnansweredFilters> = parsed.success ? parsed.data : {};
  const state = filters.state ?? "open";
  const chosen = filters.entity === undefined ? null : await findEntity(db, filters.entity);
  // An entity out of reach is refused in the same words whether it exists or not.
  if (filters.entity !== undefined && (!chosen || !roleOn(access, chosen)))
    problems.push("There is no brand, hotel or page with this ID that you may see.");
  const base = { organizationId: person.organizationId, sinceDay: oldestKeptDay(new Date()), reach: reachOf(access) };
  const all = visible(await listUnanswered(db, { ...base, withoutEntity: administrator, limit: LIMIT * 5 }), access, administrator);
  const items =
    problems.length > 0
      ? []
      : visible(
          await listUnanswered(db, {
            ...base,
            withoutEntity: administrator && filters.entity === undefined,
            entityId: filters.entity,
            language: filters.language,
            state,
            limit: LIMIT,
          }),
          access,
          administrator,
        );
  const lexicon = await currentLexicon(db, waitUntil);
  const groups = groupQuestions(items, lexicon).map((members): QuestionGroup => ({
    items: members,
    entity: members[0]!.entity,
    count: members.reduce((sum, item) => sum + item.count, 0),
    lastSeenAt: members.reduce((last, item) => (item.lastSeenAt > last ? item.lastSeenAt : last), ""),
  }));
  const entities = new Map(all.flatMap(({ entity }) => (entity ? [[entity.id, { id: entity.id, name: entity.name }]] : [])));
  if (chosen && problems.length === 0) entities.set(chosen.id, { id: chosen.id, name: chosen.name });
  const languages = [...new Set(all.flatMap(({ language }) => (language === null ? [] : [language])))].sort();
  return page(
    render(
      unansweredPage({
        viewer,
        groups,
        read: items.length,
        filters: { entity: query.entity, language: query.language, state },
        entities: [...entities.values()].sort((a, b) => a.name.localeCompare(b.name)),
        languages,
        problems,
        done: query.done,
      }),
    ),
    problems.length > 0 ? 400 : 200,
  );
}

// --- Handling a group: attach, answer, dismiss ---------------------------------------------------------------

type UnansweredContext = Context<ConsoleEnv>;

/** The questions of a group as a form or query string carries them: at least one, as many as an FAQ's phrasings. */
const GuestQuestions = z.array(Phrasing).min(1).max(MAX_PHRASINGS);
const QUESTIONS_PROBLEM = `Choose between 1 and ${MAX_PHRASINGS} questions from the list of unanswered questions, each with words and at most 500 characters.`;

/** The top of a page that acts on guests' questions: the way back, the title, what went wrong, and the questions. */
const AskedHeading = ({ title, problems, questions }: { title: string; problems: string[]; questions: string[] }) => (
  <>
    <p>
      <a href="/console/unanswered">Back to the unanswered questions</a>
    </p>
    <h1>{title}</h1>
    <Problems problems={problems} />
    <p>Guests asked:</p>
    <QuestionList questions={questions} />
  </>
);

/**
 * The entity of the path and the questions of `source`, when the person may edit the entity; else the page that
 * refuses: the same 404 whether the entity exists elsewhere or not, 403 for a viewer, 400 for bad questions.
 */
async function editable(
  c: UnansweredContext,
  source: URLSearchParams,
): Promise<{ entity: EntityRow; list: FaqList; questions: string[] } | Response> {
  const reached = await entityInReach(c);
  if (!reached) return nothingHere(c);
  if (reached.role !== "editor") return readOnly(c);
  const { entity } = reached;
  const questions = GuestQuestions.safeParse(source.getAll("q").map((q) => q.trim()));
  if (!questions.success) return problem(400, "These questions cannot be handled", QUESTIONS_PROBLEM, c.get("viewer"));
  const list = await readFaqList(c.env.DB, entity.id);
  if (!list) return nothingHere(c);
  return { entity, list, questions: questions.data };
}

const queryOf = (c: UnansweredContext) => new URL(c.req.url).searchParams;
const actorOf = (c: UnansweredContext) => `person:${c.get("person").email}`;
const later = (c: UnansweredContext) => (work: Promise<unknown>) => c.executionCtx.waitUntil(work);

const QuestionList = ({ questions }: { questions: string[] }) => (
  <ul class="asked" id="questions">
    {questions.map((q) => (
      <li>{q}</li>
    ))}
  </ul>
);

const HiddenQuestions = ({ questions }: { questions: string[] }) => (
  <>
    {questions.map((q) => (
      <input type="hidden" name="q" value={q} />
    ))}
  </>
);

interface AttachView {
  viewer: Viewer;
  entity: EntityRow;
  list: FaqList;
  questions: string[];
  /** FAQ positions (1-based), the search's best candidates for the questions first. */
  order: number[];
  /** How many of `order` the search found for the questions. */
  found: number;
  problems?: string[];
}

export function attachPage({ viewer, entity, list, questions, order, found, problems = [] }: AttachView) {
  const title = `Guests also ask: attach to an FAQ of ${entity.name}`;
  return (
    <Page title={title} viewer={viewer}>
      <style>{`ul.asked{margin:0 0 1rem;padding-left:1rem}fieldset{border:0;margin:0;padding:0}legend{font-weight:600;margin:0 0 .5rem}
.choices label{display:flex;gap:.6rem;align-items:flex-start;font-weight:400;padding:.5rem 0;border-bottom:1px solid var(--line)}
.choices input{width:1.25rem;height:1.25rem;margin:.2rem 0 0;flex:none}`}</style>
      <AskedHeading title={title} problems={problems} questions={questions} />
      {list.faqs.length === 0 ? (
        <p>
          {entity.name} has no FAQs yet. <a href={answerLink(entity.id, questions, null)}>Answer with a new FAQ</a> instead.
        </p>
      ) : (
        <form method="post" action={`/console/entities/${entity.id}/unanswered/attach`}>
          <Csrf token={viewer.csrf} />
          {/* Each FAQ's version by position: the attach is made on the FAQ chosen, as the page showed it. */}
          {list.faqVersions.map((version, index) => (
            <input type="hidden" name={`faq_version_${index + 1}`} value={version} />
          ))}
          <HiddenQuestions questions={questions} />
          <fieldset class="choices" aria-describedby="choices-help">
            <legend>Which FAQ answers them?</legend>
            <p class="muted" id="choices-help">
              The questions become ways guests ask it: guests who ask them, in these words or close to them, get this FAQ.
              {found > 0 ? " The closest matches come first." : ""}
            </p>
            {order.map((position, index) => (
              <label>
                <input type="radio" name="position" value={String(position)} required />
                <span>
                  {list.faqs[position - 1]!.question}
                  {index < found && <span class="muted"> · close match</span>}
                </span>
              </label>
            ))}
          </fieldset>
          <div class="actions">
            <button class="primary" type="submit">
              Attach
            </button>
            <a href="/console/unanswered">Cancel</a>
          </div>
        </form>
      )}
    </Page>
  );
}

/** The attach page: the entity's FAQs by question, those the search finds for the first question first. */
async function attachResponse(
  c: UnansweredContext,
  found: { entity: EntityRow; list: FaqList; questions: string[] },
  status = 200,
  problems: string[] = [],
) {
  const { entity, list, questions } = found;
  const { listed, confidence } = await askEntity(c.env.DB, later(c), entity, { question: questions[0]! });
  const positions = new Map(list.faqs.map((faq, index) => [faq.question, index + 1]));
  const order = [...new Set(listed.flatMap((faq) => positions.get(faq.source_question) ?? []))];
  for (const position of list.faqs.keys()) if (!order.includes(position + 1)) order.push(position + 1);
  const matched = confidence === "none" ? 0 : listed.filter((faq) => faq.score > 0).length;
  return page(render(attachPage({ viewer: c.get("viewer"), entity, list, questions, order, found: matched, problems })), status);
}

/** A refused edit in the person's words, or null when it was saved. */
function refusal(outcome: EditOutcome): { status: number; problems: string[] } | null {
  switch (outcome.outcome) {
    case "saved":
      return null;
    case "no_entity":
      return { status: 404, problems: ["There is no brand, hotel or page with this ID that you may see."] };
    case "no_faq":
    case "no_translation":
      return { status: 404, problems: ["That FAQ is no longer there. Choose one from the list as it is now."] };
    case "conflict":
      return { status: 409, problems: ["Someone changed that FAQ meanwhile. Check it as it is now and choose again."] };
    case "duplicate":
      return { status: 409, problems: [`FAQ ${outcome.position} already asks this question (capital letters and spaces aside).`] };
    case "invalid":
      return { status: 400, problems: outcome.problems.map(({ field, message }) => `${fieldName(field)} ${message}.`) };
  }
}

/** A field of an edit's problem in the person's words. */
function fieldName(field: string): string {
  if (/phrasings/.test(field)) return "A way guests ask it";
  if (/^translations/.test(field)) return /answer/.test(field) ? "The translated answer" : "The translation";
  return { question: "The question", answer: "The answer", category: "The category" }[field.split(".").at(-1) ?? ""] ?? "The FAQ";
}

/** Whether two language tags are one language (a regional form aside: pt-BR is pt). */
const sameLanguage = (a: string, b: string) => a.split("-")[0]!.toLowerCase() === b.split("-")[0]!.toLowerCase();

interface AnswerView {
  viewer: Viewer;
  entity: EntityRow;
  questions: string[];
  /** The guests' language, when it is not the entity's default: the FAQ is written in both. */
  translation: string | null;
  values: FaqText & { translationQuestion: string; translationAnswer: string };
  problems?: string[];
}

export function answerPage({ viewer, entity, questions, translation, values, problems = [] }: AnswerView) {
  const title = `Answer with a new FAQ of ${entity.name}`;
  const own = languageName(entity.default_language);
  const text = (id: string, label: string, value: string, lang?: string) => (
    <>
      <label for={id}>{label}</label>
      <input
        id={id}
        name={id}
        type="text"
        required
        value={value}
        lang={lang}
        aria-describedby={problems.length > 0 ? "problems" : undefined}
      />
    </>
  );
  const area = (id: string, label: string, value: string, lang?: string) => (
    <>
      <label for={id}>{label}</label>
      <textarea id={id} name={id} required lang={lang} aria-describedby={problems.length > 0 ? "problems" : undefined}>
        {value}
      </textarea>
    </>
  );
  return (
    <Page title={title} viewer={viewer}>
      <AskedHeading title={title} problems={problems} questions={questions} />
      <form method="post" action={`/console/entities/${entity.id}/unanswered/answer`}>
        <Csrf token={viewer.csrf} />
        <HiddenQuestions questions={questions} />
        {translation === null ? (
          <>
            {text("question", "Question", values.question, entity.default_language)}
            {area("answer", "Answer", values.answer, entity.default_language)}
          </>
        ) : (
          <>
            <input type="hidden" name="language" value={translation} />
            <p>
              {entity.name}'s FAQs are written in {own} first: write the FAQ in {own}, and in {languageName(translation)} as guests asked
              it.
            </p>
            <h2>In {own}</h2>
            {text("question", `Question in ${own}`, values.question, entity.default_language)}
            {area("answer", `Answer in ${own}`, values.answer, entity.default_language)}
            <h2 lang="en">In {languageName(translation)}</h2>
            {text("translation_question", `Question in ${languageName(translation)}`, values.translationQuestion, translation)}
            {area("translation_answer", `Answer in ${languageName(translation)}`, values.translationAnswer, translation)}
          </>
        )}
        {text("category", "Category", values.category)}
        <div class="actions">
          <button class="primary" type="submit">
            Add the FAQ
          </button>
          <a href="/console/unanswered">Cancel</a>
        </div>
      </form>
    </Page>
  );
}

/** The language of the guests' questions, when the FAQ must be written in it besides the entity's default; else null. */
function translationLanguage(entity: EntityRow, asked: string | null | undefined): string | null {
  if (asked === undefined || asked === null || asked === "") return null;
  const tag = LanguageTag.safeParse(asked);
  if (!tag.success) return null;
  return sameLanguage(tag.data, entity.default_language) ? null : tag.data;
}

export const unansweredRoutes = new Hono<ConsoleEnv>();

unansweredRoutes.get("/console/unanswered", (c) =>
  unansweredResponse(
    c.env.DB,
    { organizationId: c.get("person").organization_id, access: c.get("access"), viewer: c.get("viewer") },
    c.req.query(),
    later(c),
  ),
);

unansweredRoutes.get("/console/entities/:entityId/unanswered/attach", async (c) => {
  const found = await editable(c, queryOf(c));
  return found instanceof Response ? found : attachResponse(c, found);
});

unansweredRoutes.post("/console/entities/:entityId/unanswered/attach", async (c) => {
  const form = c.get("form");
  const found = await editable(c, form);
  if (found instanceof Response) return found;
  const position = Number(form.get("position"));
  if (!Number.isSafeInteger(position) || position < 1)
    return attachResponse(c, found, 400, ["Choose the FAQ that answers these questions."]);
  const outcome = await rephraseFaq(
    c.env,
    {
      entityId: found.entity.id,
      position,
      add: found.questions,
      remove: [],
      basis: { faq: form.get(`faq_version_${position}`) ?? "", question: "" },
      actor: actorOf(c),
    },
    later(c),
  );
  const refused = refusal(outcome);
  if (refused === null) return seeOther("/console/unanswered?done=attached");
  const list = outcome.outcome === "conflict" || outcome.outcome === "no_faq" ? outcome.list : found.list;
  return attachResponse(c, { ...found, list }, refused.status, refused.problems);
});

unansweredRoutes.get("/console/entities/:entityId/unanswered/answer", async (c) => {
  const query = queryOf(c);
  const found = await editable(c, query);
  if (found instanceof Response) return found;
  const translation = translationLanguage(found.entity, query.get("language"));
  // The guests' own words first: the question in their language is theirs; in another default language, it is to be written.
  const draft = draftQuestion(found.questions[0]!);
  const values = {
    question: translation === null ? draft : "",
    answer: "",
    category: "",
    translationQuestion: translation === null ? "" : draft,
    translationAnswer: "",
  };
  return page(
    render(
      answerPage({
        viewer: c.get("viewer"),
        entity: found.entity,
        questions: found.questions,
        translation,
        values,
      }),
    ),
  );
});

unansweredRoutes.post("/console/entities/:entityId/unanswered/answer", async (c) => {
  const form = c.get("form");
  const found = await editable(c, form);
  if (found instanceof Response) return found;
  const translation = translationLanguage(found.entity, form.get("language"));
  const values = {
    question: form.get("question") ?? "",
    answer: form.get("answer") ?? "",
    category: form.get("category") ?? "",
    translationQuestion: form.get("translation_question") ?? "",
    translationAnswer: form.get("translation_answer") ?? "",
  };
  const outcome = await answerQuestions(
    c.env,
    {
      entityId: found.entity.id,
      faq: { question: values.question, answer: values.answer, category: values.category },
      translations:
        translation === null ? [] : [{ language: translation, question: values.translationQuestion, answer: values.translationAnswer }],
      questions: found.questions,
      basis: formBasis(form),
      actor: actorOf(c),
    },
    later(c),
  );
  const refused = refusal(outcome);
  if (refused === null) return seeOther("/console/unanswered?done=answered");
  return page(
    render(
      answerPage({
        viewer: c.get("viewer"),
        entity: found.entity,
        questions: found.questions,
        translation,
        values,
        problems: refused.problems,
      }),
    ),
    refused.status,
  );
});

unansweredRoutes.post("/console/entities/:entityId/unanswered/dismiss", async (c) => {
  const found = await editable(c, c.get("form"));
  if (found instanceof Response) return found;
  await dismissQuestions(c.env.DB, { entityId: found.entity.id, questions: found.questions, actor: actorOf(c) });
  return seeOther("/console/unanswered?done=dismissed");
});
