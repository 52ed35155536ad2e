/**
 * Client ID Metadata Documents are fetched from the URL that is the client ID, which anyone may
 * choose: outside development only public DNS names are fetched, never an address literal, a
 * loopback or link-local host, or a name that only resolves inside a network.
 */

const INTERNAL_SUFFIXES = [
  ".localhost",
  ".local",
  ".internal",
  ".intranet",
  ".lan",
  ".home.arpa",
  ".corp",
  ".private",
  ".test",
  ".invalid",
];

/** Whether `clientId` is a metadata-document URL (https with a path) whose host is not a public DNS name. */
export function isNonPublicMetadataUrl(clientId: string): boolean {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.protocol !== "https:") return false;
  // WHATWG URL parsing writes every IPv4 form (0x7f.1, 2130706433) as dotted decimal and IPv6 in brackets.
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(host)) return true;
  if (!host.includes(".") || host === "localhost") return true;
  return INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}
