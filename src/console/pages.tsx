import type { PropsWithChildren } from "hono/jsx";
import type { HtmlEscapedString } from "hono/utils/html";
import { raw } from "hono/html";
import { listedFaq, type FaqList, type ListedFaq } from "../catalogue/faq-edits";
import { questionKey } from "../catalogue/records";
import type { FoundFaq } from "../search/answers";
import type { ExcerptPiece, FoundFaqs, FoundField } from "../search/find-faqs";
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
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.75rem;align-items:center}
.actions form{display:inline}
.actions form.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
form.inline label{margin:0;font-weight:400}
form.inline select{margin:0;min-width:5rem}
select{width:auto;min-width:12rem;background:var(--card)}
.confidence{display:inline-block;font-weight:600;padding:.2rem .6rem;border-radius:999px;border:1px solid var(--line)}
.compare{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1rem}
ul.changes{margin:0;padding-left:1rem}
ul.changes li{overflow-wrap:anywhere}
table.changes{table-layout:fixed;margin:0 0 1rem}
table.changes caption{text-align:left;font-weight:600;padding:.5rem 0}
table.changes caption,table.changes th,table.changes td{overflow-wrap:anywhere}
select{max-width:100%}
td{overflow-wrap:anywhere}
ol.history{margin:0;padding-left:1.25rem}
@media (max-width:40rem){main{padding:1rem}table.cards,table.cards tbody,table.cards tr,table.cards td{display:block}
table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.cards caption{display:block;text-align:left;padding:.5rem .75rem}
table.cards tr{border-bottom:1px solid var(--line);padding:.5rem 0}table.cards td{border:0;padding:.2rem .75rem}
table.cards td::before{content:attr(data-label) ": ";font-weight:600}}
input[type=checkbox]{display:inline-block;width:1.5rem;height:1.5rem;margin:0 .5rem 0 0;vertical-align:middle}
input[type=checkbox]+label{display:inline;vertical-align:middle}
@media (max-width:40rem){table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}table.stack,table.stack tbody,table.stack tr,table.stack td{display:block}table.stack td{overflow-wrap:anywhere}table.stack td::before{content:attr(data-label) ": ";font-weight:600}}
ul.removed{list-style:none;margin:0;padding:0}
ul.removed li{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.75rem 1rem;margin:0 0 .75rem;overflow-wrap:anywhere}
.compare section{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1rem 1.25rem}
body{overflow-wrap:anywhere}
ul.links{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;margin:0 0 1rem;padding:0}
ol.found{margin:0;padding-left:1.5rem}
ol.found>li{margin:0 0 1rem}
ol.found p{margin:.15rem 0 0}
.saved{position:sticky;top:0;z-index:1;box-shadow:0 2px 6px rgba(0,0,0,.2)}
ol.faqs>li{scroll-margin-top:5rem}
fieldset{min-width:0;margin:0 0 1rem;border:1px solid var(--line);border-radius:12px;padding:.75rem 1rem}
ul.replacements{list-style:none;margin:0;padding:0}
ul.replacements>li{padding:.5rem 0;border-bottom:1px solid var(--line)}
ul.replacements p{margin:.25rem 0 0}
del{background:var(--err-bg);color:var(--err-ink)}
ins{background:var(--warn-bg);color:var(--warn-ink)}
@media (max-width:40rem){
main{padding:1rem .75rem}
header{padding:.75rem}
.narrow{margin:1rem auto;padding:1.25rem 1rem}
.search{flex-wrap:wrap}
table,thead,tbody,tr,th,td,caption{display:block}
thead tr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
tr{border-bottom:1px solid var(--line);padding:.4rem 0}
th,td{border:0;padding:.2rem .75rem}
td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
select{width:100%;min-width:0}
}
`;

export interface Viewer {
  displayName: string;
  email: string;
  organizationName: string;
  csrf: string;
  /** The organization's administrator: the header links to the people and access pages. */
  administrator?: boolean;
  /** May edit some content: the header links to the changes page. */
  editor?: boolean;
}

/** The hidden field every form of a signed-in page carries. */
export const Csrf = ({ token }: { token: string }) => <input type="hidden" name="csrf" value={token} />;

/** The hidden fields that say which FAQ a form was made on (catalogue/faq-edits.ts `EditBasis`). */
export const FaqBasis = ({ faq }: { faq: Pick<ListedFaq, "version" | "question"> }) => (
  <>
    <input type="hidden" name="faq_version" value={faq.version} />
    <input type="hidden" name="original_question" value={faq.question} />
  </>
);

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
              {(viewer.administrator || viewer.editor) && (
                <>
                  {" · "}
                  <a href="/console/audit">Changes</a>
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
  /** With a search: the FAQs whose text holds it. */
  faqs?: FoundFaqs | null;
}

const FIELD_NAMES: Record<FoundField, string> = { question: "question", answer: "answer" };

const Excerpt = ({ pieces }: { pieces: ExcerptPiece[] }) => (
  <>{pieces.map((piece) => (piece.mark ? <mark>{piece.text}</mark> : piece.text))}</>
);

/** The FAQs a search found, each linked to its place on its entity's page, with the passage that matched. */
const FoundFaqList = ({ search, found }: { search: string; found: FoundFaqs }) => (
  <section aria-labelledby="found-faqs">
    <h2 id="found-faqs">FAQs</h2>
    {found.faqs.length === 0 ? (
      <p>No FAQ you may see has “{search}” in its question or answer, in any language.</p>
    ) : (
      <>
        <p class="muted">
          {found.faqs.length < found.total
            ? `The first ${found.faqs.length} of ${found.total}; add words to narrow them down.`
            : found.total === 1
              ? "1 found."
              : `${found.total} found.`}
        </p>
        <ol class="found">
          {found.faqs.map((faq) => (
            <li>
              <a href={`/console/entities/${faq.entityId}#faq-${faq.position}`} lang={faq.language}>
                {faq.question}
              </a>
              <p class="muted">
                {faq.entityName} · FAQ {faq.position}
                {faq.translation ? ` · ${languageName(faq.language)}` : ""} · in the {FIELD_NAMES[faq.field]}
              </p>
              <p lang={faq.language}>
                <Excerpt pieces={faq.excerpt} />
              </p>
            </li>
          ))}
        </ol>
      </>
    )}
  </section>
);

