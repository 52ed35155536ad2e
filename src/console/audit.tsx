import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { auditOfOrganization, type AuditEntry } from "../storage/admin-audit";
import { listApiKeys } from "../storage/api-keys";
import { entityIdsWithin } from "../storage/entities";
import { listPeople } from "../storage/people";
import { page, problem } from "./answers";
import { actionWords, changeLines } from "./change-words";
import type { ConsoleEnv } from "./context";
import { namerOf } from "./history";
import { Page, render, type Viewer } from "./pages";

/**
 * The changes page: for the organization's administrators, what its people did and what anyone (the operator too)
 * did to its content, its people and its keys; for editors, the changes to the brands, hotels and pages they may
 * edit. Newest first, a page at a time, filtered by person, entity and day, each change in words (change-words.ts),
 * a long value shown cut with the whole of it a click away. Another organization's changes never show.
 */

const PAGE_SIZE = 50;
const Day = z
  .string()
  .trim()
  .regex(/^(\d{4}-\d{2}-\d{2})?$/, "must be a date, like 2026-11-25")
  .refine((day) => day === "" || !Number.isNaN(Date.parse(day)), "must be a date, like 2026-11-25");
/** The page's filter: every field may be left empty; `before` is the page's place (the last entry of the page before). */
const AuditFilter = z.object({
  person: z.string().trim().toLowerCase().max(254, "is too long").default(""),
  entity: z.string().trim().max(200, "is too long").default(""),
  from: Day.default(""),
  to: Day.default(""),
  before: z
    .string()
    .regex(/^(\d{1,15})?$/, "must be a page of this list")
    .default(""),
});
type AuditFilterValues = z.output<typeof AuditFilter>;
const FILTER_LABELS: Record<string, string> = {
  person: "The person",
  entity: "The entity ID",
  from: "From",
  to: "Until",
  before: "The page",
};
const NO_FILTER: AuditFilterValues = { person: "", entity: "", from: "", to: "", before: "" };

const nextDay = (day: string) => new Date(Date.parse(day) + 86_400_000).toISOString();

/** One line of a change: cut where a value is long, with the whole line under it. */
const ChangeLine = ({ cut, whole }: { cut: string; whole: string }) =>
  cut === whole ? (
    <li>{cut}</li>
  ) : (
    <li>
      <details>
        <summary>{cut}</summary>
        {whole}
      </details>
    </li>
  );

function ChangeLines({ detail }: { detail: unknown }) {
  const cut = changeLines(detail);
  const whole = changeLines(detail, undefined, Number.POSITIVE_INFINITY);
  return (
    <ul class="changes">
      {cut.map((line, index) => (
        <ChangeLine cut={line} whole={whole[index] ?? line} />
      ))}
    </ul>
  );
}

interface AuditView {
  viewer: Viewer;
  administrator: boolean;
  filter: AuditFilterValues;
  problems: string[];
  entries: (AuditEntry & { id: number; who: string; on: string })[];
  older: number | null;
}

