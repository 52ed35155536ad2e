import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { constantTimeEqual } from "../crypto/hash";
import { isDevelopment, type AppEnv } from "../env";
import { loadDemoFixture } from "../fixture/load";
import { rotateSigningKey } from "../identity/signing-keys";
import { envelopeError } from "../http/surface-errors";

/** Operator API: bearer ADMIN_TOKEN; the whole surface answers 404 while the secret is unset. */
const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) return envelopeError(404, "Not found.");
  const presented = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  if (!presented || !(await constantTimeEqual(presented, expected))) {
    return envelopeError(401, "A valid operator token is required.", { "WWW-Authenticate": 'Bearer realm="admin"' });
  }
  await next();
});

export const adminRoutes = new Hono<AppEnv>()
  .use("/admin/*", adminAuth)
  .post("/admin/v1/fixture", async (c) => {
    // The demo fixture carries well-known credentials: it can never be loaded outside development.
    if (!isDevelopment(c.env)) return envelopeError(404, "The demo fixture exists only in development.");
    const loaded = await loadDemoFixture(c.env);
    return c.json({ loaded }, loaded ? 201 : 200);
  })
  .post("/admin/v1/signing-keys/rotate", async (c) => c.json({ kid: await rotateSigningKey(c.env) }, 201));
