import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { EntityId } from "../catalogue/records";
import { jsonContent } from "../http/openapi";
import { ENVELOPE_CODES, type ErrorDetail } from "../http/surface-errors";

/** Pieces every operator route shares: the error envelope, its responses, identifiers. */

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(Object.values(ENVELOPE_CODES) as [string, ...string[]]),
      message: z.string(),
      details: z
        .array(z.object({ line: z.number().int().optional(), field: z.string(), message: z.string() }))
        .optional()
        .openapi({ description: "Each invalid field (and, for content rows, its line)." }),
    }),
  })
  .openapi("Error");

const error = (description: string) => ({ description, content: jsonContent(ErrorEnvelope) });

export const ERRORS = {
  400: error("Malformed input; `details` names each invalid field."),
  401: error("Missing or wrong operator token."),
  404: error("No such resource (or the operator API is off: ADMIN_TOKEN is unset)."),
  409: error("Conflicts with what is stored: a duplicate, or a state that does not allow it."),
  429: error("Too many wrong operator tokens from this address this hour (the right one included); Retry-After says when to retry."),
  500: error("The deployment is misconfigured (ADMIN_TOKEN too short, PASSWORD_PEPPER missing: the message says which), or failed."),
};

/** IDs that go into URLs and logs: letters, digits, `.`, `_`, `-`; no spaces, colons or control characters. */
export const SafeId = EntityId;
export const OrganizationId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "must be 1-63 lower-case letters, digits or '-'")
  .openapi({ example: "org-aurora" });
/** The `{id}` of a route on one item whose IDs the service makes (API keys, users, imports). */
export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" } }),
});
export const Timestamp = z.string().openapi({ description: "ISO 8601 UTC", example: "2026-11-23T10:00:00.000Z" });

/** SPEC's error envelope as a typed JSON response of the route (so the OpenAPI document and the code agree). */
export function adminError<S extends 400 | 404 | 405 | 409 | 413 | 415 | 428>(
  c: Context,
  status: S,
  message: string,
  details?: ErrorDetail[],
) {
  return c.json({ error: { code: ENVELOPE_CODES[status], message, ...(details ? { details } : {}) } }, status, {
    "Cache-Control": "no-store",
  });
}

export const notFound = (c: Context, what: string) => adminError(c, 404, `No ${what}.`);
