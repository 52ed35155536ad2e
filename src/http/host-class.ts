/**
 * What kind of host a URL names, for the places that fetch a URL someone else chose (webhook endpoints,
 * client metadata documents): a public host, loopback, or a private, internal or reserved address or name.
 */

// The URL parser has already turned every IPv4 spelling (decimal, hex, octal, short forms) into a dotted quad.
const IPV4_QUAD = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;
// Kubernetes service names (`<service>.<namespace>.svc`, `.svc.cluster.local`) resolve only inside a cluster.
const INTERNAL_SUFFIXES = [".local", ".internal", ".home.arpa", ".lan", ".intranet", ".corp", ".private", ".svc", ".cluster.local"];
/**
 * An IPv4 address spelled in a name, dotted or dashed (`10.0.0.1.nip.io`, `ec2-10-0-0-1.sslip.io`): wildcard DNS
 * services answer such names with the address they spell, so the name is judged as that address.
 */
const SPELLED_IPV4 = /(?:^|[.-])(\d{1,3})([.-])(\d{1,3})\2(\d{1,3})\2(\d{1,3})(?=[.-]|$)/g;

export type HostClass = "public" | "loopback" | "private";

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

/** Whether a URL's host (as the URL parser writes it) is public, loopback, or private, internal or reserved. */
export function hostClass(hostname: string): HostClass {
  if (hostname.startsWith("[")) {
    const groups = ipv6Groups(hostname.slice(1, -1));
    return groups ? ipv6Class(groups) : "private";
  }
  const quad = IPV4_QUAD.exec(hostname);
  if (quad) return ipv4Class(quad.slice(1).map(Number));
  const name = hostname.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback";
  if (!name.includes(".") || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) return "private";
  return spelledAddressClass(name);
}

/** The class of the least public IPv4 address a name spells, public when it spells none. */
function spelledAddressClass(name: string): HostClass {
  let least: HostClass = "public";
  for (const [, a, , b, c, d] of name.matchAll(SPELLED_IPV4)) {
    const octets = [a, b, c, d].map(Number);
    if (octets.some((octet) => octet > 255)) continue;
    const spelled = ipv4Class(octets);
    if (spelled === "private") return spelled;
    if (spelled === "loopback") least = spelled;
  }
  return least;
}

/** Whether the host is an IPv4 or IPv6 address rather than a name. */
export const isAddressLiteral = (hostname: string): boolean => hostname.startsWith("[") || IPV4_QUAD.test(hostname);
