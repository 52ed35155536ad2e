import type { CallToolResult, Tool as ToolListing } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { D1Reader } from "../../storage/reader";

export interface ToolContext {
  /** A D1 session of this request: the tools only read, so a replica near the caller may answer. */
  db: D1Reader;
  organizationId: string;
  /** The protocol revision the caller negotiated; it decides what a result may carry. */
  protocolVersion: string;
  /** Keeps work going after the answer (a cache refresh, a count). */
  waitUntil: (promise: Promise<unknown>) => void;
  /** Counts a question the content did not answer, for the organization's content team (after the answer). */
  countUnanswered: (question: string, tool: string) => void;
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
}

export interface Tool {
  name: string;
  /** The listing for a client of `protocolVersion`. */
  listing(protocolVersion: string): ToolListing;
  call(args: unknown, ctx: ToolContext): Promise<CallToolResult>;
}

/** `outputSchema` and `structuredContent` arrived with protocol 2025-06-18; earlier clients read only `content`. */
export const supportsStructuredContent = (protocolVersion: string): boolean => protocolVersion >= "2025-06-18";

function jsonSchema(schema: z.ZodObject, io: "input" | "output"): ToolListing["inputSchema"] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-7", io }) as Record<string, unknown>;
  return rest as ToolListing["inputSchema"];
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
  const common = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: jsonSchema(definition.input, "input"),
    annotations: { title: definition.title, readOnlyHint: true, openWorldHint: false },
  };
  const withOutput = { ...common, outputSchema: jsonSchema(definition.output, "output") };
  return {
    name: definition.name,
    listing: (protocolVersion) => (supportsStructuredContent(protocolVersion) ? withOutput : common),
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
      // Every field is in the text as JSON, so a client that cannot read structuredContent loses nothing.
      return {
        content: [{ type: "text", text: JSON.stringify(result) }],
        ...(supportsStructuredContent(ctx.protocolVersion) ? { structuredContent: result } : {}),
      };
    },
  };
}
