import type { FaqEdit, FaqText, ListedFaq } from "../catalogue/faq-edits";
import type { Untranslated } from "../catalogue/untranslated";
import type { EntityRow } from "../storage/entities";
import type { FaqTranslation } from "../storage/faqs";
import { Csrf, EntityHeading, FaqBasis, languageName, Page, Problems, type Viewer } from "./pages";

/**
 * The pages that change one FAQ: its form, its translations' forms, and what a person sees when someone else
 * changed the FAQ first. Each form names the FAQ it was made on (its version and its question when read), so
 * edits to different FAQs of one entity never stop each other.
 */

export interface FaqFormView {
  viewer: Viewer;
  entity: EntityRow;
  /** The FAQ being edited as it was read, or null for a new one. */
  faq: ListedFaq | null;
  values: FaqText;
  /** Problems by field (`question`, `answer`, `category`), or `form` for the FAQ as a whole. */
  problems?: Record<string, string>;
}

const FIELDS: { name: "question" | "answer" | "category"; label: string; multiline: boolean }[] = [
  { name: "question", label: "Question", multiline: false },
  { name: "answer", label: "Answer", multiline: true },
  { name: "category", label: "Category", multiline: false },
];

/** Labelled inputs for `fields`, each marked invalid when `problems` names it. */
function TextFields<F extends string>(props: {
  fields: { name: F; label: string; multiline: boolean }[];
  values: NoInfer<Record<F, string>>;
  problems: Record<string, string>;
  lang?: string;
}) {
  return (
    <>
      {props.fields.map(({ name, label, multiline }) => {
        const invalid = props.problems[name] !== undefined;
        const common = {
          id: name,
          name,
          required: true,
          lang: props.lang,
          "aria-invalid": invalid ? "true" : undefined,
          "aria-describedby": invalid ? "problems" : undefined,
        };
        return (
          <>
            <label for={name}>{label}</label>
            {multiline ? (
              <textarea {...common}>{props.values[name]}</textarea>
            ) : (
              <input {...common} type="text" value={props.values[name]} />
            )}
          </>
        );
      })}
    </>
  );
}

export function faqFormPage({ viewer, entity, faq, values, problems = {} }: FaqFormView) {
  const base = `/console/entities/${entity.id}`;
  const title = faq === null ? `Add an FAQ to ${entity.name}` : `Edit FAQ ${faq.position} of ${entity.name}`;
  return (
    <Page title={title} viewer={viewer}>
      <EntityHeading entity={entity} title={title} />
      <Problems problems={Object.values(problems)} />
      <form method="post" action={faq === null ? `${base}/faqs` : `${base}/faqs/${faq.position}`}>
        <Csrf token={viewer.csrf} />
        {faq && <FaqBasis faq={faq} />}
        <TextFields fields={FIELDS} values={values} problems={problems} lang={entity.default_language} />
        <div class="actions">
          <button class="primary" type="submit">
            {faq === null ? "Add the FAQ" : "Save"}
          </button>
          <a href={base}>Cancel</a>
        </div>
      </form>
      {faq !== null && (
        <>
          <h2>Remove this FAQ</h2>
          <p>
            Its translations are removed with it. You are asked to confirm first, and can restore it afterwards.{" "}
            <a href={`${base}/faqs/${faq.position}/remove`}>Remove FAQ {faq.position}…</a>
          </p>
        </>
      )}
    </Page>
  );
}

export interface TranslationFormView {
  viewer: Viewer;
  entity: EntityRow;
  faq: ListedFaq;
  language: string;
  values: { question: string; answer: string };
  problems?: Record<string, string>;
}

const TRANSLATION_FIELDS: { name: "question" | "answer"; label: string; multiline: boolean }[] = [
  { name: "question", label: "Question", multiline: false },
  { name: "answer", label: "Answer", multiline: true },
];

export const translationOf = (faq: ListedFaq, language: string): FaqTranslation | undefined =>
  faq.translations.find((translation) => translation.language.toLowerCase() === language.toLowerCase());

const QuestionAndAnswer = ({ language, question, answer }: { language: string; question: string; answer: string }) => (
  <dl lang={language}>
    <dt>Question</dt>
    <dd>{question}</dd>
    <dt>Answer</dt>
    <dd>{answer}</dd>
  </dl>
);

