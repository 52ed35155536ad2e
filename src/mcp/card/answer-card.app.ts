/**
 * The answer card's script, run by the assistant's host in a sandboxed frame (MCP Apps): it receives the tool's
 * result through `@modelcontextprotocol/ext-apps`' App and shows it to the guest. Built into answer-card-document.ts by
 * `npm run build:card`; it loads nothing from anywhere, and follows the host's theme and text size.
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import { ANSWER_CARD_META, type AnswerCardData } from "./answer-card-data";

type Confidence = "high" | "low" | "none";
interface Faq {
  question: string;
  answer: string;
  language: string;
}
interface Shown {
  entity: string | null;
  page: string | null;
  confidence: Confidence;
  faqs: Faq[];
}

/** The card's own words, in the language the answer is in (English otherwise). */
const WORDS = {
  en: {
    high: "Answered by the hotel's own information",
    low: "Related, but may not answer exactly",
    none: "This hotel's information does not say",
    more: "Other answers found",
    page: "The hotel's page",
    ask: "Ask the hotel directly, or see its page.",
  },
  pt: {
    high: "Respondido pela informação do próprio hotel",
    low: "Relacionado, mas pode não responder exatamente",
    none: "A informação deste hotel não o diz",
    more: "Outras respostas encontradas",
    page: "A página do hotel",
    ask: "Pergunte diretamente ao hotel, ou veja a sua página.",
  },
  es: {
    high: "Respondido por la información del propio hotel",
    low: "Relacionado, pero puede no responder exactamente",
    none: "La información de este hotel no lo dice",
    more: "Otras respuestas encontradas",
    page: "La página del hotel",
    ask: "Pregunte directamente al hotel, o vea su página.",
  },
  fr: {
    high: "Réponse tirée des informations de l'hôtel",
    low: "En rapport, mais peut ne pas répondre exactement",
    none: "Les informations de cet hôtel ne le disent pas",
    more: "Autres réponses trouvées",
    page: "La page de l'hôtel",
    ask: "Demandez directement à l'hôtel, ou voyez sa page.",
  },
  de: {
    high: "Beantwortet von den Informationen des Hotels",
    low: "Verwandt, beantwortet es vielleicht nicht genau",
    none: "Die Informationen dieses Hotels sagen es nicht",
    more: "Weitere gefundene Antworten",
    page: "Die Seite des Hotels",
    ask: "Fragen Sie direkt beim Hotel nach, oder sehen Sie seine Seite.",
  },
  it: {
    high: "Risposta dalle informazioni dell'hotel",
    low: "Correlato, ma potrebbe non rispondere esattamente",
    none: "Le informazioni di questo hotel non lo dicono",
    more: "Altre risposte trovate",
    page: "La pagina dell'hotel",
    ask: "Chieda direttamente all'hotel, o veda la sua pagina.",
  },
  nl: {
    high: "Beantwoord door de eigen informatie van het hotel",
    low: "Verwant, maar beantwoordt het misschien niet precies",
    none: "De informatie van dit hotel zegt het niet",
    more: "Andere gevonden antwoorden",
    page: "De pagina van het hotel",
    ask: "Vraag het hotel rechtstreeks, of bekijk de pagina.",
  },
} as const;
const wordsFor = (language: string) => WORDS[language.slice(0, 2).toLowerCase() as keyof typeof WORDS] ?? WORDS.en;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const confidenceOf = (value: unknown): Confidence => (value === "high" || value === "low" ? value : value === "none" ? "none" : "low");

/** What a result of service_query, service_search_documents, search or fetch says, in one shape. */
function shown(structured: Record<string, unknown>, card: AnswerCardData): Shown {
  const faqOf = (f: Record<string, unknown>): Faq => ({
    question: text(f.question),
    answer: text(f.answer),
    language: text(f.language) || "en",
  });
  if (Array.isArray(structured.faqs)) {
    const entity = record(structured.entity);
    const id = text(entity.id);
    return {
      entity: text(entity.name) || null,
      page: card.pages?.[id] ?? null,
      confidence: confidenceOf(structured.confidence),
      faqs: structured.faqs.map((f) => faqOf(record(f))),
    };
  }
  if (Array.isArray(structured.results) && "confidence" in structured) {
    const results = structured.results.map(record);
    const first = results[0] ?? {};
    return {
      entity: text(first.entityName) || null,
      page: card.pages?.[text(first.entityId)] ?? null,
      confidence: confidenceOf(structured.confidence),
      faqs: results.map(faqOf),
    };
  }
  if (Array.isArray(structured.results)) {
    const results = structured.results.map(record);
    const first = results[0];
    // Each title is "<entity>: <question>".
    const titled = results.map((r) => text(r.title).split(/: (.*)/s));
    return {
      entity: titled[0]?.[0] ?? null,
      page: first ? text(first.url) : null,
      confidence: first ? "low" : "none",
      faqs: titled.map(([entity = "", question]) => ({ question: question ?? entity, answer: "", language: "en" })),
    };
  }
  const metadata = record(structured.metadata);
  const [, question = text(structured.title)] = text(structured.title).split(/: (.*)/s);
  const answer = text(structured.text).startsWith(question) ? text(structured.text).slice(question.length).trim() : text(structured.text);
  return {
    entity: text(metadata.entityName) || null,
    page: text(structured.url) || null,
    confidence: "high",
    faqs: [{ question, answer, language: text(metadata.language) || "en" }],
  };
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const app = new App({ name: "hospitality-answer-card", version: "1.0.0" }, {}, { autoResize: true });

/** A link the host opens (the frame itself may not navigate). */
function pageLink(url: string, label: string): HTMLAnchorElement {
  const link = element("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, label);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    void app.openLink({ url }).catch(() => window.open(url, "_blank", "noopener"));
  });
  return link;
}

function faqBlock(faq: Faq, heading: "h2" | "h3"): HTMLElement {
  return element(
    "article",
    { lang: faq.language, class: "faq" },
    element(heading, {}, faq.question),
    ...(faq.answer ? [element("p", {}, faq.answer)] : []),
  );
}

function render(result: Record<string, unknown>): void {
  const card = record(record(result._meta)[ANSWER_CARD_META]) as AnswerCardData;
  const view = shown(record(result.structuredContent), card);
  const words = wordsFor(view.faqs[0]?.language ?? "en");
  const main = element("main", { "aria-live": "polite" });
  if (view.entity) main.append(element("p", { class: "entity" }, view.entity));
  main.append(element("p", { class: `confidence ${view.confidence}` }, words[view.confidence]));
  if (view.confidence === "none" || view.faqs.length === 0) {
    main.append(element("p", {}, words.ask));
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

app.ontoolresult = (result) => render(result);
app.onhostcontextchanged = (context) => follow(context);
await app.connect();
follow(app.getHostContext());
