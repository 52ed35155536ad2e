import type { CallToolResult, ResourceLink, Tool as ToolListing } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { D1Reader } from "../../storage/reader";
import { ANSWER_CARD_TOOL_META } from "../card/answer-card";
import { ANSWER_CARD_META, type AnswerCardData } from "../card/answer-card-data";

/** What an unanswered question was asked of: the entity the tool used, and the language named or detected. */
export interface UnansweredAbout {
  entityId: string | null;
  language: string | null;
}

export interface ToolContext {
  /** A D1 session of this request: the tools only read, so a replica near the caller may answer. */
  db: D1Reader;
  organizationId: string;
  /** The protocol revision the caller negotiated; it decides what a result may carry. */
  protocolVersion: string;
  /** Keeps work going after the answer (a cache refresh, a count). */
  waitUntil: (promise: Promise<unknown>) => void;
  /**
   * Counts a question the content did not answer, for the organization's content team (after the answer), with the
   * entity it was asked of and its language when known.
   */
  countUnanswered: (question: string, tool: string, about: UnansweredAbout) => void;
  /** The content API's public origin, for the URLs results cite. */
  contentOrigin: string;
  /** Whether the client shows MCP Apps: then a result also carries what the answer card needs (card/). */
  showsAnswerCard: boolean;
}

/** An argument a tool cannot use (beyond its schema): answered as a tool error the model can act on. */
export class ToolArgumentError extends Error {}

interface ToolDefinition<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(args: z.output<I>, ctx: ToolContext): Promise<z.output<O>>;
  /** Resources the result is about, linked after its text for clients whose protocol has resource links. */
  links?(result: z.output<O>): ResourceLink[];
  /** Whether a call with these (unvalidated) arguments ranks text, the work a quota weighs more. */
  searches?(args: Record<string, unknown>): boolean;
  /** What the result of a call with `args` means, in words, for clients that read only its text (after the JSON). */
  says?(result: z.output<O>, args: z.output<I>): string;
  /** The answer card shows its results: what it needs beside them (read only for clients that show MCP Apps). */
  card?(result: z.output<O>, ctx: ToolContext): Promise<AnswerCardData>;
}

export interface Tool {
  name: string;
  /** The listing for a client of `protocolVersion`. */
  listing(protocolVersion: string): ToolListing;
  /** Whether a call with `args`, as sent, ranks text. */
  searches(args: unknown): boolean;
  call(args: unknown, ctx: ToolContext): Promise<CallToolResult>;
}

/**
 * `outputSchema`, `structuredContent` and resource links arrived with protocol 2025-06-18; earlier clients
 * read only `content`.
 */
export const supportsStructuredContent = (protocolVersion: string): boolean => protocolVersion >= "2025-06-18";

/**
 * What a listed schema leaves out, since every client reads tools/list into its context: the bounds zod
 * writes for any integer (they say nothing), and in output schemas the descriptions, closed objects and the
 * type beside an enum of strings, which only validation reads (what a field means is said in the tool's
 * description and input schema; an enum of strings admits strings only).
 */
function compact(node: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(node)) return node.map((item) => compact(item, io));
  if (typeof node !== "object" || node === null) return node;
  const enumerated = "enum" in node;
  return Object.fromEntries(
    Object.entries(node).flatMap(([key, value]) => {
      if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) return [];
      if (io === "output" && (key === "description" || (key === "additionalProperties" && value === false))) return [];
      if (io === "output" && enumerated && key === "type" && value === "string") return [];
      return [
        [
          key,
          key === "properties"
            ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, compact(v, io)]))
            : compact(value, io),
        ],
      ];
    }),
  );
}

function jsonSchema(schema: z.ZodObject, io: "input" | "output"): ToolListing["inputSchema"] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-7", io }) as Record<string, unknown>;
  return compact(rest, io) as ToolListing["inputSchema"];
}

/**
 * Invalid arguments are a result with `isError`, not a JSON-RPC error: most assistants show tool
 * results to the model and hide protocol errors, so this is what lets the model correct its call
 * (the MCP 2025-11-25 guidance).
 */
export const toolError = (message: string): CallToolResult => ({ content: [{ type: "text", text: message }], isError: true });

const describeIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "arguments"}: ${issue.message}`).join("; ");

/** A tool whose zod schemas are the only source of its validation, types and listed JSON Schemas. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): Tool {
  const hints = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  const common = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: jsonSchema(definition.input, "input"),
    // Before 2025-06-18 a tool's title lived in its annotations only.
    annotations: { title: definition.title, ...hints },
  };
  // The card reads structured results, which arrived with 2025-06-18: only listings of that revision point to it.
  const withOutput = {
    ...common,
    annotations: hints,
    outputSchema: jsonSchema(definition.output, "output"),
    ...(definition.card ? { _meta: ANSWER_CARD_TOOL_META } : {}),
  };
  return {
    name: definition.name,
    listing: (protocolVersion) => (supportsStructuredContent(protocolVersion) ? withOutput : common),
    searches: (args) => typeof args === "object" && args !== null && (definition.searches?.(args as Record<string, unknown>) ?? false),
    async call(args, ctx) {
      const parsed = definition.input.safeParse(args ?? {});
      if (!parsed.success)
        return toolError(`Invalid arguments for ${definition.name}: ${describeIssues(parsed.error)}. Correct them and call again.`);
      let result: z.output<O>;
      try {
        result = await definition.run(parsed.data, ctx);
      } catch (error) {
        if (error instanceof ToolArgumentError) return toolError(error.message);
        throw error;
      }
      // Every field is in the text as JSON, so a client that cannot read structuredContent loses nothing; what the
      // result means follows in words.
      const words = definition.says?.(result, parsed.data);
      const text: CallToolResult["content"] = [
        { type: "text", text: JSON.stringify(result) },
        ...(words === undefined ? [] : [{ type: "text" as const, text: words }]),
      ];
      if (!supportsStructuredContent(ctx.protocolVersion)) return { content: text };
      const answered: CallToolResult = { content: [...text, ...(definition.links?.(result) ?? [])], structuredContent: result };
      if (!ctx.showsAnswerCard || !definition.card) return answered;
      // The card's data is a nicety: failing to read it must not cost the guest the answer.
      const card = await definition.card(result, ctx).catch((error: unknown) => {
        console.error(JSON.stringify({ event: "answer_card_data_failed", tool: definition.name, message: String(error) }));
        return {};
      });
      return { ...answered, _meta: { [ANSWER_CARD_META]: card } };
    },
  };
}
