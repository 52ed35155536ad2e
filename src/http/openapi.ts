import type { z } from "@hono/zod-openapi";

/** A JSON media type of an OpenAPI request body or response: the zod schema is the one source of both. */
export const jsonContent = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });

/**
 * A stable, unique operationId from a route's method and path, for generated clients:
 * `GET /organizations/{id}/scope` is `getOrganizationsByIdScope`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split("/")
    .filter(Boolean)
    .map((part) => (part.startsWith("{") ? `by-${part.slice(1, -1)}` : part));
  const camel = words.flatMap((word) => word.split(/[-_.]/)).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${method.toLowerCase()}${camel.join("")}`;
}

/** The terms the API documents are published under: the operator's own service, not open source. */
export const API_LICENSE = { name: "Proprietary: use by agreement with the operator", identifier: "LicenseRef-Proprietary" };
