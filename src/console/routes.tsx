import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { editFaqs, readFaqList, type EditOutcome, type FaqEdit, type FaqList, type FaqText } from "../catalogue/faq-edits";
import { CONSOLE_SIGN_IN_REALM } from "../catalogue/people";
import { constantTimeEqual } from "../crypto/hash";
import { randomSecret } from "../crypto/random";
import { BodyTooLarge, readBodyText } from "../http/body";
import { checkPassword } from "../rate-limit/password-sign-in";
import { callerAddress } from "../rate-limit/token-requests";
import { grantsOf } from "../storage/console-grants";
import { deleteSessionsOf } from "../storage/console-sessions";
import { entitiesWithin, findEntity } from "../storage/entities";
import { findOrganization, scopeOf } from "../storage/organizations";
import { findActivePerson, findSignInPerson } from "../storage/people";
import { reachOf, roleOn } from "./access";
import type { ConsoleEnv } from "./context";
import { askEntity, MAX_QUESTION_LENGTH } from "../search/entity-question";
import { importRoutes } from "./imports";
import { page, problem, seeOther } from "./answers";
import { keyRoutes } from "./keys";
import { partnerRoutes } from "./partners";
import { passwordRoutes } from "./password";
import { peopleRoutes } from "./people";
import { ASK_LANGUAGES, askPage, conflictPage, entityListPage, entityPage, faqFormPage, render, signInPage, type Viewer } from "./pages";
import { unansweredRoutes } from "./unanswered";
import {
  checkSession,
  clearCookie,
  cookieValue,
  csrfTokenOf,
  endSession,
  SESSION_COOKIE,
  SESSION_MAX_MS,
  setCookie,
  SIGN_IN_COOKIE,
  startSession,
} from "./session";

/**
 * The content console at /console: people of an organization sign in with their own account and look after the
 * FAQs their grants reach, one at a time, through the same service as the operator API (catalogue/faq-edits.ts).
 * Every POST carries the session's CSRF token; a form without it changes nothing.
 */

type ConsoleContext = Context<ConsoleEnv>;

const MAX_FORM_BYTES = 64 * 1024;
/** A content file uploaded to /console/import: as large as one chunk of the operator's import. */
const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
const LIST_LIMIT = 100;
const SIGN_IN_FORM_SECONDS = 3600;

/**
 * The form of a POST, or the answer that refuses it: urlencoded, or multipart on the upload page (a file's text is
 * the field's value, its name the field `<name>.name`), bounded as the operator's import chunks are.
 */
async function readForm(request: Request, upload = false): Promise<URLSearchParams | Response> {
  // Only the media type is compared case-insensitively: a multipart boundary is case-sensitive (RFC 2046 §5.1.1).
  const type = request.headers.get("Content-Type") ?? "";
  const mediaType = type.toLowerCase();
  const multipart = upload && mediaType.startsWith("multipart/form-data");
  if (!multipart && !mediaType.startsWith("application/x-www-form-urlencoded")) {
    return problem(415, "This form could not be read", "The form must be sent as a web form. Go back and try again.");
  }
  try {
    const text = await readBodyText(request, upload ? MAX_UPLOAD_BYTES : MAX_FORM_BYTES);
    if (!multipart) return new URLSearchParams(text);
    const parts = await new Request(request.url, { method: "POST", headers: { "Content-Type": type }, body: text })
      .formData()
      .catch(() => null);
    if (!parts)
      return problem(400, "This form could not be read", "The upload arrived incomplete or garbled. Go back and upload the file again.");
    const form = new URLSearchParams();
    for (const [name, value] of parts) {
      if (typeof value === "string") form.append(name, value);
      else {
        form.append(name, await value.text());
        form.append(`${name}.name`, value.name);
      }
    }
    return form;
  } catch (error) {
    if (error instanceof BodyTooLarge)
      return problem(
        413,
        "This form is too large",
        upload
          ? "The file is larger than 4 MB. Split it into smaller files and import them one by one."
          : "The text is too long to save. Shorten it and try again.",
      );
    throw error;
  }
}

const forgedForm = (viewer?: Viewer) =>
  problem(
    403,
    "This form cannot be accepted",
    "The form did not come from this page of the console, or it is too old. Nothing was changed. Go back, reload the page and try again.",
    viewer,
  );

const SESSION_ENDED = {
  idle: "You were signed out after 30 minutes without activity. Sign in again to continue.",
  expired: "You were signed out because you signed in more than 12 hours ago. Sign in again to continue.",
  out: "You are signed out.",
  everywhere: "You are signed out on every device.",
} as const;

