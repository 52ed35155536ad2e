import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Tool as ToolListing } from "@modelcontextprotocol/server";
import { z } from "zod";

export interface ToolContext {
  db: D1Database;
  organizationId: string;
}

interface ToolDefinition<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(args: z.output<I>, ctx: ToolContext): Promise<z.output<O>>;
  /** The readable text of a result, for clients that do not read structuredContent. */
  summarize(result: z.output<O>): string;
}

export interface Tool {
  listing: ToolListing;
  call(args: unknown, ctx: ToolContext): Promise<CallToolResult>;
}

function jsonSchema(schema: z.ZodObject, io: "input" | "output"): ToolListing["inputSchema"] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-7", io }) as Record<string, unknown>;
  return rest as ToolListing["inputSchema"];
}

/** A tool whose zod schemas are the only source of its validation, types and listed JSON Schemas. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): Tool {
  return {
    listing: {
      name: definition.name,
      title: definition.title,
      description: definition.description,
      inputSchema: jsonSchema(definition.input, "input"),
      outputSchema: jsonSchema(definition.output, "output"),
      annotations: { title: definition.title, readOnlyHint: true, openWorldHint: false },
    },
    async call(args, ctx) {
      const parsed = definition.input.safeParse(args ?? {});
      if (!parsed.success) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for ${definition.name}: ${z.prettifyError(parsed.error)}`);
      }
      const result = await definition.run(parsed.data, ctx);
      return {
        content: [{ type: "text", text: definition.summarize(result) }],
        structuredContent: result as Record<string, unknown>,
      };
    },
  };
}

export const invalidParams = (message: string): ProtocolError => new ProtocolError(ProtocolErrorCode.InvalidParams, message);
