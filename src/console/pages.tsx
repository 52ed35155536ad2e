import type { PropsWithChildren } from "hono/jsx";
import type { HtmlEscapedString } from "hono/utils/html";
import { raw } from "hono/html";
import type { FaqList, FaqText, PlacedFaq } from "../catalogue/faq-edits";
import type { FoundFaq } from "../search/answers";
import type { Confidence } from "../search/confidence";
import { PAGE_COLOURS } from "../http/html-page";
import type { EntityRow } from "../storage/entities";
import type { EntityRole } from "./access";

/**
 * The console's pages: server-rendered, no script, every form a plain POST that carries the session's CSRF token.
 * Hono's JSX escapes every value written into them.
 */

export const STYLESHEET = `${PAGE_COLOURS}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.75rem;padding:.75rem 1.5rem;background:var(--card);border-bottom:1px solid var(--line)}
header p{margin:0}
header form{display:inline}
main{max-width:72rem;margin:0 auto;padding:1.5rem}
.narrow{max-width:28rem;margin:3rem auto;background:var(--card);border:1px solid var(--line);border-radius:14px;padding:2rem 1.75rem}
a{color:var(--accent)}
h1{margin:0 0 1rem;font-size:1.5rem;line-height:1.3}
h2{margin:1.5rem 0 .75rem;font-size:1.15rem}
p{margin:0 0 1rem}
.muted{color:var(--muted)}
.notice{padding:.75rem 1rem;border-radius:10px;margin:0 0 1rem}
.ok{border:1px solid var(--line);background:var(--card)}
.warn{background:var(--warn-bg);color:var(--warn-ink)}
.error{background:var(--err-bg);color:var(--err-ink)}
label{display:block;margin:0 0 .35rem;font-weight:600}
input,textarea,select{display:block;width:100%;margin:0 0 1rem;padding:.6rem .75rem;font:inherit;color:inherit;background:transparent;border:1px solid var(--field);border-radius:8px}
textarea{min-height:8rem;resize:vertical}
button{min-height:2.5rem;padding:.45rem 1rem;font:inherit;font-weight:600;border-radius:8px;border:1px solid var(--accent);cursor:pointer;background:transparent;color:var(--accent)}
button.primary{background:var(--accent);color:var(--accent-ink)}
input:focus-visible,textarea:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.search{display:flex;gap:.75rem;align-items:flex-end;margin:0 0 1rem}
.search div{flex:1}
.search input{margin:0}
table{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line)}
th,td{text-align:left;vertical-align:top;padding:.6rem .75rem;border-bottom:1px solid var(--line)}
ol.faqs{list-style:none;margin:0;padding:0}
ol.faqs>li{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1rem 1.25rem;margin:0 0 1rem}
.texts{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
.texts h3{margin:0 0 .25rem;font-size:.85rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.missing{border:1px dashed var(--field);border-radius:8px;padding:.5rem .75rem}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.75rem;align-items:center}
.actions form{display:inline}
select{width:auto;min-width:12rem;background:var(--card)}
.confidence{display:inline-block;font-weight:600;padding:.2rem .6rem;border-radius:999px;border:1px solid var(--line)}
.compare{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1rem}
ul.changes{margin:0;padding-left:1rem}
ul.changes li{overflow-wrap:anywhere}
input[type=checkbox]{width:1.5rem;height:1.5rem;vertical-align:middle}
.compare section{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1rem 1.25rem}
`;

export interface Viewer {
  displayName: string;
  email: string;
  organizationName: string;
  csrf: string;
  /** The organization's administrator: the header links to the people and access pages. */
  administrator?: boolean;
}

/** The hidden field every form of a signed-in page carries. */
export const Csrf = ({ token }: { token: string }) => <input type="hidden" name="csrf" value={token} />;

/** A labelled input with its problem, if any, announced and tied to it. */
export const Field = ({ id, label, problem, ...input }: { id: string; label: string; problem?: string } & Record<string, unknown>) => (
  <>
    <label for={id}>{label}</label>
    {problem && (
      <p class="notice error" id={`${id}-problem`} role="alert">
        {problem}
      </p>
    )}
    <input
      id={id}
      name={id}
      aria-invalid={problem ? "true" : undefined}
      aria-describedby={problem ? `${id}-problem` : undefined}
      {...input}
    />
  </>
);