const auditPage = ({ viewer, administrator, filter, problems, entries, older }: AuditView) => {
  const pageOf = (before: number | null) =>
    `/console/audit?${new URLSearchParams({ ...filter, before: before === null ? "" : String(before) }).toString()}`;
  return (
    <Page title="Changes" viewer={viewer}>
      <h1>Changes</h1>
      <p class="muted">
        {administrator
          ? "What your organization's people changed, and what anyone changed in its content, its people and its keys, newest first."
          : "What anyone changed in the brands, hotels and pages you may edit, newest first."}
      </p>
      <form method="get" action="/console/audit">
        {administrator && (
          <>
            <label for="person">Person (e-mail)</label>
            <input id="person" name="person" type="email" value={filter.person} />
          </>
        )}
        <label for="entity">Brand, hotel or page ID</label>
        <input id="entity" name="entity" value={filter.entity} />
        <label for="from">From (day)</label>
        <input id="from" name="from" type="date" value={filter.from} />
        <label for="to">Until (day, included)</label>
        <input id="to" name="to" type="date" value={filter.to} />
        <button type="submit">Show</button>
      </form>
      <h2 id="audit">{filter.before === "" ? "Newest changes" : "Older changes"}</h2>
      {problems.length > 0 ? (
        problems.map((message) => (
          <p class="notice error" role="alert">
            {message}
          </p>
        ))
      ) : entries.length === 0 ? (
        <p>No change matches.</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">When (UTC)</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">On</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr>
                <td data-label="When (UTC)">{entry.at.slice(0, 16).replace("T", " ")}</td>
                <td data-label="Who">{`${entry.who[0]!.toUpperCase()}${entry.who.slice(1)}`}</td>
                <td data-label="What">{actionWords(entry.action)}</td>
                <td data-label="On">{entry.on}</td>
                <td data-label="Details">
                  <ChangeLines detail={entry.detail} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="actions">
        {filter.before !== "" && <a href={pageOf(null)}>Newest changes</a>}
        {older !== null && <a href={pageOf(older)}>Older changes</a>}
      </p>
    </Page>
  );
};

export const auditRoutes = new Hono<ConsoleEnv>();

auditRoutes.get("/console/audit", async (c) => {
  const db = c.env.DB;
  const person = c.get("person");
  const viewer = c.get("viewer");
  const { grants, scope } = c.get("access");
  const administrator = viewer.administrator === true;
  if (!administrator && !viewer.editor)
    return problem(
      403,
      "Not allowed",
      "Only the people who may edit content see its changes. Ask your organization's administrator.",
      viewer,
    );
  const parsed = AuditFilter.safeParse(c.req.query());
  const filter = parsed.success ? parsed.data : NO_FILTER;
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${FILTER_LABELS[String(issue.path[0])] ?? "The filter"} ${issue.message}.`);
  const [people, inScope] = await Promise.all([listPeople(db, person.organization_id), entityIdsWithin(db, scope)]);
  const nameOf = namerOf(people);
  const editable = administrator
    ? inScope
    : (
        await entityIdsWithin(
          db,
          grants.flatMap((grant) => (grant.role === "editor" && grant.entity_id ? [grant.entity_id] : [])),
        )
      ).filter((id) => inScope.includes(id));
  const keys = administrator ? await listApiKeys(db, { organizationId: person.organization_id }) : [];
  const chosen = filter.person === "" || !administrator ? undefined : people.find((someone) => someone.email === filter.person);
  const found =
    problems.length > 0 || (filter.person !== "" && !chosen)
      ? []
      : await auditOfOrganization(db, {
          actors: administrator ? people.map((someone) => `person:${someone.email}`) : [],
          // What the operator did to the organization's people, keys and content shows too.
          targets: administrator ? [...people.map((someone) => someone.id), ...keys.map((key) => key.id), ...scope, ...editable] : editable,
          person: chosen && { actor: `person:${chosen.email}`, id: chosen.id },
          entity: filter.entity || undefined,
          from: filter.from ? new Date(Date.parse(filter.from)).toISOString() : undefined,
          to: filter.to ? nextDay(filter.to) : undefined,
          beforeId: filter.before === "" ? undefined : Number(filter.before),
          limit: PAGE_SIZE + 1,
        });
  const shown = found.slice(0, PAGE_SIZE);
  const personNames = new Map(people.map((someone) => [someone.id, `${someone.display_name} (${someone.email})`]));
  const who = (actor: string) => {
    const name = nameOf(actor);
    const email = actor.startsWith("person:") ? actor.slice("person:".length) : name;
    return name === email ? name : `${name} (${email})`;
  };
  const entries = shown.map((entry) => ({ ...entry, who: who(entry.actor), on: personNames.get(entry.target) ?? entry.target }));
  const older = found.length > PAGE_SIZE ? shown[shown.length - 1]!.id : null;
  return page(render(auditPage({ viewer, administrator, filter, problems, entries, older })), problems.length > 0 ? 400 : 200);
});
