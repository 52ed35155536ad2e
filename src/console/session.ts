import { toBase64Url } from "../crypto/base64url";
import { sha256, sha256Hex } from "../crypto/hash";
import { randomSecret } from "../crypto/random";
import { deleteSession, findSession, insertSession, touchSession, type ConsoleSessionRow } from "../storage/console-sessions";

/**
 * Console sessions: a random 256-bit token in a `__Host-` cookie, stored only as its SHA-256. A session ends after
 * 30 minutes without a request and 12 hours after sign-in, whichever comes first. Each session's CSRF token is
 * derived from its cookie's token, so it needs no storage and a copy of D1 cannot forge it.
 */

/** What a session is stored under: its token's SHA-256. */
export const sessionHash = (token: string): Promise<string> => sha256Hex(token);

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_MAX_MS = 12 * 3_600_000;
/** `last_seen_at` is written at most this often: a page's requests cost one write a minute, not one each. */
const TOUCH_EVERY_MS = 60_000;

export const SESSION_COOKIE = "__Host-console-session";
/** Holds the sign-in form's CSRF token until a session has its own (double submit). */
export const SIGN_IN_COOKIE = "__Host-console-sign-in";

const ATTRIBUTES = "Path=/; Secure; HttpOnly; SameSite=Lax";
export const setCookie = (name: string, value: string, maxAgeSeconds: number): string =>
  `${name}=${value}; ${ATTRIBUTES}; Max-Age=${maxAgeSeconds}`;
export const clearCookie = (name: string): string => `${name}=; ${ATTRIBUTES}; Max-Age=0`;

/** The value of cookie `name` in a Cookie header, if any. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The CSRF token of the session whose cookie holds `token`. */
export const csrfTokenOf = async (token: string): Promise<string> => toBase64Url(await sha256(`console-csrf\n${token}`));

/** A new session's cookie token and the row that stores it (its hash, never the token). */
export async function newSession(personId: string, now: number): Promise<{ token: string; row: ConsoleSessionRow }> {
  const token = randomSecret();
  const at = new Date(now).toISOString();
  return { token, row: { token_hash: await sessionHash(token), person_id: personId, created_at: at, last_seen_at: at } };
}

/** A new session for `personId`: its cookie's token, to be set with SESSION_COOKIE. */
export async function startSession(db: D1Database, personId: string, now: number): Promise<string> {
  const { token, row } = await newSession(personId, now);
  await insertSession(db, row).run();
  return token;
}

export type SessionCheck = { state: "active"; personId: string } | { state: "none" } | { state: "ended"; why: "idle" | "expired" };

/** The session of a cookie's token at `now`: active (and seen now), absent, or just ended by a timeout (and deleted). */
export async function checkSession(db: D1Database, token: string | undefined, now: number): Promise<SessionCheck> {
  if (!token) return { state: "none" };
  const tokenHash = await sessionHash(token);
  const session = await findSession(db, tokenHash);
  if (!session) return { state: "none" };
  const lastSeen = Date.parse(session.last_seen_at);
  const expired = now - Date.parse(session.created_at) >= SESSION_MAX_MS;
  if (expired || now - lastSeen >= SESSION_IDLE_MS) {
    await deleteSession(db, tokenHash).run();
    return { state: "ended", why: expired ? "expired" : "idle" };
  }
  if (now - lastSeen >= TOUCH_EVERY_MS) await touchSession(db, tokenHash, new Date(now).toISOString()).run();
  return { state: "active", personId: session.person_id };
}

export const endSession = async (db: D1Database, token: string): Promise<void> => {
  await deleteSession(db, await sessionHash(token)).run();
};
