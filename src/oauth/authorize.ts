import {
  AuthorizationError,
  authorizationErrorRedirect,
  CimdFetchError,
  type AuthRequest,
  type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import type { Context } from "hono";
import { sha256Hex } from "../crypto/hash";
import { isDevelopment, type AppEnv, type Env } from "../env";
import { BodyTooLarge, readBodyText } from "../http/body";
import { CLIENT_ID_PATTERN, MCP_SCOPE } from "../identity/tokens";
import { callerAddress } from "../rate-limit/token-requests";
import { findOrganization } from "../storage/organizations";
import { findUser } from "../storage/users";
import type { ConnectorProps } from "./access";
import { branding } from "./branding";
import { isNonPublicMetadataUrl } from "./metadata-hosts";
import { consentPage, errorPage, htmlResponse, signInPage } from "./pages";
import { isRedirectUriAllowed } from "./redirect-uris";
import { CONNECTOR_REFRESH_TOKEN_TTL_S, oauthHelpers } from "./server";
import { signIn } from "./sign-in";

/**
 * `/authorize`: the provider validates the request, then the user signs in (one form) and allows
 * or denies (a second form). Each form carries only a single-use handle bound to this browser by a
 * cookie; the request itself (client, redirect URI, PKCE challenge, state) stays on the server, so
 * nothing in a submitted form can change where the code goes.
 */

const MAX_FORM_BYTES = 16 * 1024;
// A signed-in handle remembers who signed in for as long as the provider keeps the handle itself.
const SIGNED_IN_TTL_S = 600;
const signedInKey = async (handle: string) => `sign-in:${await sha256Hex(handle)}`;

const redirectOrigin = (request: AuthRequest): string[] => {
  try {
    return [new URL(request.redirectUri).origin];
  } catch {
    return [];
  }
};

const problem = (env: Env, status: number, heading: string, message: string) =>
  htmlResponse(errorPage(branding(env), heading, message), status);

const startAgain = (env: Env) =>
  problem(env, 400, "This page has expired", "This sign-in page expired, was already used, or was opened in another browser.");

function redirect(location: string, headers = new Headers()): Response {
  headers.set("Location", location);
  headers.set("Cache-Control", "no-store");
  return new Response(null, { status: 302, headers });
}

/** All headers of `sources`, later ones winning, except that every Set-Cookie is kept. */
function mergeHeaders(...sources: Headers[]): Headers {
  const merged = new Headers();
  for (const source of sources) {
    for (const [name, value] of source) if (name.toLowerCase() !== "set-cookie") merged.set(name, value);
    for (const cookie of source.getSetCookie()) merged.append("Set-Cookie", cookie);
  }
  return merged;
}

/** GET /authorize: validate the request, then show the sign-in form. */
export async function showAuthorization(c: Context<AppEnv>): Promise<Response> {
  const oauth = oauthHelpers(c.env, c.req.url);
  const clientId = new URL(c.req.url).searchParams.get("client_id") ?? "";
  // The provider keys storage by the client ID: one no client could have is refused before it becomes a key.
  if (clientId !== "" && !CLIENT_ID_PATTERN.test(clientId)) {
    return problem(c.env, 400, "This app cannot connect", "The app's client ID is not 1-255 visible characters.");
  }
  if (!isDevelopment(c.env) && isNonPublicMetadataUrl(clientId)) {
    return problem(
      c.env,
      400,
      "This app cannot connect",
      "The app's client ID names a private or local address, which this server does not fetch.",
    );
  }
  let request: AuthRequest;
  try {
    request = await oauth.parseAuthRequest(c.req.raw);
  } catch (error) {
    if (error instanceof AuthorizationError) {
      // The provider only offers a redirect once client and redirect URI match; ours must allow the URI too.
      if (error.redirectTo && error.redirectUri && (await isRedirectUriAllowed(c.env, clientId, error.redirectUri))) {
        return redirect(error.redirectTo);
      }
      return problem(c.env, 400, "This app cannot connect", `The authorization request was refused: ${error.description}.`);
    }
    if (error instanceof CimdFetchError) {
      return problem(c.env, 400, "This app cannot connect", "The app's metadata document could not be fetched or is not valid.");
    }
    throw error;
  }
  // Never redirect to a URI the operator did not allow, whatever the client registered.
  if (!(await isRedirectUriAllowed(c.env, request.clientId, request.redirectUri))) {
    return problem(c.env, 400, "This app cannot connect", `The redirect URI ${request.redirectUri} is not allowed by this server.`);
  }
  // OAuth 2.1 and MCP: every client proves possession with S256 PKCE, confidential ones too.
  if (!request.codeChallenge) {
    return redirect(authorizationErrorRedirect(request, "invalid_request", "code_challenge with code_challenge_method=S256 is required"));
  }
  return renderSignIn(c.env, oauth, request);
}

async function renderSignIn(
  env: Env,
  oauth: OAuthHelpers,
  request: AuthRequest,
  failure?: { status: number; error: string; email: string },
  headers = new Headers(),
) {
  const details = await oauth.describeConsent(request);
  const consent = await oauth.beginConsent(request);
  const html = signInPage({ brand: branding(env), details, handle: consent.handle, error: failure?.error, email: failure?.email });
  return htmlResponse(html, failure?.status ?? 200, redirectOrigin(request), mergeHeaders(headers, consent.headers));
}

/** POST /authorize: the sign-in form, then the consent form. */
export async function submitAuthorization(c: Context<AppEnv>): Promise<Response> {
  if (!c.req.header("Content-Type")?.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    return problem(c.env, 415, "Unexpected form", "The form must be submitted as application/x-www-form-urlencoded.");
  }
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readBodyText(c.req.raw, MAX_FORM_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLarge) return problem(c.env, 413, "Unexpected form", "The form is too large.");
    throw error;
  }
  const handle = form.get("handle") ?? "";
  const decision = form.get("decision");
  const oauth = oauthHelpers(c.env, c.req.url);
  try {
    if (decision === "deny") {
      await c.env.OAUTH_KV.delete(await signedInKey(handle));
      const denied = await oauth.denyConsent(c.req.raw, handle, { description: "The user denied access" });
      return redirect(denied.redirectTo, denied.headers);
    }
    if (decision === "signin") return await completeSignIn(c.env, oauth, c.req.raw, handle, form);
    if (decision === "allow") return await completeConsent(c.env, oauth, c.req.raw, handle);
  } catch (error) {
    // The handle was missing, expired, used, or bound to another browser (a forged form lands here).
    if (error instanceof AuthorizationError) return startAgain(c.env);
    throw error;
  }
  return problem(c.env, 400, "Unexpected form", "The form did not say whether to sign in, allow or deny.");
}

