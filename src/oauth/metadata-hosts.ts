import { hostClass, isAddressLiteral } from "../http/host-class";

/**
 * Client ID Metadata Documents are fetched from the URL that is the client ID, which anyone may
 * choose: outside development only public DNS names are fetched, never an address literal, a
 * loopback or link-local host, or a name that only resolves inside a network.
 */

// Names reserved for testing and for what cannot exist (RFC 6761): no real client is published there.
const RESERVED_SUFFIXES = [".test", ".invalid"];

/** Whether `clientId` is a metadata-document URL (https with a path) whose host is not a public DNS name. */
export function isNonPublicMetadataUrl(clientId: string): boolean {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.protocol !== "https:") return false;
  const host = url.hostname;
  if (isAddressLiteral(host) || hostClass(host) !== "public") return true;
  const name = host.replace(/\.$/, "");
  return RESERVED_SUFFIXES.some((suffix) => name.endsWith(suffix));
}
