/**
 * The answer card's script, run by the assistant's host in a sandboxed frame (MCP Apps): it receives the tool's
 * result through `@modelcontextprotocol/ext-apps`' App and shows it to the guest. Built into answer-card-document.ts by
 * `npm run build:card`; it loads nothing from anywhere, and follows the host's theme and text size.
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import { ANSWER_CARD_META, type AnswerCardData } from "./answer-card-data";

/** What the card says of the result: a confidence the tool gave, or what the result is when it gave none. */
type State = "high" | "low" | "none" | "found" | "browse" | "choose" | "failed";
interface Faq {
  question: string;
  answer: string;
  /** Absent when the result does not say which language the text is in. */
  language?: string;
  /** The entity it belongs to, when a result mixes entities. */
  entity?: string;
}
interface Shown {
  entity: string | null;
  page: string | null;
  state: State;
  faqs: Faq[];
}

/** The card's own words, in the language the answer is in (English otherwise). */
const WORDS = {
  en: {
    high: "Answered by the hotel's own information",
    low: "Related, but may not answer exactly",
    none: "This hotel's information does not say",
    found: "From the hotel's information",
    browse: "The hotel's questions and answers",
    choose: "Which one do you mean?",
    failed: "No answer could be given",
    more: "Other answers found",
    page: "The hotel's page",
    ask: "Ask the hotel directly, or see its page.",
  },
  pt: {
    high: "Respondido pela informação do próprio hotel",
    low: "Relacionado, mas pode não responder exatamente",
    none: "A informação deste hotel não o diz",
    found: "Da informação do hotel",
    browse: "As perguntas e respostas do hotel",
    choose: "Qual deles quer dizer?",
    failed: "Não foi possível responder",
    more: "Outras respostas encontradas",
    page: "A página do hotel",
    ask: "Pergunte diretamente ao hotel, ou veja a sua página.",
  },
  es: {
    high: "Respondido por la información del propio hotel",
    low: "Relacionado, pero puede no responder exactamente",
    none: "La información de este hotel no lo dice",
    found: "De la información del hotel",
    browse: "Las preguntas y respuestas del hotel",
    choose: "¿A cuál se refiere?",
    failed: "No se pudo responder",
    more: "Otras respuestas encontradas",
    page: "La página del hotel",
    ask: "Pregunte directamente al hotel, o vea su página.",
  },
  fr: {
    high: "Réponse tirée des informations de l'hôtel",
    low: "En rapport, mais peut ne pas répondre exactement",
    none: "Les informations de cet hôtel ne le disent pas",
    found: "D'après les informations de l'hôtel",
    browse: "Les questions et réponses de l'hôtel",
    choose: "Lequel voulez-vous dire ?",
    failed: "Aucune réponse n'a pu être donnée",
    more: "Autres réponses trouvées",
    page: "La page de l'hôtel",
    ask: "Demandez directement à l'hôtel, ou voyez sa page.",
  },
  de: {
    high: "Beantwortet von den Informationen des Hotels",
    low: "Verwandt, beantwortet es vielleicht nicht genau",
    none: "Die Informationen dieses Hotels sagen es nicht",
    found: "Aus den Informationen des Hotels",
    browse: "Die Fragen und Antworten des Hotels",
    choose: "Welches meinen Sie?",
    failed: "Es konnte keine Antwort gegeben werden",
    more: "Weitere gefundene Antworten",
    page: "Die Seite des Hotels",
    ask: "Fragen Sie direkt beim Hotel nach, oder sehen Sie seine Seite.",
  },
  it: {
    high: "Risposta dalle informazioni dell'hotel",
    low: "Correlato, ma potrebbe non rispondere esattamente",
    none: "Le informazioni di questo hotel non lo dicono",
    found: "Dalle informazioni dell'hotel",
    browse: "Le domande e risposte dell'hotel",
    choose: "Quale intende?",
    failed: "Non è stato possibile rispondere",
    more: "Altre risposte trovate",
    page: "La pagina dell'hotel",
    ask: "Chieda direttamente all'hotel, o veda la sua pagina.",
  },
  nl: {
    high: "Beantwoord door de eigen informatie van het hotel",
    low: "Verwant, maar beantwoordt het misschien niet precies",
    none: "De informatie van dit hotel zegt het niet",
    found: "Uit de informatie van het hotel",
    browse: "De vragen en antwoorden van het hotel",
    choose: "Welke bedoelt u?",
    failed: "Er kon geen antwoord worden gegeven",
    more: "Andere gevonden antwoorden",
    page: "De pagina van het hotel",
    ask: "Vraag het hotel rechtstreeks, of bekijk de pagina.",
  },
} as const;
/** The card's words in `language` (English when it has none there), with the language they are in. */
function wordsFor(language: string | undefined) {
  const code = (language ?? "en").slice(0, 2).toLowerCase();
  return code in WORDS ? { code, words: WORDS[code as keyof typeof WORDS] } : { code: "en", words: WORDS.en };
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const confidenceOf = (value: unknown): State => (value === "high" || value === "low" || value === "none" ? value : "found");

/**
 * What a result of service_query, service_search_documents, search or fetch says, in one shape. `asked` is the call's
 * arguments: service_query without a question lists the FAQs for browsing, not as answers.
 */
function shown(result: Record<string, unknown>, card: AnswerCardData, asked: Record<string, unknown>): Shown {
  const structured = record(result.structuredContent);
  const faqOf = (f: Record<string, unknown>): Faq => ({
    question: text(f.question),
    answer: text(f.answer),
    language: text(f.language) || undefined,
  });
  if (result.isError === true || !("structuredContent" in result)) return { entity: null, page: null, state: "failed", faqs: [] };
  if (Array.isArray(structured.faqs)) {
    const entity = record(structured.entity);
    if (structured.entity === null) {
      const names = Array.isArray(structured.candidates) ? structured.candidates.map((c) => text(record(c).name)) : [];
      return { entity: null, page: null, state: "choose", faqs: names.map((name) => ({ question: name, answer: "" })) };
    }
    return {
      entity: text(entity.name) || null,
      page: card.pages?.[text(entity.id)] ?? null,
      state: typeof asked.question === "string" ? confidenceOf(structured.confidence) : "browse",
      faqs: structured.faqs.map((f) => faqOf(record(f))),
    };
  }
  if (Array.isArray(structured.results) && "confidence" in structured) {
    const results = structured.results.map(record);
    const first = results[0] ?? {};
    const entity = text(first.entityName) || null;
    return {
      entity,
      page: card.pages?.[text(first.entityId)] ?? null,
      state: confidenceOf(structured.confidence),
      faqs: results.map((r) => ({ ...faqOf(r), ...(text(r.entityName) !== entity ? { entity: text(r.entityName) } : {}) })),
    };
  }
  if (Array.isArray(structured.results)) {
    // ChatGPT's search: each title is "<entity>: <question>", and says nothing of how sure it is or its language.
    const titled = structured.results.map((r) => text(record(r).title).split(/: (.*)/s));
    const entity = titled[0]?.[0] ?? null;
    return {
      entity,
      page: text(record(structured.results[0]).url) || null,
      state: titled.length > 0 ? "found" : "none",
      faqs: titled.map(([name = "", question]) => ({
        question: question ?? name,
        answer: "",
        ...(name !== entity ? { entity: name } : {}),
      })),
    };
  }
  if (typeof structured.text !== "string") return { entity: null, page: null, state: "failed", faqs: [] };
  // ChatGPT's fetch: one FAQ, its text the question and the answer.
  const metadata = record(structured.metadata);
  const [, question = text(structured.title)] = text(structured.title).split(/: (.*)/s);
  const answer = structured.text.startsWith(question) ? structured.text.slice(question.length).trim() : structured.text;
  return {
    entity: text(metadata.entityName) || null,
    page: text(structured.url) || null,
    state: "found",
    faqs: [{ question, answer, language: text(metadata.language) || undefined }],
  };
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const app = new App({ name: "hospitality-answer-card", version: "1.0.0" }, {}, { autoResize: true });

/** A link the host opens, as it allows (the frame itself may not navigate); a host that opens no links leaves it to the browser. */
function pageLink(url: string, label: string): HTMLAnchorElement {
  const link = element("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, label);
  link.addEventListener("click", (event) => {
    if (!app.getHostCapabilities()?.openLinks) return;
    event.preventDefault();
    void app.openLink({ url }).catch(() => undefined);
  });
  return link;
}

function faqBlock(faq: Faq, heading: "h2" | "h3"): HTMLElement {
  return element(
    "article",
    faq.language ? { lang: faq.language, class: "faq" } : { class: "faq" },
    ...(faq.entity ? [element("p", { class: "entity" }, faq.entity)] : []),
    element(heading, {}, faq.question),
    ...(faq.answer ? [element("p", {}, faq.answer)] : []),
  );
}

let asked: Record<string, unknown> = {};

function render(result: Record<string, unknown>): void {
  const card = record(record(result._meta)[ANSWER_CARD_META]) as AnswerCardData;
  const view = shown(result, card, asked);
  const { code, words } = wordsFor(view.faqs[0]?.language);
  // The card's own words are in the answer's language: the page says so to a screen reader.
  document.documentElement.lang = code;
  const main = element("main");
  if (view.entity) main.append(element("p", { class: "entity" }, view.entity));
  main.append(element("p", { class: `confidence ${view.state}` }, words[view.state]));
  if (view.state === "none" || view.state === "failed" || view.faqs.length === 0) {
    if (view.state !== "failed") main.append(element("p", {}, words.ask));
  } else if (view.state === "choose") {
    main.append(element("ul", {}, ...view.faqs.map((f) => element("li", {}, f.question))));
  } else {
    main.append(faqBlock(view.faqs[0]!, "h2"));
    const others = view.faqs.slice(1);
    if (others.length > 0)
      main.append(
        element("details", {}, element("summary", {}, `${words.more} (${others.length})`), ...others.map((f) => faqBlock(f, "h3"))),
      );
  }
  if (view.page) main.append(element("p", { class: "source" }, pageLink(view.page, words.page)));
  document.body.replaceChildren(main);
}

function follow(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context?.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

app.ontoolinput = ({ arguments: args }) => {
  asked = args ?? {};
};
app.ontoolresult = (result) => render(result);
app.onhostcontextchanged = (context) => follow(context);
await app.connect();
follow(app.getHostContext());
