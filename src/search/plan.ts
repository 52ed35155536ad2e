import type { RankingInput } from "../storage/scoped-content";
import { analyze, termString, wordTokens } from "./analyze";
import asking from "./asking.json";
import learned from "./associations.json";
import { ANSWER_KINDS } from "./answer-types";
import { allLanguages, languageOf, type Language } from "./languages";
import { conceptStrengths, namesAThing, type ConceptKind, type Lexicon, type Mention } from "./lexicon";
import { words } from "./normalize";
import { wordWeights } from "./segment";
import weights from "./weights.json";

/**
 * What a question searches for. Each word of the question is a group of alternatives: its own stems (weight 1),
 * the English words it is or means when it is another language's (a loanword, or a translation from the
 * lexicon's words), and its equivalents (synonyms and spellings); the words of a phrase the lexicon knows
 * ("pequeno almoço") are one group. Each topic the question names is a group of the topic's terms, weighing
 * less, and makes the FAQs about it rank higher; a facet names the kind of answer asked for (a price, a time).
 * The words of a message that only give context weigh less than those that ask. Pure: the ranking runs over the
 * caller's FAQs only (rank.ts), whatever the plan names.
 */

/** How a plan weighs (weights.json, fitted on the tune half of the benchmark: docs/retrieval.md). */
export const PLAN_WEIGHTS = weights.plan;

/**
 * The English FAQ words a guest's word stands for, with P(FAQ word | guest word), by `<language>:<stem>`: learned from
 * guests' questions and the FAQs that answer them (associations.json, written by `npm run train`).
 */
export type Associations = Readonly<Record<string, readonly (readonly [string, number])[]>>;
export const ASSOCIATIONS = learned.associations as unknown as Associations;

/**
 * At most this many groups of the question's own words are searched, with at most this many alternatives each,
 * and at most this many terms of each topic it names (the first ones of the lexicon), up to this many in all, in
 * each language searched (the content's, and the question's when it is another): what a long question may cost.
 */
export const MAX_WORD_GROUPS = 12;
export const MAX_ALTERNATIVES = 8;
export const MAX_TERMS_PER_CONCEPT = 6;
export const MAX_EXPANSION_TERMS = 24;
/** Fewer words than this where a message asks (besides its ways of asking), and the whole message is what is asked. */
const MIN_ASKED_WORDS = 3;
/** At most this many terms of a topic are weighed when ranking rows already read (rank.ts); the first MAX_TERMS_PER_CONCEPT choose them in D1. */
export const MAX_TOPIC_TERMS = 40;

/** One way a group may be found in an FAQ: analysed tokens, as a phrase. */
export interface Alternative {
  /** Tokens, space-separated: an FTS5 phrase once quoted. */
  phrase: string;
  /** The phrase as it stands in a stored term string (` a  b `), for counting it there. */
  pattern: string;
  /** How much finding it counts, against 1 for the question's own word. */
  weight: number;
  /** One word of a phrase alone ("cash" of "cash machine"): it ranks, but does not show the phrase is mentioned. */
  partial?: true;
  /** Only a learned association (associations.json): it ranks, but does not show what is asked is mentioned. */
  learned?: true;
}

export interface QueryGroup {
  /** `w:` and the positions of the question's words it stands for, or `t:` and the topic whose terms it searches. */
  key: string;
  /** How much the group counts: context weighs less than the question, a topic's terms less than its words. */
  weight: number;
  alternatives: Alternative[];
  /** The question's own tokens, for reading a misspelling of an FAQ's word (none for a topic's group). */
  own: string[];
  /** A way of asking ("how much", "what time"): it says what kind of answer is wanted more than what it is about. */
  form: boolean;
  /** The topics the question names with these words ("car" names parking): where the content has the topic, it has them. */
  topics: string[];
  /** Whether the words name a thing a hotel has or does (lexicon.ts `namesAThing`): a sauna, a cash machine. */
  thing: boolean;
  /**
   * How much the group says about what is asked, for judging whether an FAQ answers it: 1 for words the lexicon
   * knows as hotel words (an FAQ that has none of them is about something else), less for any other word, which is
   * as likely a word of the telling ("really", "honestly") as of the asking.
   */
  salience: number;
}