export function translationFormPage({ viewer, entity, faq, language, values, problems = {} }: TranslationFormView) {
  const base = `/console/entities/${entity.id}`;
  const action = `${base}/faqs/${faq.position}/translations/${language}`;
  const exists = translationOf(faq, language) !== undefined;
  const title = `${exists ? "Edit" : "Add"} the ${languageName(language)} translation of FAQ ${faq.position}`;
  return (
    <Page title={title} viewer={viewer}>
      <EntityHeading entity={entity} title={title} anchor={`#faq-${faq.position}`} />
      <section class="source" aria-labelledby="source">
        <h2 id="source">In {languageName(entity.default_language)}, as guests read it now</h2>
        <QuestionAndAnswer language={entity.default_language} question={faq.question} answer={faq.answer} />
      </section>
      <Problems problems={Object.values(problems)} />
      <form method="post" action={action}>
        <Csrf token={viewer.csrf} />
        <FaqBasis faq={faq} />
        <TextFields fields={TRANSLATION_FIELDS} values={values} problems={problems} lang={language} />
        <div class="actions">
          <button class="primary" type="submit">
            Save the {languageName(language)} translation
          </button>
          <a href={`${base}#faq-${faq.position}`}>Cancel</a>
          {exists && <a href={`${action}/remove`}>Remove this translation…</a>}
        </div>
      </form>
    </Page>
  );
}

