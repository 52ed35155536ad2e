/**
 * Where webhook events may be sent: `https` to a public host. Loopback (`localhost`, 127.0.0.0/8, ::1) is
 * allowed in development only, over http too, for a receiver on the developer's machine. Names that only
 * resolve inside a network and addresses that are private, link-local, shared, reserved or multicast are
 * refused, so the operator API cannot be used to make the service call into a network it sits in. (A
 * public name that resolves to a private address is stopped by the runtime: with
 * `global_fetch_strictly_public`, a deployed Worker's fetch only reaches the public internet.)
 */

const MAX_URL_LENGTH = 2048;
const INTERNAL_SUFFIXES = [".local", ".internal", ".home.arpa", ".lan", ".intranet", ".corp", ".private"];

type HostClass = "public" | "loopback" | "private";

/** IPv4 ranges that are not globally reachable (IANA special-purpose registry), as [first octets, prefix length]. */
const IPV4_NOT_PUBLIC: [number[], number][] = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 0, 2], 24],
  [[192, 88, 99], 24],
  [[192, 168], 16],
  [[198, 18], 15],
  [[198, 51, 100], 24],
  [[203, 0, 113], 24],
  [[224], 4],
  [[240], 4],
];

const toNumber = (octets: number[]): number => octets.reduce((n, octet) => n * 256 + octet, 0) * 256 ** (4 - octets.length);

function ipv4Class(octets: number[]): HostClass {
  if (octets[0] === 127) return "loopback";
  const address = toNumber(octets);
  const inRange = ([start, bits]: [number[], number]) =>
    Math.floor(address / 2 ** (32 - bits)) === Math.floor(toNumber(start) / 2 ** (32 - bits));
  return IPV4_NOT_PUBLIC.some(inRange) ? "private" : "public";
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, no embedded IPv4). */
function ipv6Groups(text: string): number[] | null {
  const [head, tail, ...rest] = text.split("::");
  if (rest.length > 0) return null;
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function ipv6Class(groups: number[]): HostClass {
  const [first = 0, second = 0] = groups;
  if (groups.slice(0, 7).every((g) => g === 0)) return groups[7] === 1 ? "loopback" : "private"; // ::1, ::
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address: judge that one.
  const embedded = [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff];
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return ipv4Class(embedded);
  if (first === 0x64 && second === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return ipv4Class(embedded);
  // Global unicast is 2000::/3, less documentation (2001:db8::/32), Teredo (2001::/32) and 6to4 (2002::/16).
  if ((first & 0xe000) !== 0x2000) return "private";
  if ((first === 0x2001 && (second === 0x0db8 || second === 0)) || first === 0x2002) return "private";
  return "public";
}

function hostClass(hostname: string): HostClass {
  if (hostname.startsWith("[")) {
    const groups = ipv6Groups(hostname.slice(1, -1));
    return groups ? ipv6Class(groups) : "private";
  }
  // The URL parser has already turned every IPv4 spelling (decimal, hex, octal, short forms) into a dotted quad.
  const quad = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hostname);
  if (quad) return ipv4Class(quad.slice(1).map(Number));
  const name = hostname.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback";
  if (!name.includes(".") || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) return "private";
  return "public";
}

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
