import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { readFaqList } from "../catalogue/faq-edits";
import { CONSOLE_SIGN_IN_REALM } from "../catalogue/people";
import { constantTimeEqual } from "../crypto/hash";
import { randomSecret } from "../crypto/random";
import { BodyTooLarge, readBodyBytes, readBodyText } from "../http/body";
import { charsetOf, decodeTextFile, encodingWords, isDecoded } from "../http/text-files";
import { checkPassword } from "../rate-limit/password-sign-in";
import { callerAddress } from "../rate-limit/token-requests";
import { administratorNames, grantsOf } from "../storage/console-grants";
import { deleteSessionsOf } from "../storage/console-sessions";
import { entitiesWithin } from "../storage/entities";
import { findOrganization, scopeOf } from "../storage/organizations";
import { findActivePerson, findPersonByEmail } from "../storage/people";
import { reachOf, roleOn } from "./access";
import type { ConsoleEnv } from "./context";
import { askEntity, MAX_QUESTION_LENGTH } from "../search/entity-question";
import { findFaqs, MAX_FIND_LENGTH } from "../search/find-faqs";
import { entityHistoryView, historyRoutes } from "./history";
import { auditRoutes } from "./audit";
import { importRoutes } from "./imports";
import { page, problem, seeOther } from "./answers";
import { keyRoutes } from "./keys";
import { partnerRoutes } from "./partners";
import { passwordRoutes } from "./password";
import { peopleRoutes } from "./people";
import { ASK_LANGUAGES, askPage, entityListPage, entityPage, render, signInPage, type Viewer } from "./pages";
import { entityInReach, nothingHere } from "./entity-reach";
import { faqRoutes } from "./faq-routes";
import { replaceRoutes } from "./replace";
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
    if (!multipart) return new URLSearchParams(await readBodyText(request, upload ? MAX_UPLOAD_BYTES : MAX_FORM_BYTES));
    const bytes = await readBodyBytes(request, MAX_UPLOAD_BYTES);
    const parts = await new Request(request.url, { method: "POST", headers: { "Content-Type": type }, body: bytes })
      .formData()
      .catch(() => null);
    if (!parts)
      return problem(400, "This form could not be read", "The upload arrived incomplete or garbled. Go back and upload the file again.");
    const form = new URLSearchParams();
    for (const [name, value] of parts) {
      if (typeof value === "string") form.append(name, value);
      else {
        // A file is read from its bytes in the encoding its spreadsheet saved it in; one that is not text says where.
        const read = decodeTextFile(new Uint8Array(await value.arrayBuffer()), charsetOf(value.type));
        form.append(`${name}.name`, value.name);
        if (isDecoded(read)) {
          form.append(name, read.text);
          form.append(`${name}.encoding`, encodingWords(read));
        } else {
          form.append(`${name}.line`, String(read.line));
          form.append(`${name}.problem`, read.message);
        }
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

/** What a person whose password someone else set may do before choosing their own: choose it, or sign out. */
const BEFORE_CHOOSING_A_PASSWORD = new Set(["/console/password", "/console/sign-out", "/console/sign-out-everywhere"]);

/**
 * Signed-in pages: the session must be active, and a POST must carry its CSRF token. A person who must choose a
 * password is sent to do so from every other page, and a form of another page they post changes nothing.
 */
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
  if (person.must_choose_password === 1 && !BEFORE_CHOOSING_A_PASSWORD.has(c.req.path)) return seeOther("/console/password");
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
    editor: grants.some((grant) => grant.role === "editor"),
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
    // Disabled people too: one who proves their password is told why they cannot sign in, anyone else learns nothing.
    (normalized) => findPersonByEmail(c.env.DB, normalized),
  );
  if (!checked.ok) {
    const throttled = checked.reason === "throttled";
    const error = throttled
      ? `Too many failed sign-in attempts from here. Try again in ${waitText(checked.retryAfterSeconds ?? 60)}.`
      : "The e-mail or password is not correct.";
    const headers = new Headers(throttled ? { "Retry-After": String(checked.retryAfterSeconds ?? 60) } : {});
    return page(render(signInPage({ csrf: expected, email, error })), throttled ? 429 : 401, headers);
  }
  const person = checked.account;
  if (person.disabled_at !== null) {
    const administrators = await administratorNames(c.env.DB, person.organization_id);
    const ask =
      administrators.length === 0
        ? "Ask your organization's administrator to enable it again."
        : `Ask your organization's administrator (${administrators.join(", ")}) to enable it again.`;
    return page(render(signInPage({ csrf: expected, email, error: `Your account is disabled, so you cannot sign in. ${ask}` })), 403);
  }
  const token = await startSession(c.env.DB, person.id, Date.now());
  return seeOther(person.must_choose_password === 1 ? "/console/password" : "/console", [
    setCookie(SESSION_COOKIE, token, SESSION_MAX_MS / 1000),
    clearCookie(SIGN_IN_COOKIE),
  ]);
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

/** The home page: the entities the person may see and, with a search, the FAQs of theirs whose text holds it. */
consoleRoutes.get("/console", async (c) => {
  const access = c.get("access");
  const search = (c.req.query("q") ?? "").trim().slice(0, MAX_FIND_LENGTH);
  const reach = reachOf(access);
  const [found, faqs] = await Promise.all([
    entitiesWithin(c.env.DB, { reach, scope: access.scope, search, limit: LIST_LIMIT }),
    search === "" ? null : findFaqs(c.env.DB, search, [reach, access.scope]),
  ]);
  const entities = found.flatMap((entity) => {
    const role = roleOn(access, entity);
    return role ? [{ ...entity, role }] : [];
  });
  // The index admits only what the reach's keys hold; each FAQ's entity is checked again with the roles.
  const faqsSeen = faqs && { ...faqs, faqs: faqs.faqs.filter((faq) => roleOn(access, { id: faq.entityId, brand_id: faq.brandId })) };
  return page(render(entityListPage({ viewer: c.get("viewer"), search, entities, limit: LIST_LIMIT, faqs: faqsSeen })));
});

consoleRoutes.get("/console/entities/:entityId", async (c) => {
  const found = await entityInReach(c);
  const list = found && (await readFaqList(c.env.DB, found.entity.id));
  if (!found || !list) return nothingHere(c);
  const done = c.req.query("done");
  const history = await entityHistoryView(c, list, done);
  return page(render(entityPage({ viewer: c.get("viewer"), list, role: found.role, done, history })));
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

// The organization's administrators' pages, behind the same sign-in and CSRF check.
consoleRoutes.route("/", peopleRoutes);
consoleRoutes.route("/", partnerRoutes);
consoleRoutes.route("/", keyRoutes);
consoleRoutes.route("/", passwordRoutes);
consoleRoutes.route("/", importRoutes);
consoleRoutes.route("/", faqRoutes);
consoleRoutes.route("/", replaceRoutes);
consoleRoutes.route("/", historyRoutes);
consoleRoutes.route("/", auditRoutes);
consoleRoutes.route("/", unansweredRoutes);
