import { createMiddleware } from "hono/factory";
import { constantTimeEqual, sha256PrefixHex } from "../crypto/hash";
import type { Env } from "../env";
import { envelopeError } from "../http/surface-errors";

/** The operator is known only by a fingerprint of the token they presented: the audit log never holds the token. */
export type AdminEnv = { Bindings: Env; Variables: { operator: string } };

/** Bearer ADMIN_TOKEN, compared in constant time; the whole surface answers 404 while the secret is unset. */
export const adminAuth = createMiddleware<AdminEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) return envelopeError(404, "Not found.");
  const presented = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  if (!presented || !(await constantTimeEqual(presented, expected))) {
    return envelopeError(401, "A valid operator token is required.", { "WWW-Authenticate": 'Bearer realm="admin"' });
  }
  c.set("operator", `token:${await sha256PrefixHex(presented, 8)}`);
  await next();
});
