import { intVar, type Env } from "../env";
import { bodyLimit } from "../http/body";
import { oauthError } from "../http/surface-errors";
import { rateCounter, type RateDecision } from "./rate-counter";

/**
 * Hourly limits of the token endpoints (the realm's and the connector flow's): per calling address,
 * checked before anything is read from storage and counting every request; per client, counting only
 * tokens issued, so nobody without the client's credentials can spend its hour (client IDs are not
 * secret); and failed client authentications per (client, address), which is what makes guessing a
 * secret cost the guesser without locking the client out elsewhere.
 */
export const DEFAULT_TOKEN_REQUESTS_PER_ADDRESS = 3000;
export const DEFAULT_TOKEN_REQUESTS_PER_CLIENT = 3000;
export const DEFAULT_TOKEN_FAILURES_PER_CLIENT_ADDRESS = 30;
/** Dynamic registrations per address and hour: a connector registers once per user or app, not thousands of times. */
export const DEFAULT_REGISTRATIONS_PER_ADDRESS = 20;
/** A token or registration request is a few hundred bytes; bodies are counted up to this as they arrive. */
export const MAX_TOKEN_BODY_BYTES = 16 * 1024;

export const tokenBodyLimit = bodyLimit(
  () => MAX_TOKEN_BODY_BYTES,
  () => oauthError(413, "invalid_request", `The request body is larger than ${MAX_TOKEN_BODY_BYTES} bytes.`),
);

/** An HTTP field name (RFC 9110 §5.1: a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The caller's address as the proxy in front saw it: CLIENT_ADDRESS_HEADER, by default Cloudflare's
 * CF-Connecting-IP, which its edge sets whatever the client sent. Outside Cloudflare a client could send any value
 * and so start a fresh count at will: with "none" every caller shares one counter, failing closed. IPv6 callers
 * usually hold a whole /64, so they are counted by that prefix; a request without the header shares one counter.
 */
export function callerAddress(request: Request, env: Pick<Env, "CLIENT_ADDRESS_HEADER">): string {
  const header = env.CLIENT_ADDRESS_HEADER ?? "CF-Connecting-IP";
  // A value that is no header name (empty, with spaces) reads as "none": every caller one, never a failure.
  const readable = HEADER_NAME.test(header) && header.toLowerCase() !== "none";
  const ip = (readable ? (request.headers.get(header) ?? "") : "").trim().toLowerCase().slice(0, 64);
  const mappedV4 = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip)?.[1];
  if (mappedV4 || !ip.includes(":")) return mappedV4 ?? (ip || "unknown");
  const [head = "", tail] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(":")}::/64`;
}

function tooMany(decision: RateDecision, who: string, what = "token requests"): Response {
  return oauthError(
    429,
    "temporarily_unavailable",
    `Too many ${what} from this ${who}: at most ${decision.limit} an hour; retry after ${decision.resetSeconds} s.`,
    {
      "Retry-After": String(decision.resetSeconds),
    },
  );
}

/** Counts a token request of the calling address; a 429 in OAuth JSON once its hour is used up. */
export async function addressTokenLimit(env: Env, request: Request): Promise<Response | null> {
  const decision = await rateCounter(env, `token-address:${callerAddress(request, env)}`).hit(
    intVar(env.TOKEN_RATE_LIMIT_PER_ADDRESS, DEFAULT_TOKEN_REQUESTS_PER_ADDRESS),
  );
  return decision.allowed ? null : tooMany(decision, "address");
}

/** Counts a dynamic registration of the calling address; a 429 in OAuth JSON once its hour is used up. */
export async function registrationLimit(env: Env, request: Request): Promise<Response | null> {
  const decision = await rateCounter(env, `register-address:${callerAddress(request, env)}`).hit(
    intVar(env.REGISTRATIONS_PER_ADDRESS, DEFAULT_REGISTRATIONS_PER_ADDRESS),
  );
  return decision.allowed ? null : tooMany(decision, "address", "client registrations");
}

const clientCounter = (env: Env, clientId: string) => rateCounter(env, `token-client:${clientId}`);
const clientLimit = (env: Env) => intVar(env.TOKEN_RATE_LIMIT_PER_CLIENT, DEFAULT_TOKEN_REQUESTS_PER_CLIENT);
const failureCounter = (env: Env, clientId: string, request: Request) =>
  rateCounter(env, `token-failures:${clientId}\n${callerAddress(request, env)}`);
const failureLimit = (env: Env) => intVar(env.TOKEN_FAILURES_PER_CLIENT_ADDRESS, DEFAULT_TOKEN_FAILURES_PER_CLIENT_ADDRESS);

/**
 * Whether a token request naming `clientId` may go on: a 429 once this address failed to authenticate
 * as the client too often this hour, or once the client was issued its hour's tokens. Counts nothing.
 */
export async function clientTokenRefusal(env: Env, clientId: string, request: Request): Promise<Response | null> {
  const failures = await failureCounter(env, clientId, request).peek(failureLimit(env));
  if (!failures.allowed) return tooMany(failures, "address for this client", "failed attempts");
  const issued = await clientCounter(env, clientId).peek(clientLimit(env));
  return issued.allowed ? null : tooMany(issued, "client");
}

/** Counts a failed client authentication of this address for `clientId`. */
export async function countTokenFailure(env: Env, clientId: string, request: Request): Promise<void> {
  await failureCounter(env, clientId, request).hit(failureLimit(env));
}

/** Counts a token about to be issued to `clientId`; a 429 instead when its hour is used up. */
export async function countIssuedToken(env: Env, clientId: string): Promise<Response | null> {
  const decision = await clientCounter(env, clientId).hit(clientLimit(env));
  return decision.allowed ? null : tooMany(decision, "client");
}
