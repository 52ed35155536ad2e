/**
 * The MCP server's (and operator API's) error envelope of SPEC "Errors". SPEC's table has no row for
 * 403, 405, 406, 409, 412, 413, 415 and 428; those keep their status with a code in the same style.
 */
export const ENVELOPE_CODES = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  406: "not_acceptable",
  409: "conflict",
  412: "precondition_failed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  428: "precondition_required",
  429: "rate_limited",
  500: "internal_error",
} as const;
export type EnvelopeStatus = keyof typeof ENVELOPE_CODES;

/** What a field-level problem looks like in `error.details` (the operator API's validation errors). */
export interface ErrorDetail {
  line?: number;
  field: string;
  message: string;
}

export function envelopeError(
  status: EnvelopeStatus,
  message: string,
  headers?: HeadersInit,
  extra?: { retry_after?: number; details?: ErrorDetail[] },
): Response {
  return Response.json({ error: { code: ENVELOPE_CODES[status], message, ...extra } }, { status, headers });
}

/** OAuth 2.0 JSON error (RFC 6749 §5.2) for the identity provider's endpoints. */
export function oauthError(status: number, error: string, description: string, headers?: HeadersInit): Response {
  return Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}
