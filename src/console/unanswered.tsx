import { z } from "zod";
import { LanguageTag } from "../http/language-tags";
import { EntityId } from "../catalogue/records";
import { oldestKeptDay, UNANSWERED_RETENTION_DAYS } from "../search/unanswered";
import { findEntity } from "../storage/entities";
import { listUnanswered, type UnansweredRow } from "../storage/unanswered-questions";
import { reachOf, roleOn, type ConsoleAccess, type EntityRole } from "./access";
import { page } from "./answers";
import { languageName, Page, render, type Viewer } from "./pages";

/**
 * The questions guests asked through the assistants that nothing in the content answers, for the entities a person
 * may see, most asked first; an editor turns one into an FAQ with the console's add form, the question filled in.
 * The counts are the operator's (`insights unanswered`), read through the same storage.
 */

/** How many questions the page lists. */
const LIMIT = 200;

const blankIsNone = (value: unknown) => (value === "" ? undefined : value);

/** The page's filters, as the query string carries them; an empty choice ("all") is no filter. */
export const UnansweredFilters = z.object({
  entity: z.preprocess(blankIsNone, EntityId.optional()),
  language: z.preprocess(blankIsNone, LanguageTag.optional()),
});
export type UnansweredFilters = z.output<typeof UnansweredFilters>;

const FILTER_PROBLEMS: Record<keyof UnansweredFilters, string> = {
  entity: "That is not the ID of a brand, hotel or page. Choose one from the list.",
  language: "That is not a language. Choose one from the list.",
};

export interface UnansweredItem {
  question: string;
  count: number;
  lastSeenAt: string;
  language: string | null;
  entity: { id: string; name: string; role: EntityRole } | null;
}

/** The rows a person may see: of an entity they reach, or of none for an administrator; with their role on it. */
function visible(rows: UnansweredRow[], access: ConsoleAccess, administrator: boolean): UnansweredItem[] {
  return rows.flatMap((row): UnansweredItem[] => {
    const item = { question: row.question, count: row.count, lastSeenAt: row.last_seen_at, language: row.language };
    if (row.entity_id === null) return administrator ? [{ ...item, entity: null }] : [];
    const role = roleOn(access, { id: row.entity_id, brand_id: row.brand_id });
    return role ? [{ ...item, entity: { id: row.entity_id, name: row.entity_name ?? row.entity_id, role } }] : [];
  });
}

/** A stored question (lower-cased, its ending stripped) as the first draft of an FAQ's question. */
export const draftQuestion = (question: string): string => `${question.charAt(0).toUpperCase()}${question.slice(1)}?`;

const answerLink = (entityId: string, question: string) =>
  `/console/entities/${entityId}/faqs/new?${new URLSearchParams({ question: draftQuestion(question) }).toString()}`;

interface UnansweredView {
  viewer: Viewer;
  items: UnansweredItem[];
  filters: { entity?: string; language?: string };
  entities: { id: string; name: string }[];
  languages: string[];
  problems: string[];
}

const languageLabel = (tag: string | null) => (tag === null ? "Not known" : `${languageName(tag)} (${tag})`);

export const unansweredPage = ({ viewer, items, filters, entities, languages, problems }: UnansweredView) => (
  <Page title="Questions guests could not get answered" viewer={viewer}>
    <p>
      <a href="/console">All your content</a>
    </p>
    <h1>Questions guests could not get answered</h1>
    <p>
      Questions guests asked through the assistants in the last {UNANSWERED_RETENTION_DAYS} days that nothing in your content answers, most
      asked first. E-mail addresses, phone numbers, links and booking numbers were taken out before they were kept. Answer the common ones
      with an FAQ: guests who ask again get it.
    </p>
    {problems.length > 0 && (
      <div class="notice error" role="alert" id="filter-problems">
        {problems.map((message) => (
          <p>{message}</p>
        ))}
      </div>
    )}
    <form method="get" action="/console/unanswered" class="search">
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
    {items.length === 0 ? (
      <p>{problems.length > 0 ? "Nothing is shown until the choice above is corrected." : "No unanswered questions here."}</p>
    ) : (
      <table>
        <caption class="muted">{items.length === LIMIT ? `The ${LIMIT} most asked.` : `${items.length} found.`}</caption>
        <thead>
          <tr>
            <th scope="col">Times asked</th>
            <th scope="col">Question</th>
            <th scope="col">Asked of</th>
            <th scope="col">Language</th>
            <th scope="col">Last asked</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr>
              <td>{item.count}</td>
              <td>{item.question}</td>
              <td>{item.entity ? <a href={`/console/entities/${item.entity.id}`}>{item.entity.name}</a> : "No one hotel or page"}</td>
              <td>{languageLabel(item.language)}</td>
              <td>{item.lastSeenAt.slice(0, 10)}</td>
              <td>
                {item.entity?.role === "editor" && (
                  <a href={answerLink(item.entity.id, item.question)} aria-label={`Answer it for ${item.entity.name}`}>
                    Answer it
                  </a>
                )}
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
): Promise<Response> {
  const { access, viewer } = person;
  const administrator = access.grants.some((grant) => grant.role === "administrator");
  const parsed = UnansweredFilters.safeParse({ entity: query.entity, language: query.language });
  const problems = parsed.success
    ? []
    : [...new Set(parsed.error.issues.map((issue) => FILTER_PROBLEMS[issue.path[0] as keyof UnansweredFilters]))];
  const filters = parsed.success ? parsed.data : {};
  const chosen = filters.entity === undefined ? null : await findEntity(db, filters.entity);
  // An entity out of reach is refused in the same words whether it exists or not.
  if (filters.entity !== undefined && (!chosen || !roleOn(access, chosen)))
    problems.push("There is no brand, hotel or page with this ID that you may see.");
  const base = { organizationId: person.organizationId, sinceDay: oldestKeptDay(new Date()), reach: reachOf(access) };
  const all = visible(await listUnanswered(db, { ...base, withoutEntity: administrator, limit: LIMIT * 5 }), access, administrator);
  const items =
    problems.length > 0
      ? []
      : filters.entity === undefined && filters.language === undefined
        ? all.slice(0, LIMIT)
        : visible(
            await listUnanswered(db, {
              ...base,
              withoutEntity: administrator && filters.entity === undefined,
              entityId: filters.entity,
              language: filters.language,
              limit: LIMIT,
            }),
            access,
            administrator,
          );
  const entities = new Map(all.flatMap(({ entity }) => (entity ? [[entity.id, { id: entity.id, name: entity.name }]] : [])));
  if (chosen && problems.length === 0) entities.set(chosen.id, { id: chosen.id, name: chosen.name });
  const languages = [...new Set(all.flatMap(({ language }) => (language === null ? [] : [language])))].sort();
  return page(
    render(
      unansweredPage({
        viewer,
        items,
        filters: { entity: query.entity, language: query.language },
        entities: [...entities.values()].sort((a, b) => a.name.localeCompare(b.name)),
        languages,
        problems,
      }),
    ),
    problems.length > 0 ? 400 : 200,
  );
}
