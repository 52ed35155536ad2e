/**
 * What kind of answer a question asks for, and whether an FAQ's answer is of that kind: "how much" wants a price,
 * "what time" a time, "how far" a distance. The kinds are the lexicon's facets (lexicon.json): a question names
 * one with a facet's terms, and an FAQ whose answer holds such a value is likelier the one asked for than its
 * near-duplicate that does not (the price of breakfast, not whether it is included).
 */

const CURRENCY = String.raw`(?:[£€$¥]|\b(?:eur|euros?|gbp|usd|chf|pounds?|dollars?|pence|reais|francs?)\b)`;
const AMOUNT = String.raw`\d+(?:[.,]\d{1,2})?`;

/** The values that show each kind of answer, in any of the content's languages. */
const PATTERNS: Record<string, RegExp> = {
  price: new RegExp(
    String.raw`${CURRENCY}\s?${AMOUNT}|${AMOUNT}\s?${CURRENCY}|\b\d+p\b|\b(?:free of charge|no charge|no extra charge|complimentary|at no cost|gratuit|gratis|gratuito|kostenlos|gratuita)\b`,
    "iu",
  ),
  time: new RegExp(
    String.raw`\b\d{1,2}(?:[.:]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?h(?:\d{2})?\b|\b\d{1,2}\s?uhr\b|\b(?:noon|midday|midnight|24 hours|around the clock|meio-dia|meia-noite|mediodia|medianoche|midi|minuit|mittag|mitternacht|mezzogiorno|mezzanotte)\b`,
    "iu",
  ),
  age: /\b(?:aged?|ages|under|over|from|below|above|plus)\s+\d{1,2}\b|\b\d{1,2}\s?(?:\+|-year-olds?|years?\b|yrs?\b|and (?:over|under|older|above)|or (?:over|older|under|younger))|\b(?:ans|anos|años|jahre|anni)\b/iu,
  distance: new RegExp(
    String.raw`\b\d+(?:[.,]\d+)?\s?(?:km|kilomet\w*|miles?|metres?|meters?|m\b|minutes?|mins?|minutos?|minuten|minuti)\b|\b(?:walk|walking distance|a pe|a pie|a pied|zu fuss|a piedi)\b`,
    "iu",
  ),
};

/** The kinds of answer this module knows: the facets a question may ask for. */
export const ANSWER_KINDS = Object.keys(PATTERNS);

/** Whether `answer` holds a value of `kind`. */
export const answersWith = (kind: string, answer: string): boolean => PATTERNS[kind]?.test(answer) ?? false;