/** Signed-in pages: the session must be active, and a POST must carry its CSRF token. */
const signedIn = createMiddleware<ConsoleEnv>(async (c, next) => {
  // "/console" matches both patterns this is mounted on: the second pass must not read the form again.
  if (c.get("person")) return next();
  const token = cookieValue(c.req.header("Cookie"), SESSION_COOKIE);
  const session = await checkSession(c.env.DB, token, Date.now());
  const person = session.state === "active" ? await findActivePerson(c.env.DB, session.personId) : null;
  if (!person || !token) {
    const ended = session.state === "ended" ? `?ended=${session.why}` : "";
    return c.req.method === "POST" ? forgedForm() : seeOther(`/console/sign-in${ended}`, [clearCookie(SESSION_COOKIE)]);
  }
  const [grants, scope, organization] = await Promise.all([
    grantsOf(c.env.DB, person.id),
    scopeOf(c.env.DB, person.organization_id),
    findOrganization(c.env.DB, person.organization_id),
  ]);
  const viewer: Viewer = {
    displayName: person.display_name,
    email: person.email,
    organizationName: organization?.name ?? person.organization_id,
    csrf: await csrfTokenOf(token),
    administrator: grants.some((grant) => grant.role === "administrator"),
  };
  c.set("person", person);
  c.set("access", { grants, scope });
  c.set("viewer", viewer);
  c.set("token", token);
  if (c.req.method === "POST") {
    const form = await readForm(c.req.raw, c.req.path === "/console/import");
    if (form instanceof Response) return form;
    if (!(await constantTimeEqual(form.get("csrf") ?? "", viewer.csrf))) return forgedForm(viewer);
    c.set("form", form);
  }
  return next();
});

export const consoleRoutes = new Hono<ConsoleEnv>();

consoleRoutes.get("/console/sign-in", async (c) => {
  const active = await checkSession(c.env.DB, cookieValue(c.req.header("Cookie"), SESSION_COOKIE), Date.now());
  if (active.state === "active") return seeOther("/console");
  const ended = c.req.query("ended");
  const csrf = randomSecret();
  const headers = new Headers({ "Set-Cookie": setCookie(SIGN_IN_COOKIE, csrf, SIGN_IN_FORM_SECONDS) });
  const notice = ended && ended in SESSION_ENDED ? SESSION_ENDED[ended as keyof typeof SESSION_ENDED] : undefined;
  return page(render(signInPage({ csrf, notice })), 200, headers);
});

