import type { ClientCapabilities, ReadResourceResult } from "@modelcontextprotocol/server";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { ANSWER_CARD_HTML } from "./answer-card-document";

/**
 * The answer card of the MCP Apps extension: one HTML document (answer-card-document.ts, built from answer-card.app.ts)
 * that a host renders in a sandboxed frame beside the answers of service_query, service_search_documents, search and
 * fetch. A host that does not show MCP Apps ignores the tools' `_meta.ui`, and its results are exactly as before.
 */

export const ANSWER_CARD_URI = "ui://hospitality-content/card.html";

/**
 * What a tool's listing carries to point a host at the card. Not the flat `ui/resourceUri` of the extension's drafts
 * too: hosts read `ui.resourceUri` first, and every client's context pays for each byte of the tool list.
 */
export const ANSWER_CARD_TOOL_META = { ui: { resourceUri: ANSWER_CARD_URI } };

/** Whether the client shows MCP Apps: it declares the extension with the card's MIME type. */
export function showsAnswerCard(capabilities: ClientCapabilities | undefined): boolean {
  const extension = (capabilities as { extensions?: Record<string, { mimeTypes?: unknown }> } | undefined)?.extensions?.[EXTENSION_ID];
  return Array.isArray(extension?.mimeTypes) && extension.mimeTypes.includes(RESOURCE_MIME_TYPE);
}

/** The card as resources/read gives it: an empty allow-list, so the frame may load and connect to nothing. */
export const answerCardResource = (): ReadResourceResult => ({
  contents: [
    { uri: ANSWER_CARD_URI, mimeType: RESOURCE_MIME_TYPE, text: ANSWER_CARD_HTML, _meta: { ui: { csp: {}, prefersBorder: true } } },
  ],
});