export function translationRemovePage({ viewer, entity, faq, language }: Omit<TranslationFormView, "values" | "problems">) {
  const base = `/console/entities/${entity.id}`;
  const translation = translationOf(faq, language);
  const title = `Remove the ${languageName(language)} translation of FAQ ${faq.position}?`;
  return (
    <Page title={title} viewer={viewer}>
      <EntityHeading entity={entity} title={title} anchor={`#faq-${faq.position}`} />
      {translation && <QuestionAndAnswer language={language} question={translation.question} answer={translation.answer} />}
      <p>
        Guests asking in {languageName(language)} then get the {languageName(entity.default_language)} text of “{faq.question}”.
      </p>
      <form method="post" action={`${base}/faqs/${faq.position}/translations/${language}/remove`} class="actions">
        <Csrf token={viewer.csrf} />
        <FaqBasis faq={faq} />
        <button class="primary" type="submit">
          Remove the translation
        </button>
        <a href={`${base}#faq-${faq.position}`}>Keep it</a>
      </form>
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

/** An FAQ with its translations, as a conflict shows each version. */
const LocalizedDetails = ({ faq, language }: { faq: ListedFaq; language?: string }) => {
  const translation = language === undefined ? undefined : translationOf(faq, language);
  return (
    <>
      <FaqDetails faq={faq} />
      {language !== undefined && (
        <p>
          {languageName(language)}: {translation ? `“${translation.question}” — ${translation.answer}` : "not translated"}
        </p>
      )}
    </>
  );
};

export interface ConflictView {
  viewer: Viewer;
  entity: EntityRow;
  /** The change the person tried to make, which was not saved. */
  edit: FaqEdit;
  /** That FAQ as it is now (found by its question as read, else at its position); null when it is gone. */
  current: ListedFaq | null;
}

/** What the change the person tried to make does, in words. */
function attemptedWords(edit: FaqEdit): string {
  switch (edit.action) {
    case "add":
    case "replace":
      return "Your text";
    case "remove":
      return "You removed it";
    case "move":
      return `You moved it to position ${edit.to}`;
    case "translate":
      return `Your ${languageName(edit.translation.language)} translation`;
    case "untranslate":
      return `You removed its ${languageName(edit.language)} translation`;
    case "restore":
      return "You restored an earlier version";
    case "phrasings":
      return "You changed the ways guests ask it";
  }
}

/** The form that makes the person's change again on the FAQ as it is now, in one step; null when it cannot be. */
function ReapplyForm({ viewer, entity, edit, current }: Pick<ConflictView, "viewer" | "entity" | "edit" | "current">) {
  const base = `/console/entities/${entity.id}`;
  if (current === null) {
    if (edit.action !== "replace") return null;
    return (
      <form method="post" action={`${base}/faqs`}>
        <Csrf token={viewer.csrf} />
        {FIELDS.map(({ name }) => (
          <input type="hidden" name={name} value={edit.faq[name]} />
        ))}
        <button class="primary" type="submit">
          Add your text as a new FAQ
        </button>
      </form>
    );
  }
  // A restore names a version, not an FAQ: the FAQ's history offers it again.
  if (edit.action === "restore" || edit.action === "phrasings") return null;
  const at = `${base}/faqs/${current.position}`;
  const target = {
    add: `${base}/faqs`,
    replace: at,
    remove: `${at}/remove`,
    move: `${at}/move`,
    translate: edit.action === "translate" ? `${at}/translations/${edit.translation.language}` : "",
    untranslate: edit.action === "untranslate" ? `${at}/translations/${edit.language}/remove` : "",
  }[edit.action];
  const fields: Record<string, string> =
    edit.action === "add" || edit.action === "replace"
      ? { question: edit.faq.question, answer: edit.faq.answer, category: edit.faq.category }
      : edit.action === "move"
        ? { to: String(edit.to) }
        : edit.action === "translate"
          ? { question: edit.translation.question, answer: edit.translation.answer }
          : {};
  return (
    <form method="post" action={target}>
      <Csrf token={viewer.csrf} />
      <FaqBasis faq={current} />
      {Object.entries(fields).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button class="primary" type="submit">
        {edit.action === "replace" || edit.action === "translate" ? "Save yours over it" : "Make your change on it now"}
      </button>
    </form>
  );
}

export const conflictPage = ({ viewer, entity, edit, current }: ConflictView) => {
  const language = edit.action === "translate" ? edit.translation.language : edit.action === "untranslate" ? edit.language : undefined;
  const attempted = edit.action === "add" || edit.action === "replace" ? edit.faq : null;
  return (
    <Page title="Someone else changed this FAQ" viewer={viewer}>
      <h1>Someone else changed this FAQ</h1>
      <p class="notice warn" role="alert">
        {current
          ? `FAQ ${current.position} of ${entity.name} changed after you opened it, so your change was not saved. Compare the two, then keep what is saved or make your change on it.`
          : `The FAQ you were changing is no longer among the FAQs of ${entity.name}: someone removed it or rewrote its question. Your change was not saved.`}
      </p>
      <div class="compare">
        <section>
          <h2>{current ? `Saved now (FAQ ${current.position})` : "Saved now"}</h2>
          {current ? <LocalizedDetails faq={current} language={language} /> : <p>This FAQ is no longer there.</p>}
        </section>
        <section>
          <h2>{attemptedWords(edit)} (not saved)</h2>
          {attempted && <FaqDetails faq={attempted} />}
          {edit.action === "translate" && (
            <dl lang={edit.translation.language}>
              <dt>Question</dt>
              <dd>{edit.translation.question}</dd>
              <dt>Answer</dt>
              <dd>{edit.translation.answer}</dd>
            </dl>
          )}
        </section>
      </div>
      <div class="actions">
        <ReapplyForm viewer={viewer} entity={entity} edit={edit} current={current} />
        <a href={`/console/entities/${entity.id}${current ? `#faq-${current.position}` : ""}`}>Keep what is saved</a>
      </div>
    </Page>
  );
};

export interface UntranslatedView {
  viewer: Viewer;
  /** The brands the person may see, to choose from. */
  brands: Pick<EntityRow, "id" | "name">[];
  brand: Pick<EntityRow, "id" | "name"> | null;
  /** What is not translated in the chosen brand, per language. */
  languages: Untranslated[];
}

export function untranslatedPage({ viewer, brands, brand, languages }: UntranslatedView) {
  return (
    <Page title="Not translated yet" viewer={viewer}>
      <p>
        <a href="/console">All your content</a>
      </p>
      <h1>Not translated yet{brand ? ` in ${brand.name}` : ""}</h1>
      <form method="get" action="/console/translations" class="search">
        <div>
          <label for="brand">Brand</label>
          <select id="brand" name="brand">
            {brands.map((option) => (
              <option value={option.id} selected={option.id === brand?.id}>
                {option.name} ({option.id})
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Show</button>
      </form>
      {brands.length === 0 && <p>You may see no brand. Ask your organization's administrator.</p>}
      {brand && languages.length === 0 && <p>{brand.name}'s content is in one language only: there is nothing to translate.</p>}
      {languages.map((language) => (
        <section aria-labelledby={`language-${language.language}`}>
          <h2 id={`language-${language.language}`}>
            {languageName(language.language)}:{" "}
            {language.missing === 0 ? "everything translated" : `${language.missing} of ${language.of} FAQs not translated`}
          </h2>
          {language.entities.length > 0 && (
            <ul>
              {language.entities.map((entity) => (
                <li>
                  <a href={`/console/entities/${entity.id}`}>{entity.name}</a>: {entity.missing} {entity.missing === 1 ? "FAQ" : "FAQs"}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </Page>
  );
}