const waitText = (seconds: number) => (seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

consoleRoutes.post("/console/sign-in", async (c) => {
  const form = await readForm(c.req.raw);
  if (form instanceof Response) return form;
  const expected = cookieValue(c.req.header("Cookie"), SIGN_IN_COOKIE);
  if (!expected || !(await constantTimeEqual(form.get("csrf") ?? "", expected))) return forgedForm();
  const email = form.get("email") ?? "";
  const checked = await checkPassword(
    c.env,
    { realm: CONSOLE_SIGN_IN_REALM, email, password: form.get("password") ?? "", address: callerAddress(c.req.raw, c.env) },
    (normalized) => findSignInPerson(c.env.DB, normalized),
  );
  if (!checked.ok) {
    const throttled = checked.reason === "throttled";
    const error = throttled
      ? `Too many failed sign-in attempts from here. Try again in ${waitText(checked.retryAfterSeconds ?? 60)}.`
      : "The e-mail or password is not correct.";
    const headers = new Headers(throttled ? { "Retry-After": String(checked.retryAfterSeconds ?? 60) } : {});
    return page(render(signInPage({ csrf: expected, email, error })), throttled ? 429 : 401, headers);
  }
  const token = await startSession(c.env.DB, checked.account.id, Date.now());
  return seeOther("/console", [setCookie(SESSION_COOKIE, token, SESSION_MAX_MS / 1000), clearCookie(SIGN_IN_COOKIE)]);
});

consoleRoutes.use("/console", signedIn);
// After the sign-in routes, which answer before it is reached.
consoleRoutes.use("/console/*", signedIn);

consoleRoutes.post("/console/sign-out", async (c) => {
  await endSession(c.env.DB, c.get("token"));
  return seeOther("/console/sign-in?ended=out", [clearCookie(SESSION_COOKIE)]);
});

consoleRoutes.post("/console/sign-out-everywhere", async (c) => {
  await deleteSessionsOf(c.env.DB, c.get("person").id).run();
  return seeOther("/console/sign-in?ended=everywhere", [clearCookie(SESSION_COOKIE)]);
});

consoleRoutes.get("/console", async (c) => {
  const access = c.get("access");
  const search = (c.req.query("q") ?? "").trim().slice(0, 200);
  const found = await entitiesWithin(c.env.DB, { reach: reachOf(access), scope: access.scope, search, limit: LIST_LIMIT });
  const entities = found.flatMap((entity) => {
    const role = roleOn(access, entity);
    return role ? [{ ...entity, role }] : [];
  });
  return page(render(entityListPage({ viewer: c.get("viewer"), search, entities, limit: LIST_LIMIT })));
});

const nothingHere = (c: ConsoleContext) =>
  problem(404, "Not found", "There is no brand, hotel or page with this ID that you may see.", c.get("viewer"));

/** The entity of the path with the person's role on it, or the 404 page (the same whether it exists elsewhere or not). */
async function entityInReach(c: ConsoleContext) {
  const entity = await findEntity(c.env.DB, c.req.param("entityId") ?? "");
  const role = entity ? roleOn(c.get("access"), entity) : null;
  return entity && role ? { entity, role } : null;
}

/** The 1-based FAQ position of the path, or null when it is not one. */
const positionParam = (c: ConsoleContext): number | null => {
  const position = Number(c.req.param("position"));
  return Number.isSafeInteger(position) && position >= 1 ? position : null;
};

consoleRoutes.get("/console/entities/:entityId", async (c) => {
  const found = await entityInReach(c);
  const list = found && (await readFaqList(c.env.DB, found.entity.id));
  if (!found || !list) return nothingHere(c);
  return page(render(entityPage({ viewer: c.get("viewer"), list, role: found.role, done: c.req.query("done") })));
});

/** How many FAQs "ask as a guest" shows: as many as service_query lists by default. */
const ASK_LIMIT = 20;

/**
 * "Ask as a guest": what guests' assistants get for a question about this entity (service_query), through the same
 * code (search/entity-question.ts); an editor may answer or attach a question it does not answer. A read, so a GET;
 * never counted among the unanswered questions, which are guests'.
 */
consoleRoutes.get("/console/entities/:entityId/ask", async (c) => {
  const found = await entityInReach(c);
  if (!found) return nothingHere(c);
  const viewer = c.get("viewer");
  const entity = found.entity;
  const question = (c.req.query("question") ?? "").trim();
  const asked = c.req.query("language") ?? "";
  const language = (ASK_LANGUAGES as readonly string[]).includes(asked) ? asked : "";
  const shown = { viewer, entity, question: question.slice(0, MAX_QUESTION_LENGTH), language };
  if (question === "") return page(render(askPage(shown)));
  if (question.length > MAX_QUESTION_LENGTH) {
    const problem = `The question is ${question.length} characters long; guests' questions may have at most ${MAX_QUESTION_LENGTH}. Shorten it and ask again.`;
    return page(render(askPage({ ...shown, problem })), 400);
  }
  const { listed, confidence, readAs } = await askEntity(c.env.DB, (work) => c.executionCtx.waitUntil(work), entity, {
    question,
    language: language || undefined,
  });
  const result = { confidence, faqs: listed.slice(0, ASK_LIMIT), total: listed.length, readAs };
  return page(render(askPage({ ...shown, result, editor: found.role === "editor" })));
});

const EMPTY_FAQ: FaqText = { question: "", answer: "", category: "" };

consoleRoutes.get("/console/entities/:entityId/faqs/new", async (c) => {
  const found = await entityInReach(c);
  if (!found) return nothingHere(c);
  if (found.role !== "editor") return readOnly(c);
  const list = await readFaqList(c.env.DB, found.entity.id);
  if (!list) return nothingHere(c);
  return page(
    render(
      faqFormPage({
        viewer: c.get("viewer"),
        entity: found.entity,
        version: list.version,
        position: null,
        // "Answer it" on the unanswered questions page fills in the question.
        values: { ...EMPTY_FAQ, question: c.req.query("question") ?? "" },
      }),
    ),
  );
});

consoleRoutes.get("/console/entities/:entityId/faqs/:position", async (c) => {
  const found = await entityInReach(c);
  const list = found && (await readFaqList(c.env.DB, found.entity.id));
  if (!found || !list) return nothingHere(c);
  if (found.role !== "editor") return readOnly(c);
  const position = positionParam(c);
  const faq = position === null ? undefined : list.faqs[position - 1];
  if (!faq || position === null) return noSuchFaq(c, found.entity.name, position);
  const values = { question: faq.question, answer: faq.answer, category: faq.category };
  return page(
    render(faqFormPage({ viewer: c.get("viewer"), entity: found.entity, version: list.version, position, values, original: values })),
  );
});

const readOnly = (c: ConsoleContext) =>
  problem(
    403,
    "You can read this content but not change it",
    "Ask your organization's administrator if you need to edit it.",
    c.get("viewer"),
  );

const noSuchFaq = (c: ConsoleContext, entityName: string, position: number | null) =>
  problem(
    404,
    "No such FAQ",
    `${entityName} has no FAQ ${position === null ? "at that address" : `number ${position}`}. It may have been removed or moved; open the list again.`,
    c.get("viewer"),
  );

const FIELD_LABELS: Record<string, string> = { question: "The question", answer: "The answer", category: "The category" };

const submittedFaq = (form: URLSearchParams, prefix = ""): FaqText => ({
  question: form.get(`${prefix}question`) ?? "",
  answer: form.get(`${prefix}answer`) ?? "",
  category: form.get(`${prefix}category`) ?? "",
});

/** Which FAQ of `list` the person was working on: the one with its question as read, else the one at its position. */
function currentFaq(list: FaqList, original: FaqText | null, position: number | null) {
  const byQuestion = original ? list.faqs.findIndex((faq) => faq.question === original.question) : -1;
  const index = byQuestion >= 0 ? byQuestion : position === null ? -1 : position - 1;
  const faq = list.faqs[index];
  return faq ? { position: index + 1, question: faq.question, answer: faq.answer, category: faq.category } : null;
}

/** Makes an edit from a form of the entity page or the FAQ form, and answers with the next page. */
async function submitEdit(c: ConsoleContext, edit: FaqEdit): Promise<Response> {
  const found = await entityInReach(c);
  if (!found) return nothingHere(c);
  if (found.role !== "editor") return readOnly(c);
  const form = c.get("form");
  const viewer = c.get("viewer");
  const entity = found.entity;
  const outcome: EditOutcome = await editFaqs(
    c.env,
    { entityId: entity.id, edit, expectedVersion: form.get("version") ?? "", actor: `person:${c.get("person").email}` },
    (work) => c.executionCtx.waitUntil(work),
  );
  const position = edit.action === "add" ? null : edit.position;
  const values = edit.action === "add" || edit.action === "replace" ? edit.faq : null;
  const original = form.has("original_question") ? submittedFaq(form, "original_") : null;
  const formAgain = (status: number, problems: Record<string, string>) =>
    page(
      render(
        faqFormPage({
          viewer,
          entity,
          version: form.get("version") ?? "",
          position,
          values: values ?? EMPTY_FAQ,
          original: original ?? undefined,
          problems,
        }),
      ),
      status,
    );
  switch (outcome.outcome) {
    case "saved": {
      const at = outcome.after ?? outcome.before;
      return seeOther(`/console/entities/${entity.id}?done=${edit.action}${at && outcome.after ? `#faq-${at.position}` : ""}`);
    }
    case "no_entity":
      return nothingHere(c);
    case "no_faq":
      return noSuchFaq(c, entity.name, edit.action === "move" && outcome.list.faqs[edit.position - 1] ? edit.to : position);
    case "conflict":
      return page(
        render(
          conflictPage({ viewer, list: outcome.list, attempted: values, original, current: currentFaq(outcome.list, original, position) }),
        ),
        409,
      );
    case "duplicate":
      return formAgain(409, {
        question: `FAQ ${outcome.position} of ${entity.name} already asks this question (capital letters and spaces aside). Edit that one instead.`,
      });
    case "invalid":
      return formAgain(
        400,
        Object.fromEntries(outcome.problems.map(({ field, message }) => [field, `${FIELD_LABELS[field] ?? "The FAQ"} ${message}.`])),
      );
  }
}

consoleRoutes.post("/console/entities/:entityId/faqs", (c) => submitEdit(c, { action: "add", faq: submittedFaq(c.get("form")) }));

consoleRoutes.post("/console/entities/:entityId/faqs/:position", (c) => {
  const position = positionParam(c);
  return position === null ? nothingHere(c) : submitEdit(c, { action: "replace", position, faq: submittedFaq(c.get("form")) });
});

consoleRoutes.post("/console/entities/:entityId/faqs/:position/remove", (c) => {
  const position = positionParam(c);
  return position === null ? nothingHere(c) : submitEdit(c, { action: "remove", position });
});

consoleRoutes.post("/console/entities/:entityId/faqs/:position/move", (c) => {
  const position = positionParam(c);
  const direction = c.get("form").get("direction");
  if (position === null || (direction !== "up" && direction !== "down")) return nothingHere(c);
  return submitEdit(c, { action: "move", position, to: direction === "up" ? position - 1 : position + 1 });
});

// The organization's administrators' pages, behind the same sign-in and CSRF check.
consoleRoutes.route("/", peopleRoutes);
consoleRoutes.route("/", partnerRoutes);
consoleRoutes.route("/", keyRoutes);
consoleRoutes.route("/", passwordRoutes);
consoleRoutes.route("/", importRoutes);
consoleRoutes.route("/", unansweredRoutes);
