import { ProtocolError, ProtocolErrorCode, type Prompt, type Server } from "@modelcontextprotocol/server";

/**
 * One prompt, which clients offer as a template (a slash command): a guest's question about one hotel or
 * place, answered from its FAQs with this server's tools. Its `entity` completes (completion.ts).
 */
export const GUEST_QUESTION = {
  name: "guest_question",
  title: "Answer a guest's question",
  description: "A traveller's question about one hotel, brand, destination or airport, answered from its FAQs.",
  arguments: [
    { name: "entity", description: "The hotel or place: its ID or its name as the guest wrote it.", required: true },
    { name: "question", description: "The guest's question, in their words.", required: true },
  ],
} satisfies Prompt;

export function servePrompts(server: Server): void {
  server.setRequestHandler("prompts/list", () => ({ prompts: [GUEST_QUESTION] }));
  server.setRequestHandler("prompts/get", (request) => {
    const { name, arguments: args = {} } = request.params;
    if (name !== GUEST_QUESTION.name) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}. The prompt is ${GUEST_QUESTION.name}.`);
    }
    const missing = GUEST_QUESTION.arguments.filter((a) => !args[a.name]?.trim()).map((a) => a.name);
    if (missing.length > 0) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${GUEST_QUESTION.name} needs ${missing.join(" and ")}.`);
    }
    const text =
      `A guest asks about ${args.entity!.trim()}: "${args.question!.trim()}"\n\n` +
      "Answer from that hotel's or place's FAQs with this server's tools. Say which hotel or place the answer is for, " +
      "and if its FAQs do not answer the question, say so rather than guess.";
    return { description: GUEST_QUESTION.description, messages: [{ role: "user" as const, content: { type: "text" as const, text } }] };
  });
}
