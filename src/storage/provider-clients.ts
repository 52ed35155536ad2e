import type { ClientInfo } from "@cloudflare/workers-oauth-provider";

/**
 * Stores a public client with a chosen ID: the provider's `createClient()` always picks a random one,
 * so a well-known client (the demo fixture's) is written in the provider's own record shape.
 */
export async function putPublicClient(
  kv: KVNamespace,
  client: { clientId: string; clientName: string; redirectUris: string[] },
): Promise<void> {
  const record: ClientInfo & { authMethodExplicit: true } = {
    clientId: client.clientId,
    clientName: client.clientName,
    redirectUris: client.redirectUris,
    grantTypes: ["authorization_code", "refresh_token"],
    responseTypes: ["code"],
    registrationDate: Math.floor(Date.now() / 1000),
    tokenEndpointAuthMethod: "none",
    authMethodExplicit: true,
  };
  await kv.put(`client:${client.clientId}`, JSON.stringify(record));
}
