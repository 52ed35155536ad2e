import type { Context, Env } from "hono";
import { createMiddleware } from "hono/factory";

/** The request body is larger than the surface accepts. */
export class BodyTooLarge extends Error {}

/** The request body as UTF-8 text, at most `maxBytes` of it (readBodyBytes). */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
}

/**
 * The request body's bytes, counted as they arrive and stopping at `maxBytes`: `Content-Length` is only a hint,
 * so a client that lies about it cannot make us buffer more.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Caps the request body at `maxBytes(c)`, counted as it arrives, before any handler parses it; the
 * body is then read from memory, its bytes as sent (a file upload decodes them itself). `tooLarge` answers in the surface's own error shape.
 */
export function bodyLimit<E extends Env>(maxBytes: (c: Context<E>) => number, tooLarge: (c: Context<E>, maxBytes: number) => Response) {
  return createMiddleware<E>(async (c, next) => {
    // A GET or HEAD may arrive with a `Content-Length` (hence a body stream), but may not be given a body again.
    if (c.req.raw.body && c.req.method !== "GET" && c.req.method !== "HEAD") {
      const limit = maxBytes(c);
      try {
        c.req.raw = new Request(c.req.raw, { body: await readBodyBytes(c.req.raw, limit) });
      } catch (error) {
        if (error instanceof BodyTooLarge) return tooLarge(c, limit);
        throw error;
      }
    }
    await next();
  });
}
