import { contentError, type ContentErrorStatus } from "./content/errors";
import { envelopeError, oauthError, type EnvelopeStatus } from "./http/surface-errors";

export type SurfaceErrorStatus = ContentErrorStatus & EnvelopeStatus;

const OAUTH_ERROR_NAMES: Record<number, string> = { 401: "invalid_client", 403: "access_denied", 404: "invalid_request" };

/**
 * An error in the body format of the surface that `path` belongs to (DESIGN §1): ErrorResponse on the
 * content API, OAuth JSON on the realm, the MCP envelope everywhere else. Only the app, which mounts
 * every surface, decides by path.
 */
export function surfaceError(path: string, status: SurfaceErrorStatus, message: string): Response {
  if (path.startsWith("/api/")) return contentError(status, message, path);
  if (path.startsWith("/realms/")) return oauthError(status, OAUTH_ERROR_NAMES[status] ?? "server_error", message);
  return envelopeError(status, message);
}
