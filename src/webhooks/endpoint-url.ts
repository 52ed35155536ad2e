import { hostClass } from "../http/host-class";

/**
 * Where webhook events may be sent: `https` to a public host. Loopback (`localhost`, 127.0.0.0/8, ::1) is
 * allowed in development only, over http too, for a receiver on the developer's machine. Names that only
 * resolve inside a network and addresses that are private, link-local, shared, reserved or multicast are
 * refused, so the operator API cannot be used to make the service call into a network it sits in. (A
 * public name that resolves to a private address is stopped by the runtime: with
 * `global_fetch_strictly_public`, a deployed Worker's fetch only reaches the public internet.)
 */

const MAX_URL_LENGTH = 2048;

/** Why `text` cannot receive webhook events, or null when it can. */
export function endpointUrlProblem(text: string, development: boolean): string | null {
  if (text.length > MAX_URL_LENGTH || /\s/.test(text) || !URL.canParse(text)) {
    return `must be an absolute URL of at most ${MAX_URL_LENGTH} characters, without spaces`;
  }
  const url = new URL(text);
  if (url.username !== "" || url.password !== "") return "must not carry credentials (user:password@); the events are signed instead";
  if (url.hash !== "") return "must not have a #fragment";
  const host = hostClass(url.hostname);
  if (host === "private") return `must be on a public host: ${url.hostname} is a private, internal or reserved address or name`;
  if (host === "loopback" && !development) return `must be on a public host: ${url.hostname} is loopback, allowed only in development`;
  if (url.protocol === "https:" || (url.protocol === "http:" && host === "loopback")) return null;
  return "must use https (http only to loopback in development)";
}
