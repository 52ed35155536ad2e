/**
 * What a tool's result carries for the answer card, beside what every client gets, and only for a client that shows
 * MCP Apps: the card is the only reader, so the model's text and the structured result stay as they are.
 */
export const ANSWER_CARD_META = "hospitality-content/answer-card";

export interface AnswerCardData {
  /** The page of each entity in the result, by ID: its own site, else its FAQ feed. */
  pages?: Record<string, string>;
}
