/** RFC 6749 §2.3.1: HTTP Basic with form-urlencoded client id and secret. */
export function basicCredentials(header: string | undefined): { clientId: string; secret: string } | null | "malformed" {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!encoded) return null;
  try {
    const decoded = atob(encoded);
    const colon = decoded.indexOf(":");
    if (colon < 0) return "malformed";
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return "malformed";
  }
}
