import { SignJWT } from "jose";
import { mcpAudience, realmIssuer, tokenTtlSeconds, type Env } from "../env";
import { currentSigner, SIGNING_ALG } from "./signing-keys";

export const MCP_SCOPE = "mcp:tools";

/** Client IDs this service knows: 1-255 visible ASCII characters (no spaces or control characters). */
export const CLIENT_ID_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

/** An ES256 access token for `clientId` with the claims of DESIGN §5. */
export async function issueAccessToken(env: Env, requestUrl: string, clientId: string): Promise<TokenResponse> {
  const signer = await currentSigner(env);
  const ttl = tokenTtlSeconds(env);
  const now = Math.floor(Date.now() / 1000);
  const accessToken = await new SignJWT({ client_id: clientId, azp: clientId, scope: MCP_SCOPE })
    .setProtectedHeader({ alg: SIGNING_ALG, kid: signer.kid, typ: "JWT" })
    .setIssuer(realmIssuer(env, requestUrl))
    .setAudience(mcpAudience(env))
    .setSubject(clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .setJti(crypto.randomUUID())
    .sign(signer.privateKey);
  return { access_token: accessToken, token_type: "Bearer", expires_in: ttl, scope: MCP_SCOPE };
}