export function Page({ title, viewer, children }: PropsWithChildren<{ title: string; viewer?: Viewer }>) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${title} · Content console`}</title>
        <style>{raw(STYLESHEET)}</style>
      </head>
      <body>
        {viewer && (
          <header>
            <p>
              <a href="/console">Content console</a> · {viewer.organizationName}
              {viewer.administrator && (
                <>
                  {" · "}
                  <a href="/console/people">People</a> · <a href="/console/access">Partners and access</a>
                </>
              )}
            </p>
            <p>
              Signed in as {viewer.displayName} ({viewer.email}) · <a href="/console/password">Your password</a>{" "}
              <form method="post" action="/console/sign-out">
                <Csrf token={viewer.csrf} />
                <button type="submit">Sign out</button>
              </form>{" "}
              <form method="post" action="/console/sign-out-everywhere">
                <Csrf token={viewer.csrf} />
                <button type="submit">Sign out everywhere</button>
              </form>
            </p>
          </header>
        )}
        <main>{children}</main>
      </body>
    </html>
  );
}

/** A page as the document a response carries. */
export const render = async (page: HtmlEscapedString | Promise<HtmlEscapedString>): Promise<string> =>
  `<!doctype html>${(await page).toString()}`;

export interface SignInView {
  csrf: string;
  email?: string;
  error?: string;
  notice?: string;
}

export const signInPage = ({ csrf, email = "", error, notice }: SignInView) => (
  <Page title="Sign in">
    <div class="narrow">
      <h1>Sign in to the content console</h1>
      {notice && (
        <p class="notice warn" role="status">
          {notice}
        </p>
      )}
      {error && (
        <p class="notice error" id="sign-in-error" role="alert">
          {error}
        </p>
      )}
      <form method="post" action="/console/sign-in">
        <Csrf token={csrf} />
        <label for="email">E-mail</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={email}
          aria-describedby={error ? "sign-in-error" : undefined}
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button class="primary" type="submit">
          Sign in
        </button>
      </form>
    </div>
  </Page>
);

const KIND_NAMES: Record<EntityRow["kind"], string> = { brand: "Brand", property: "Hotel", destination: "Destination", airport: "Airport" };
const ROLE_NAMES: Record<EntityRole, string> = { viewer: "Can read", editor: "Can edit" };

export interface EntityListView {
  viewer: Viewer;
  search: string;
  entities: (EntityRow & { role: EntityRole })[];
  limit: number;
}

export const entityListPage = ({ viewer, search, entities, limit }: EntityListView) => (
  <Page title="Your content" viewer={viewer}>
    <h1>Your content</h1>
    <p>
      <a href="/console/unanswered">Questions guests could not get answered</a>
      <a href="/console/import">Import or export a file</a>
    </p>
    <form method="get" action="/console" class="search" role="search">
      <div>
        <label for="q">Find a brand, hotel or page by name or ID</label>
        <input id="q" name="q" type="search" value={search} />
      </div>
      <button type="submit">Search</button>
    </form>
    {entities.length === 0 ? (
      <p>
        {search
          ? `Nothing you may see matches “${search}”.`
          : "You have no content to look after yet. Ask your organization's administrator."}
      </p>
    ) : (
      <table>
        <caption class="muted">
          {entities.length === limit ? `The first ${limit}; search to narrow them down.` : `${entities.length} found.`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">ID</th>
            <th scope="col">Kind</th>
            <th scope="col">You</th>
          </tr>
        </thead>
        <tbody>
          {entities.map((entity) => (
            <tr>
              <td>
                <a href={`/console/entities/${entity.id}`}>{entity.name}</a>
              </td>
              <td>{entity.id}</td>
              <td>{KIND_NAMES[entity.kind]}</td>
              <td>{ROLE_NAMES[entity.role]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </Page>
);

const DONE: Record<string, string> = {
  add: "The FAQ was added.",
  replace: "The FAQ was saved.",
  remove: "The FAQ was removed.",
  move: "The FAQ was moved.",
};

export interface EntityView {
  viewer: Viewer;
  list: FaqList;
  role: EntityRole;
  done?: string;
}

/** Every language the entity's FAQs are translated into, in tag order. */
const translationLanguages = (list: FaqList): string[] =>
  [...new Set(list.faqs.flatMap((faq) => faq.translations.map((t) => t.language)))].sort();

export const languageName = (tag: string): string => new Intl.DisplayNames(["en"], { type: "language" }).of(tag) ?? tag;

export function entityPage({ viewer, list, role, done }: EntityView) {
  const { entity, faqs } = list;
  const languages = translationLanguages(list);
  const base = `/console/entities/${entity.id}`;
  return (
    <Page title={entity.name} viewer={viewer}>
      <p>
        <a href="/console">All your content</a>
      </p>
      <h1>
        {entity.name} <span class="muted">({entity.id})</span>
      </h1>
      {done && DONE[done] && (
        <p class="notice ok" role="status">
          {DONE[done]}
        </p>
      )}
      <p class="muted">
        {faqs.length === 1 ? "1 FAQ" : `${faqs.length} FAQs`} in {languageName(entity.default_language)}
        {languages.length > 0 && `, translated into ${languages.map(languageName).join(", ")}`}.{" "}
        {role === "viewer" && "You can read these FAQs but not change them."}
      </p>
      <p class="actions">
        {role === "editor" && <a href={`${base}/faqs/new`}>Add an FAQ</a>}
        <a href={`${base}/ask`}>Ask as a guest</a>
      </p>
      <ol class="faqs">
        {faqs.map((faq, index) => {
          const position = index + 1;
          const missing = languages.filter((language) => !faq.translations.some((t) => t.language === language));
          return (
            <li id={`faq-${position}`}>
              <h2>
                {position}. {faq.question}
              </h2>
              <p class="muted">Category: {faq.category}</p>
              <div class="texts">
                <div lang={entity.default_language}>
                  <h3>{languageName(entity.default_language)}</h3>
                  <p>{faq.answer}</p>
                </div>
                {languages.map((language) => {
                  const translation = faq.translations.find((t) => t.language === language);
                  return translation ? (
                    <div lang={language}>
                      <h3>{languageName(language)}</h3>
                      <p>
                        <strong>{translation.question}</strong>
                      </p>
                      <p>{translation.answer}</p>
                    </div>
                  ) : (
                    <div class="missing">
                      <h3>{languageName(language)}</h3>
                      <p>
                        Not translated yet: guests asking in {languageName(language)} get the {languageName(entity.default_language)} text.
                      </p>
                    </div>
                  );
                })}
              </div>
              {missing.length > 0 && <p class="notice warn">Missing translations: {missing.map(languageName).join(", ")}.</p>}
              {role === "editor" && (
                <div class="actions">
                  <a href={`${base}/faqs/${position}`} aria-label={`Edit FAQ ${position}`}>
                    Edit
                  </a>
                  {position > 1 && <MoveButton base={base} position={position} direction="up" version={list.version} csrf={viewer.csrf} />}
                  {position < faqs.length && (
                    <MoveButton base={base} position={position} direction="down" version={list.version} csrf={viewer.csrf} />
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </Page>
  );
}

const MoveButton = (props: { base: string; position: number; direction: "up" | "down"; version: string; csrf: string }) => (
  <form method="post" action={`${props.base}/faqs/${props.position}/move`}>
    <Csrf token={props.csrf} />
    <input type="hidden" name="version" value={props.version} />
    <input type="hidden" name="direction" value={props.direction} />
    <button type="submit" aria-label={`Move FAQ ${props.position} ${props.direction}`}>
      Move {props.direction}
    </button>
  </form>
);

export interface FaqFormView {
  viewer: Viewer;
  entity: EntityRow;
  version: string;
  /** The FAQ's position, or null for a new one. */
  position: number | null;
  values: FaqText;
  /** The FAQ as it was read, which a conflict is explained against. */
  original?: FaqText;
  /** Problems by field (`question`, `answer`, `category`), or `form` for the FAQ as a whole. */
  problems?: Record<string, string>;
}

const FIELDS: { name: keyof FaqText; label: string; multiline: boolean }[] = [
  { name: "question", label: "Question", multiline: false },
  { name: "answer", label: "Answer", multiline: true },
  { name: "category", label: "Category", multiline: false },
];

export function faqFormPage({ viewer, entity, version, position, values, original, problems = {} }: FaqFormView) {
  const base = `/console/entities/${entity.id}`;
  const title = position === null ? `Add an FAQ to ${entity.name}` : `Edit FAQ ${position} of ${entity.name}`;
  return (
    <Page title={title} viewer={viewer}>
      <p>
        <a href={base}>Back to {entity.name}</a>
      </p>
      <h1>{title}</h1>
      {Object.keys(problems).length > 0 && (
        <div class="notice error" role="alert" id="problems">
          <p>Nothing was saved:</p>
          <ul>
            {Object.values(problems).map((message) => (
              <li>{message}</li>
            ))}
          </ul>
        </div>
      )}
      <form method="post" action={position === null ? `${base}/faqs` : `${base}/faqs/${position}`}>
        <Csrf token={viewer.csrf} />
        <input type="hidden" name="version" value={version} />
        {original && FIELDS.map(({ name }) => <input type="hidden" name={`original_${name}`} value={original[name]} />)}
        {FIELDS.map(({ name, label, multiline }) => {
          const invalid = problems[name] !== undefined;
          const common = {
            id: name,
            name,
            required: true,
            "aria-invalid": invalid ? "true" : undefined,
            "aria-describedby": invalid ? "problems" : undefined,
          };
          return (
            <>
              <label for={name}>{label}</label>
              {multiline ? <textarea {...common}>{values[name]}</textarea> : <input {...common} type="text" value={values[name]} />}
            </>
          );
        })}
        <div class="actions">
          <button class="primary" type="submit">
            {position === null ? "Add the FAQ" : "Save"}
          </button>
          <a href={base}>Cancel</a>
        </div>
      </form>
      {position !== null && (
        <form method="post" action={`${base}/faqs/${position}/remove`}>
          <Csrf token={viewer.csrf} />
          <input type="hidden" name="version" value={version} />
          <h2>Remove this FAQ</h2>
          <p>Its translations are removed with it. Guests and partners stop seeing it within minutes.</p>
          <button type="submit">Remove FAQ {position}</button>
        </form>
      )}
    </Page>
  );
}

/** The languages a guest may be asked in from the console: "" detects it from the question's words. */
export const ASK_LANGUAGES = ["en", "pt", "es", "fr", "de", "it", "nl"] as const;

/** The confidence service_query states, in the content team's words. */
const CONFIDENCE_NAMES: Record<Confidence, string> = {
  high: "Answers it",
  low: "Related, may not answer",
  none: "Not in your content",
};

const CONFIDENCE_HELP: Record<Confidence, string> = {
  high: "The first FAQ answers the question: an assistant answers from it.",
  low: "These FAQs are related, but none clearly answers the question: an assistant says so and tells what they say.",
  none:
    "Nothing in this content answers the question: an assistant tells the guest so and suggests asking the hotel. The FAQs below " +
    "are the others, for browsing, never the answer. Consider adding one that answers it.",
};

export interface AskView {
  viewer: Viewer;
  entity: EntityRow;
  question: string;
  language: string;
  /** The plain-words problem with the question, when it cannot be asked. */
  problem?: string;
  /** What guests' assistants get, when a question was asked. */
  result?: { confidence: Confidence; faqs: FoundFaq[]; total: number; readAs: { language: string; detected: boolean } };
  /** Whether the person may edit the entity: then an unanswered question may be answered or attached from here. */
  editor?: boolean;
}

export function askPage({ viewer, entity, question, language, problem, result, editor = false }: AskView) {
  const base = `/console/entities/${entity.id}`;
  return (
    <Page title={`Ask ${entity.name} as a guest`} viewer={viewer}>
      <p>
        <a href={base}>Back to {entity.name}</a>
      </p>
      <h1>Ask {entity.name} as a guest</h1>
      <p class="muted">
        See what guests' assistants get for a guest's question, in the order they get it. Questions asked here are not counted among guests'
        unanswered questions.
      </p>
      {problem && (
        <p class="notice error" role="alert" id="ask-problem">
          {problem}
        </p>
      )}
      <form method="get" action={`${base}/ask`}>
        <label for="question">Question</label>
        <input
          id="question"
          name="question"
          type="text"
          required
          value={question}
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? "ask-problem" : undefined}
        />
        <label for="language">Guest's language</label>
        <select id="language" name="language">
          <option value="" selected={language === ""}>
            Detect from the question
          </option>
          {ASK_LANGUAGES.map((tag) => (
            <option value={tag} selected={language === tag}>
              {languageName(tag)}
            </option>
          ))}
        </select>
        <button class="primary" type="submit">
          Ask
        </button>
      </form>
      {result && (
        <section aria-labelledby="result">
          <h2 id="result">
            Confidence: <span class="confidence">{CONFIDENCE_NAMES[result.confidence]}</span>
          </h2>
          <p role="status">{CONFIDENCE_HELP[result.confidence]}</p>
          <p id="read-as">
            The question was read as {languageName(result.readAs.language)}
            {language !== ""
              ? " (as chosen)."
              : result.readAs.detected
                ? " (detected from its words)."
                : " (its words do not say which language)."}
          </p>
          {editor && result.confidence !== "high" && (
            <div class="actions" id="ask-offers">
              <a
                href={`${base}/unanswered/answer?${new URLSearchParams({ q: question, language: language || result.readAs.language }).toString()}`}
              >
                Add an FAQ for this question
              </a>
              <a href={`${base}/unanswered/attach?${new URLSearchParams({ q: question }).toString()}`}>
                Attach to an FAQ as a way guests ask it
              </a>
            </div>
          )}
          {result.faqs.length === 0 ? (
            <p>{entity.name} has no FAQs.</p>
          ) : (
            <>
              <p class="muted">
                {result.faqs.length < result.total ? `The first ${result.faqs.length} of ${result.total} FAQs` : `${result.total} FAQs`}, in
                the order the service lists them.
              </p>
              <ol class="faqs">
                {result.faqs.map((faq) => (
                  <li lang={faq.language}>
                    <h3>{faq.question}</h3>
                    <p>{faq.answer}</p>
                    <p class="muted" lang="en">
                      Category: {faq.category} · Language: {languageName(faq.language)}
                    </p>
                  </li>
                ))}
              </ol>
            </>
          )}
        </section>
      )}
    </Page>
  );
}

const FaqDetails = ({ faq }: { faq: FaqText }) => (
  <dl>
    <dt>Question</dt>
    <dd>{faq.question}</dd>
    <dt>Answer</dt>
    <dd>{faq.answer}</dd>
    <dt>Category</dt>
    <dd>{faq.category}</dd>
  </dl>
);

export interface ConflictView {
  viewer: Viewer;
  list: FaqList;
  /** What the person tried to save (null for a removal or a move). */
  attempted: FaqText | null;
  /** The FAQ they were working on as they read it, when the form said. */
  original: FaqText | null;
  /** That FAQ as it is now: found by its position, or by its question when it moved; null when it is gone. */
  current: PlacedFaq | null;
}

export const conflictPage = ({ viewer, list, attempted, original, current }: ConflictView) => (
  <Page title="Someone else changed these FAQs" viewer={viewer}>
    <h1>Someone else changed these FAQs</h1>
    <p class="notice warn" role="alert">
      The FAQs of {list.entity.name} changed after you opened the page, so your change was not saved. Compare, then make your change again
      on what is saved now.
    </p>
    <div class="compare">
      {original && (
        <section>
          <h2>When you opened it</h2>
          <FaqDetails faq={original} />
        </section>
      )}
      <section>
        <h2>{current ? `Saved now (FAQ ${current.position})` : "Saved now"}</h2>
        {current ? <FaqDetails faq={current} /> : <p>This FAQ is no longer there.</p>}
      </section>
      {attempted && (
        <section>
          <h2>Your change (not saved)</h2>
          <FaqDetails faq={attempted} />
        </section>
      )}
    </div>
    <p>
      <a href={`/console/entities/${list.entity.id}`}>See all FAQs of {list.entity.name} as they are now</a>
    </p>
  </Page>
);

export const problemPage = ({ viewer, heading, message }: { viewer?: Viewer; heading: string; message: string }) => (
  <Page title={heading} viewer={viewer}>
    <div class={viewer ? undefined : "narrow"}>
      <h1>{heading}</h1>
      <p class="notice error" role="alert">
        {message}
      </p>
      <p>
        <a href="/console">Back to your content</a>
      </p>
    </div>
  </Page>
);
