import { contentError, type ContentErrorStatus } from "../content/errors";

/** The MCP server's (and operator API's) error envelope of SPEC "Errors". */
export const MCP_ERROR_CODES = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  429: "rate_limited",
  500: "internal_error",
} as const;
export type EnvelopeStatus = keyof typeof MCP_ERROR_CODES;

export function envelopeError(
  status: EnvelopeStatus,
  message: string,
  headers?: HeadersInit,
  extra?: { retry_after?: number },
): Response {
  return Response.json({ error: { code: MCP_ERROR_CODES[status], message, ...extra } }, { status, headers });
}

/** OAuth 2.0 JSON error (RFC 6749 §5.2) for the identity provider's endpoints. */
export function oauthError(status: number, error: string, description: string, headers?: HeadersInit): Response {
  return Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

const OAUTH_ERROR_NAMES: Record<number, string> = { 401: "invalid_client", 403: "access_denied", 404: "invalid_request" };

/** An error in the body format of the surface that `path` belongs to (DESIGN §1). */
export function surfaceError(path: string, status: ContentErrorStatus & EnvelopeStatus, message: string): Response {
  if (path.startsWith("/api/")) return contentError(status, message, path);
  if (path.startsWith("/realms/")) return oauthError(status, OAUTH_ERROR_NAMES[status] ?? "server_error", message);
  return envelopeError(status, message);
}
