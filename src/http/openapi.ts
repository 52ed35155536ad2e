import type { z } from "@hono/zod-openapi";

/** A JSON media type of an OpenAPI request body or response: the zod schema is the one source of both. */
export const jsonContent = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });
