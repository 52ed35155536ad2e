import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import { isSealed, seal, unseal } from "../crypto/sealed";
import { tokenTtlSeconds, type Env } from "../env";
import {
  activeSigningKey,
  insertSigningKey,
  publishedSigningKeys,
  retireSigningKeysExcept,
  sealSigningKey,
  unsealedSigningKeys,
  type SigningKeyRow,
} from "../storage/signing-keys";

export const SIGNING_ALG = "ES256";
const CACHE_MS = 60_000;
// A retired key stays published this long past the lifetime of the last token it signed (clock skew, caches).
const PUBLISH_GRACE_MS = 120_000;

export interface Signer {
  kid: string;
  privateKey: CryptoKey;
}

// Keyed by where the keys come from, so a configured key and keys kept in D1 never mix.
let signerCache: { source: string; signer: Signer; until: number } | undefined;
let jwksCache: { source: string; keys: JWK[]; until: number } | undefined;

const keySource = (env: Env): string => env.SIGNING_KEY_JWK ?? "d1";

const publicMembers = ({ kty, crv, x, y, n, e }: JWK, kid: string): JWK =>
  JSON.parse(JSON.stringify({ kty, crv, x, y, n, e, kid, alg: SIGNING_ALG, use: "sig" })) as JWK;

async function configuredKey(env: Env): Promise<{ jwk: JWK; kid: string } | undefined> {
  if (!env.SIGNING_KEY_JWK) return undefined;
  const jwk = JSON.parse(env.SIGNING_KEY_JWK) as JWK;
  return { jwk, kid: jwk.kid ?? (await calculateJwkThumbprint(jwk)) };
}

async function newKeyRow(env: Env, createdAt: string): Promise<SigningKeyRow> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    // A copy of the database must not be able to mint tokens: the private key is stored sealed, bound to its kid.
    private_jwk: await seal(env.KEY_ENCRYPTION_KEY, JSON.stringify(await exportJWK(privateKey)), kid),
    public_jwk: JSON.stringify(publicMembers(publicJwk, kid)),
    created_at: createdAt,
    retired_at: null,
  };
}

/** The key that signs new tokens: the configured secret, else the newest key in D1, created on first use. */
export async function currentSigner(env: Env, now = Date.now()): Promise<Signer> {
  if (signerCache && signerCache.source === keySource(env) && signerCache.until > now) return signerCache.signer;
  const configured = await configuredKey(env);
  let signer: Signer;
  if (configured) {
    signer = { kid: configured.kid, privateKey: (await importJWK(configured.jwk, SIGNING_ALG)) as CryptoKey };
  } else {
    let row = await activeSigningKey(env.DB);
    if (!row) {
      await insertSigningKey(env.DB, await newKeyRow(env, new Date(now).toISOString())).run();
      // Two isolates may race to create the first key; both keys are published and the newest signs.
      row = (await activeSigningKey(env.DB))!;
    }
    const privateJwk = isSealed(row.private_jwk) ? await unseal(env.KEY_ENCRYPTION_KEY, row.private_jwk, row.kid) : row.private_jwk;
    if (!isSealed(row.private_jwk)) await sealStoredKeys(env);
    signer = { kid: row.kid, privateKey: (await importJWK(JSON.parse(privateJwk) as JWK, SIGNING_ALG)) as CryptoKey };
  }
  signerCache = { source: keySource(env), signer, until: now + CACHE_MS };
  return signer;
}

/** Seals every private key stored in plain form before KEY_ENCRYPTION_KEY (the first time a plain key is met). */
async function sealStoredKeys(env: Env): Promise<void> {
  const plain = await unsealedSigningKeys(env.DB);
  if (plain.length === 0) return;
  const sealed = await Promise.all(
    plain.map(async (row) =>
      sealSigningKey(env.DB, row.kid, row.private_jwk, await seal(env.KEY_ENCRYPTION_KEY, row.private_jwk, row.kid)),
    ),
  );
  await env.DB.batch(sealed);
}

/**
 * Starts signing with a new key; the previous ones stay published until their tokens have expired.
 * `alongside` gives statements written in the same D1 batch (the operator's audit row of the new key),
 * so the rotation and its record exist together or not at all.
 */
export async function rotateSigningKey(
  env: Env,
  alongside: (kid: string) => D1PreparedStatement[] = () => [],
  now = Date.now(),
): Promise<string> {
  const row = await newKeyRow(env, new Date(now).toISOString());
  await env.DB.batch([
    insertSigningKey(env.DB, row),
    retireSigningKeysExcept(env.DB, row.kid, new Date(now).toISOString()),
    ...alongside(row.kid),
  ]);
  signerCache = undefined;
  jwksCache = undefined;
  return row.kid;
}

/** The realm's JWKS: public members only, of every key whose tokens may still be valid. */
export async function publishedJwks(env: Env, now = Date.now()): Promise<JWK[]> {
  if (jwksCache && jwksCache.source === keySource(env) && jwksCache.until > now) return jwksCache.keys;
  const configured = await configuredKey(env);
  if (!configured) await currentSigner(env, now);
  const retiredAfter = new Date(now - tokenTtlSeconds(env) * 1000 - PUBLISH_GRACE_MS - CACHE_MS).toISOString();
  const keys = (await publishedSigningKeys(env.DB, retiredAfter)).map((row) => JSON.parse(row.public_jwk) as JWK);
  if (configured) keys.unshift(publicMembers(configured.jwk, configured.kid));
  jwksCache = { source: keySource(env), keys, until: now + CACHE_MS };
  return keys;
}

/** Forgets the cached JWKS so that a token signed by a key this isolate has not seen yet can be checked. */
export function refreshJwks(): void {
  jwksCache = undefined;
}