export interface TopicBoost {
  concept: string;
  /** Term-string patterns of the topic's terms: an FAQ whose question or category holds one is about it. */
  patterns: string[];
  /** What being about it adds. */
  boost: number;
  /** How strongly the question names it (1 a term, 0.5 a weak term, more for several mentions). */
  strength: number;
}

export interface QueryPlan {
  /** The language the question's words were analysed in. */
  language: Language;
  /** Whether that language was given or shown by the question's words (else the content's is assumed). */
  detected: boolean;
  /** The language of the FAQs searched: expansions are in it, and in the question's language (FAQs may be translated into it). */
  content: Language;
  groups: QueryGroup[];
  topics: TopicBoost[];
  /** The kinds of answer asked for (answer-types.ts): price, time, distance. */
  kinds: string[];
  /** The tokens of the ways of asking for those kinds, in the content's language: an FAQ's question may say them ("What time is..."). */
  kindTokens: string[];
  /** Every concept named, topics first. */
  concepts: { concept: string; kind: ConceptKind }[];
}

const alternative = (tokens: readonly string[], weight: number): Alternative => ({
  phrase: tokens.join(" "),
  pattern: termString(tokens),
  weight,
});

/** Letters only one of the analysed languages writes: a short question's best clue. */
const LETTERS: [RegExp, Language["code"]][] = [
  [/[ãõ]/iu, "pt"],
  [/[ñ¿¡]/iu, "es"],
  [/[ßäöü]/iu, "de"],
  [/[œùëï]|\b(?:[cdjlmnst]|qu)['’]\p{L}/iu, "fr"],
  [/(?<!\p{L})(?:è|perché|più|città)(?!\p{L})/iu, "it"],
  // Dutch writes ij where its neighbours do not: bij, vrij, mij, ijs.
  [/\p{L}ij(?!\p{L})|(?<!\p{L})ij\p{L}/iu, "nl"],
];

/**
 * The language a question is written in, when its words say so: for each language, its stop words among the
 * question's words (one-letter words say too little), the words of its lexicon terms (English terms count half:
 * travellers use parking, spa and wifi in every language), and a letter only it writes; the language with the
 * most, if one has more than every other. Null when none does.
 */
export function detectLanguage(text: string, mentions: readonly Mention[] = []): Language | null {
  const found = words(text);
  const scores = allLanguages().map((language) => {
    const positions = new Set<number>();
    found.forEach((word, p) => {
      if (word.pieces.some((piece) => piece.text.length > 1 && language.stopWords.has(piece.text))) positions.add(p);
    });
    let score = positions.size;
    const termPositions = new Set(mentions.filter((m) => m.language === language.code && !m.near).flatMap((m) => m.positions));
    for (const p of termPositions) if (!positions.has(p)) score += language.code === "en" ? 0.5 : 1;
    if (LETTERS.some(([letters, code]) => code === language.code && letters.test(text))) score += 1;
    return { language, score };
  });
  scores.sort((a, b) => b.score - a.score);
  const [best, next] = scores;
  return best && best.score > 0 && best.score > (next?.score ?? 0) ? best.language : null;
}

/** The hour a word written as a clock time names ("6am", "9.30pm", "22h", "21:00", or "10" before "am"), or null. */
function clockHour(word: string, next: string | undefined): number | null {
  const match = /^(\d{1,2})(?:[:.h](\d{2}))?(am|pm|h)?$/i.exec(word);
  if (!match) return null;
  const suffix = (match[3] ?? (next && /^(?:am|pm)$/i.test(next) ? next : "")).toLowerCase();
  const hour = Number(match[1]);
  if (suffix === "" && match[2] === undefined) return null;
  if (hour > 23 || (suffix !== "" && suffix !== "h" && hour > 12)) return null;
  return suffix === "pm" && hour < 12 ? hour + 12 : suffix === "am" && hour === 12 ? 0 : hour;
}

/** Union-find over the question's word positions: words of one phrase of the lexicon are one group. */
function phraseOf(parent: number[], p: number): number {
  while (parent[p] !== p) p = parent[p] = parent[parent[p]!]!;
  return p;
}

/**
 * The plan of `text` against FAQs written in `content` and their translations into the question's language.
 * The question's language is `language` when given, else detected, else `content`; its concepts are looked for in
 * that language or, when none is known, in every language, so a question in Portuguese still finds English FAQs
 * through the words and concepts it names, and Portuguese translations through their Portuguese words.
 */
export function planQuery(
  text: string,
  lexicon: Lexicon,
  { content, language, associations = ASSOCIATIONS }: { content: Language; language?: Language; associations?: Associations },
): QueryPlan {
  const W = PLAN_WEIGHTS;
  const everywhere = lexicon.mentionsIn(text, allLanguages());
  const detected = language ?? detectLanguage(text, everywhere);
  // English terms are read in every question (parking, spa, wifi), but not in a small word of the question's own
  // language: Spanish "son" is not the English "son".
  const mentions = everywhere.filter(
    (m) =>
      !detected ||
      m.language === detected.code ||
      (m.language === "en" && !m.positions.every((p) => words(text)[p]!.pieces.every((piece) => detected.stopWords.has(piece.text)))),
  );
  const queryLanguage = detected ?? content;
  const contents = queryLanguage === content ? [content] : [content, queryLanguage];
  const found = words(text);

  // Each word's own tokens; another language's word also as the content's language reads it (taxi, spa, pizza),
  // unless it is one of its small words ("son", "con", "die" are not the English words).
  const own = found.map((word) => wordTokens(word, queryLanguage));
  const loan = found.map((word) =>
    queryLanguage === content || word.pieces.some((p) => queryLanguage.stopWords.has(p.text)) ? [] : wordTokens(word, content),
  );
  const parent = found.map((_, p) => p);
  const formPositions = new Set(mentions.filter((m) => m.asking).flatMap((m) => m.positions));
  // A word's equivalents stand for words that say what is asked about: not for a way of asking ("cost", "when": the
  // kind of answer says it), nor for small words alone ("room" is every hotel's word).
  // Of words the lexicon reads inside a longer phrase it knows, the phrase is what is meant ("dejar la habitación" is
  // leaving, not a room).
  const candidates = mentions.filter(
    (m) =>
      m.kind === "word" &&
      !m.positions.every((p) => formPositions.has(p)) &&
      m.positions.some((p) => found[p]!.pieces.some((piece) => !languageOf(m.language).stopWords.has(piece.text))),
  );
  const inside = (m: Mention, longer: Mention) =>
    longer.positions.length > m.positions.length && m.positions.every((p) => longer.positions.includes(p));
  const wordMentions = candidates.filter((m) => !candidates.some((longer) => inside(m, longer)));
  // So is a topic the lexicon reads inside a longer word it knows: "cash machine" is not about paying in cash.
  const topicMentions = mentions.filter((m) => m.kind === "topic" && !wordMentions.some((longer) => inside(m, longer)));
  for (const m of wordMentions) for (const p of m.positions.slice(1)) parent[phraseOf(parent, p)] = phraseOf(parent, m.positions[0]!);
  const knownPositions = new Set(mentions.flatMap((m) => m.positions));
  // Where the message asks, it weighs fully and the rest as context; unless what it asks says too little on its own
  // ("how much is it?" after a story): then the story is what is asked about.
  const asked = wordWeights(text, W.context);
  const askedWords = found.filter((_, p) => asked[p] === 1 && own[p]!.length > 0 && !formPositions.has(p)).length;
  const segment = askedWords >= MIN_ASKED_WORDS ? asked : found.map(() => 1);

  const slots = new Map<number, { positions: number[]; alternatives: Map<string, Alternative> }>();
  const slotOf = (p: number) => {
    const root = phraseOf(parent, p);
    const slot = slots.get(root) ?? { positions: [], alternatives: new Map<string, Alternative>() };
    slots.set(root, slot);
    return slot;
  };
  const offer = (
    slot: { alternatives: Map<string, Alternative> },
    tokens: readonly string[],
    weight: number,
    partial = false,
    learned = false,
  ) => {
    const phrase = tokens.join(" ");
    const known = slot.alternatives.get(phrase);
    if (phrase === "" || (known && known.weight >= weight && (partial || !known.partial) && (learned || !known.learned))) return;
    slot.alternatives.set(phrase, {
      ...alternative(tokens, Math.max(weight, known?.weight ?? 0)),
      ...(partial && (!known || known.partial) ? { partial } : {}),
      ...(learned && (!known || known.learned) ? { learned } : {}),
    });
  };
  found.forEach((_, p) => slotOf(p).positions.push(p));
  // A word is found by its own tokens; the words of a phrase together, or each alone as part of it ("kids" of "kids club").
  for (const slot of slots.values()) {
    const phrase = slot.positions.length > 1;
    const part = phrase ? W.part : 1;
    for (const p of slot.positions) {
      for (const token of own[p]!) offer(slot, [token], part, phrase);
      for (const token of loan[p]!) offer(slot, [token], W.loanword * part, phrase);
    }
    if (slot.positions.length > 1)
      offer(
        slot,
        slot.positions.flatMap((p) => own[p]!),
        1,
      );
  }
  // A clock time says which part of the day is asked about: 6am is early, 9pm late.
  found.forEach((word, p) => {
    const hour = clockHour(word.text, found[p + 1]?.text);
    if (hour === null) return;
    const part = asking.clock.find((c) => hour < c.until)!;
    for (const name of part.words) offer(slotOf(p), analyze(name, content), W.clock);
  });
  for (const m of wordMentions) {
    const slot = slotOf(m.positions[0]!);
    for (const target of contents) {
      // A word the target language has too ("kids club" is also English) is an equivalent there, not a translation;
      // a misspelt word is still the word it misspells: its equivalents weigh as a misspelling does.
      const own = wordMentions.some(
        (o) => o.concept === m.concept && o.language === target.code && o.positions.join() === m.positions.join(),
      );
      const weight = (m.near ? W.near : own ? W.equivalent : W.translation) * m.strength;
      for (const tokens of lexicon.expansions(m.concept, target, "word")) offer(slot, tokens, weight);
    }
  }

  // What guests mean by a word, learned from guests' questions and the FAQs that answer them: "wrecked" after a
  // night flight is about checking in early, "kids" about children; English FAQ words, so only for English content,
  // and never for a way of asking, which widens to nothing.
  if (content.code === "en") {
    for (const slot of slots.values()) {
      for (const p of slot.positions.filter((p) => !formPositions.has(p))) {
        for (const token of own[p]!) {
          for (const [target, probability] of associations[`${queryLanguage.code}:${token}`] ?? []) {
            offer(slot, [target], W.association * probability, false, true);
          }
        }
      }
    }
  }

  const groups: QueryGroup[] = [...slots.values()]
    .filter((slot) => slot.alternatives.size > 0)
    .map((slot) => {
      const ownTokens = new Set([...slot.positions.flatMap((p) => own[p]!), slot.positions.flatMap((p) => own[p]!).join(" ")]);
      const form = slot.positions.every((p) => formPositions.has(p));
      return {
        key: `w:${slot.positions.join(",")}`,
        weight: Math.max(...slot.positions.map((p) => segment[p]!)) * (form ? W.form : 1),
        // The question's own words first, then by weight: what a cap leaves out is the least of what it means.
        alternatives: [...slot.alternatives.values()]
          .sort((a, b) => Number(ownTokens.has(b.phrase)) - Number(ownTokens.has(a.phrase)) || b.weight - a.weight)
          .slice(0, MAX_ALTERNATIVES),
        own: [...new Set(slot.positions.flatMap((p) => own[p]!))],
        form,
        topics: [...new Set(topicMentions.filter((m) => m.positions.some((p) => slot.positions.includes(p))).map((m) => m.concept))],
        thing: wordMentions.some((m) => namesAThing(m.concept) && m.positions.some((p) => slot.positions.includes(p))),
        // A way of asking says nothing of what is asked about; a word the lexicon knows says most.
        salience: form ? 0 : slot.positions.some((p) => knownPositions.has(p)) ? 1 : W.unknown,
      };
    })
    .sort((a, b) => b.weight - a.weight)
    .slice(0, MAX_WORD_GROUPS)
    .sort((a, b) => a.key.localeCompare(b.key, "en", { numeric: true }));

  const topics: TopicBoost[] = [];
  for (const [concept, strength] of conceptStrengths(topicMentions)) {
    const at = Math.max(...topicMentions.filter((m) => m.concept === concept).flatMap((m) => m.positions.map((p) => segment[p]!)));
    const alternatives = new Map<string, Alternative>();
    // Capped in each language searched, so that a long English list leaves room for the question's own language.
    for (const target of contents) {
      for (const tokens of lexicon.expansions(concept, target, "topic").slice(0, MAX_TOPIC_TERMS))
        alternatives.set(tokens.join(" "), alternative(tokens, 1));
    }
    topics.push({
      concept,
      patterns: [...alternatives.values()].map((a) => a.pattern),
      boost: W.topic * (0.5 + 0.5 * Math.min(2, strength)) * at,
      strength,
    });
    if (alternatives.size > 0) {
      groups.push({
        key: `t:${concept}`,
        weight: W.expansion * at,
        alternatives: [...alternatives.values()],
        own: [],
        form: false,
        topics: [concept],
        thing: false,
        salience: 1,
      });
    }
  }
  const kinds = [...new Set(mentions.filter((m) => m.kind === "facet").map((m) => m.concept))].filter((k) => ANSWER_KINDS.includes(k));
  const kindTokens = [...new Set(kinds.flatMap((kind) => lexicon.expansions(kind, content, "facet").flat()))];
  // Topics before facets and words: what the question is about matters more than which aspect of it.
  const concepts = [...new Map(mentions.map((m) => [`${m.kind} ${m.concept}`, { concept: m.concept, kind: m.kind }])).values()].sort(
    (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind],
  );
  return { language: queryLanguage, detected: detected !== null, content, groups, topics, kinds, kindTokens, concepts };
}

const KIND_ORDER = { topic: 0, facet: 1, word: 2 } as const;

/**
 * The plan as the search of a whole scope in D1 takes it (storage/scoped-content.ts), with the languages asked for in
 * lookup order (none: every FAQ in its entity's default language): each group's alternatives as one FTS5
 * expression, to choose the FAQs worth ranking.
 */
export function rankingInput(plan: QueryPlan, languages: string[]): RankingInput {
  // A topic's first terms, at most MAX_EXPANSION_TERMS of all topics' in each language searched, choose candidates in D1.
  let expansions = 0;
  const searched = (group: QueryGroup) => {
    if (!group.key.startsWith("t:")) return group.alternatives;
    const taken = group.alternatives.slice(0, Math.min(MAX_TERMS_PER_CONCEPT, Math.max(0, MAX_EXPANSION_TERMS - expansions)));
    expansions += taken.length;
    return taken;
  };
  const groups = plan.groups.map((group) => ({ group, alternatives: searched(group) })).filter((g) => g.alternatives.length > 0);
  return {
    groups: groups.map(({ group, alternatives }) => ({
      key: group.key,
      match: alternatives.map((a) => `"${a.phrase}"`).join(" OR "),
      patterns: alternatives.map((a) => a.pattern),
      weight: group.weight,
    })),
    topics: plan.topics.flatMap((topic) => topic.patterns.map((pattern): [string, number] => [pattern, topic.boost])),
    questionField: weights.rank.question,
    languages,
  };
}

/** Every token the plan searches for: what a snippet marks. */
export const plannedTokens = (plan: QueryPlan): Set<string> =>
  new Set(plan.groups.flatMap((g) => g.alternatives.flatMap((a) => a.phrase.split(" "))));