export const entityListPage = ({ viewer, search, entities, limit, faqs }: EntityListView) => (
  <Page title={search ? `“${search}” in your content` : "Your content"} viewer={viewer}>
    <h1>Your content</h1>
    <nav aria-label="Your content's pages">
      <ul class="links">
        <li>
          <a href="/console/unanswered">Questions guests could not get answered</a>
        </li>
        <li>
          <a href="/console/import">Import or export a file</a>
        </li>
        <li>
          <a href="/console/replace">Find and replace</a>
        </li>
      </ul>
    </nav>
    <form method="get" action="/console" class="search" role="search">
      <div>
        <label for="q">Find a brand, hotel or page by name or ID, or FAQs by their words</label>
        <input id="q" name="q" type="search" value={search} />
      </div>
      <button type="submit">Search</button>
    </form>
    {search && <h2>Hotels and pages</h2>}
    {entities.length === 0 ? (
      <p>
        {search
          ? `Nothing you may see matches “${search}”.`
          : "You have no content to look after yet. Ask your organization's administrator."}
      </p>
    ) : (
      <table class="stack">
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
              <td data-label="Name">
                <a href={`/console/entities/${entity.id}`}>{entity.name}</a>
              </td>
              <td data-label="ID">{entity.id}</td>
              <td data-label="Kind">{KIND_NAMES[entity.kind]}</td>
              <td data-label="You">{ROLE_NAMES[entity.role]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
    {faqs && <FoundFaqList search={search} found={faqs} />}
  </Page>
);

const DONE: Record<string, string> = {
  add: "The FAQ was added.",
  replace: "The FAQ was saved.",
  remove: "The FAQ was removed.",
  move: "The FAQ was moved.",
  translate: "The translation was saved.",
  untranslate: "The translation was removed.",
  restore: "The FAQ was restored.",
};

/** An FAQ removed, as the entity page offers it back. */
export interface RemovedFaq {
  /** The version that restores it. */
  versionId: number;
  question: string;
  /** The languages of the translations it took with it. */
  languages: string[];
  who: string;
  at: string;
}

/** What the entity page shows of its FAQs' history (console/history.tsx reads it). */
export interface EntityHistoryView {
  /** Who changed each FAQ last and when, by its question's key. */
  lastChanges: Map<string, { who: string; at: string }>;
  removed: RemovedFaq[];
  /** The removal this person just made, which "Undo" restores. */
  undo?: RemovedFaq;
}

export interface EntityView {
  viewer: Viewer;
  list: FaqList;
  role: EntityRole;
  done?: string;
  history?: EntityHistoryView;
}

/** A time of the history as people read it: day and minute, UTC. */
export const whenWords = (at: string): string => `${at.slice(0, 16).replace("T", " ")} UTC`;

/** "1 FAQ", "2,048 FAQs". */
export const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** What stopped a form from being saved, announced, each problem a line. */
export const Problems = ({ problems }: { problems: string[] }) =>
  problems.length === 0 ? null : (
    <div class="notice error" role="alert" id="problems">
      <p>Nothing was saved:</p>
      <ul>
        {problems.map((message) => (
          <li>{message}</li>
        ))}
      </ul>
    </div>
  );

/** The top of a page about one entity (or one of its FAQs, at `anchor`): the way back to it, and the title. */
export const EntityHeading = ({ entity, title, anchor = "" }: { entity: EntityRow; title: string; anchor?: string }) => (
  <>
    <p>
      <a href={`/console/entities/${entity.id}${anchor}`}>Back to {entity.name}</a>
    </p>
    <h1>{title}</h1>
  </>
);

/** "its pt and es translations": the translations an FAQ has, by language tag. */
const translationsWords = (languages: string[]): string =>
  languages.length === 0
    ? ""
    : ` with its ${languages.length === 1 ? languages[0] : `${languages.slice(0, -1).join(", ")} and ${languages[languages.length - 1]}`} translation${languages.length === 1 ? "" : "s"}`;

const RestoreButton = ({ base, removed, csrf, label }: { base: string; removed: RemovedFaq; csrf: string; label: string }) => (
  // Made on no FAQ: bringing a removed FAQ back conflicts with nobody's edit of the others.
  <form method="post" action={`${base}/versions/${removed.versionId}/restore`}>
    <Csrf token={csrf} />
    <button type="submit" aria-label={`${label} the removal of “${removed.question}”`}>
      {label}
    </button>
  </form>
);

/** Every language the entity's FAQs are translated into, in tag order. */
const translationLanguages = (list: FaqList): string[] =>
  [...new Set(list.faqs.flatMap((faq) => faq.translations.map((t) => t.language)))].sort();

export const languageName = (tag: string): string => new Intl.DisplayNames(["en"], { type: "language" }).of(tag) ?? tag;

/** One language's text of an FAQ, headed by the language's name; `children` follow it (an edit link). */
export const LanguageText = ({
  language,
  question,
  answer,
  children,
}: PropsWithChildren<{ language: string; question: string; answer: string }>) => (
  <div lang={language}>
    <h3>{languageName(language)}</h3>
    <p>
      <strong>{question}</strong>
    </p>
    <p>{answer}</p>
    {children}
  </div>
);

export function entityPage({ viewer, list, role, done, history }: EntityView) {
  const { entity, faqs } = list;
  const languages = translationLanguages(list);
  // The languages guests are asked in from the console are offered for new translations; any other by its address.
  const otherLanguages = ASK_LANGUAGES.filter((tag) => tag !== entity.default_language.toLowerCase());
  const base = `/console/entities/${entity.id}`;
  return (
    <Page title={entity.name} viewer={viewer}>
      <p>
        <a href="/console">All your content</a>
      </p>
      <h1>
        {entity.name} <span class="muted">({entity.id})</span>
      </h1>
      {done === "remove" && history?.undo ? (
        <div class="notice ok saved actions" role="status">
          <span>
            Removed “{history.undo.question}”{translationsWords(history.undo.languages)}.
          </span>
          {role === "editor" && <RestoreButton base={base} removed={history.undo} csrf={viewer.csrf} label="Undo" />}
        </div>
      ) : (
        done &&
        DONE[done] && (
          <p class="notice ok saved" role="status">
            {DONE[done]}
          </p>
        )
      )}
      <p class="muted">
        {faqs.length === 1 ? "1 FAQ" : `${faqs.length} FAQs`} in {languageName(entity.default_language)}
        {languages.length > 0 && `, translated into ${languages.map(languageName).join(", ")}`}.{" "}
        {role === "viewer" && "You can read these FAQs but not change them."}
      </p>
      <p class="actions">
        {role === "editor" && <a href={`${base}/faqs/new`}>Add an FAQ</a>}
        <a href={`${base}/ask`}>Ask as a guest</a>
        {(entity.kind === "brand" || entity.brand_id !== null) && (
          <a href={`/console/translations?brand=${entity.kind === "brand" ? entity.id : entity.brand_id}`}>
            What the brand has not translated yet
          </a>
        )}
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
                {faq.translations.map((translation) => (
                  <LanguageText {...translation}>
                    {role === "editor" && (
                      <p lang="en">
                        <a
                          href={`${base}/faqs/${position}/translations/${translation.language}`}
                          aria-label={`Edit the ${languageName(translation.language)} translation of FAQ ${position}`}
                        >
                          Edit translation
                        </a>
                      </p>
                    )}
                  </LanguageText>
                ))}
              </div>
              {missing.length > 0 && (
                <p class="notice warn">
                  Missing translations: {missing.map(languageName).join(", ")}. Guests asking in {missing.length === 1 ? "it" : "them"} get
                  the {languageName(entity.default_language)} text.
                </p>
              )}
              {history && (
                <p class="muted">
                  <LastChange change={history.lastChanges.get(questionKey(faq.question))} />{" "}
                  <a href={`${base}/faqs/${position}/history`} aria-label={`History of FAQ ${position}`}>
                    History
                  </a>
                </p>
              )}
              {role === "editor" && (
                <div class="actions">
                  <a href={`${base}/faqs/${position}`} aria-label={`Edit FAQ ${position}`}>
                    Edit
                  </a>
                  <a href={`${base}/faqs/${position}/remove`} aria-label={`Remove FAQ ${position}`}>
                    Remove
                  </a>
                  {faqs.length > 1 && <MoveForm base={base} faq={listedFaq(list, position)!} count={faqs.length} csrf={viewer.csrf} />}
                  <TranslateForm
                    base={base}
                    position={position}
                    languages={[...new Set([...missing, ...otherLanguages])].filter(
                      (tag) => !faq.translations.some((t) => t.language === tag),
                    )}
                  />
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {history && history.removed.length > 0 && (
        <section aria-labelledby="removed">
          <h2 id="removed">Recently removed</h2>
          <ul class="removed">
            {history.removed.map((removed) => (
              <li>
                <strong>{removed.question}</strong>
                <span class="muted">
                  {" "}
                  {translationsWords(removed.languages).trim()} · removed by {removed.who}, {whenWords(removed.at)}
                </span>
                {role === "editor" && <RestoreButton base={base} removed={removed} csrf={viewer.csrf} label="Restore" />}
              </li>
            ))}
          </ul>
        </section>
      )}
    </Page>
  );
}

/** Moves the FAQ to any position in one step. */
const MoveForm = ({ base, faq, count, csrf }: { base: string; faq: ListedFaq; count: number; csrf: string }) => (
  <form method="post" action={`${base}/faqs/${faq.position}/move`} class="inline">
    <Csrf token={csrf} />
    <FaqBasis faq={faq} />
    <label for={`move-${faq.position}`}>Move FAQ {faq.position} to</label>
    <select id={`move-${faq.position}`} name="to">
      {Array.from({ length: count }, (_, index) => (
        <option value={String(index + 1)} selected={index + 1 === faq.position}>
          {index === 0 ? "1 (first)" : index === count - 1 ? `${index + 1} (last)` : String(index + 1)}
        </option>
      ))}
    </select>
    <button type="submit">Move</button>
  </form>
);

/** Leads to the translation form of a language the entity's FAQs are not translated into yet. */
const TranslateForm = ({ base, position, languages }: { base: string; position: number; languages: string[] }) =>
  languages.length === 0 ? null : (
    <form method="get" action={`${base}/faqs/${position}/translations`} class="inline">
      <label for={`translate-${position}`}>Translate FAQ {position} into</label>
      <select id={`translate-${position}`} name="language">
        {languages.map((tag) => (
          <option value={tag}>{languageName(tag)}</option>
        ))}
      </select>
      <button type="submit">Translate</button>
    </form>
  );

const LastChange = ({ change }: { change?: { who: string; at: string } }) =>
  change ? (
    <>
      Last changed by {change.who}, {whenWords(change.at)} ·
    </>
  ) : (
    <>No change recorded here yet ·</>
  );

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
      <EntityHeading entity={entity} title={`Ask ${entity.name} as a guest`} />
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