const waitText = (seconds: number) => (seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

async function completeSignIn(env: Env, oauth: OAuthHelpers, raw: Request, handle: string, form: URLSearchParams): Promise<Response> {
  const email = form.get("email") ?? "";
  // Consumes the handle (so a form is never replayed) and recovers the request stored with it.
  const { request, headers } = await oauth.approveConsent(raw, handle);
  const result = await signIn(env, email, form.get("password") ?? "", callerAddress(raw, env));
  if (!result.ok) {
    const failure =
      result.reason === "throttled"
        ? { status: 429, error: `Too many failed sign-in attempts from here. Try again in ${waitText(result.retryAfterSeconds ?? 60)}.` }
        : result.reason === "disabled"
          ? { status: 403, error: "This account is disabled. Ask your organization's operator." }
          : { status: 401, error: "The email or password is not correct." };
    return renderSignIn(env, oauth, request, { ...failure, email }, headers);
  }
  const organization = await findOrganization(env.DB, result.user.organization_id);
  const details = await oauth.describeConsent(request);
  const consent = await oauth.beginConsent(request);
  await env.OAUTH_KV.put(await signedInKey(consent.handle), result.user.id, { expirationTtl: SIGNED_IN_TTL_S });
  const html = consentPage({
    brand: branding(env),
    lifetimeDays: CONNECTOR_REFRESH_TOKEN_TTL_S / 86_400,
    details,
    handle: consent.handle,
    email: result.user.email,
    organizationName: organization?.name ?? result.user.organization_id,
  });
  return htmlResponse(html, 200, redirectOrigin(request), mergeHeaders(headers, consent.headers));
}

async function completeConsent(env: Env, oauth: OAuthHelpers, raw: Request, handle: string): Promise<Response> {
  const key = await signedInKey(handle);
  // Only a handle issued after a successful sign-in can allow anything.
  const userId = await env.OAUTH_KV.get(key);
  if (!userId) return startAgain(env);
  const { request, headers } = await oauth.approveConsent(raw, handle, { scope: [MCP_SCOPE] });
  await env.OAUTH_KV.delete(key);
  const user = await findUser(env.DB, userId);
  if (!user || user.disabled_at !== null)
    return problem(env, 403, "Access not granted", "This account is disabled. Ask your organization's operator.");
  if (!(await isRedirectUriAllowed(env, request.clientId, request.redirectUri))) {
    return problem(env, 400, "This app cannot connect", `The redirect URI ${request.redirectUri} is no longer allowed by this server.`);
  }
  const props: ConnectorProps = { userId: user.id, organizationId: user.organization_id, grantedAt: new Date().toISOString() };
  const { redirectTo } = await oauth.completeAuthorization({
    request,
    userId: user.id,
    metadata: { organizationId: user.organization_id },
    scope: [MCP_SCOPE],
    props,
  });
  return redirect(redirectTo, headers);
}
