import { cors } from "hono/cors";

/**
 * Public documents (discovery metadata, the JWKS, /health) are readable from any web page: browser-based
 * MCP clients discover the server with them, and they carry no credentials.
 */
export const publicCors = cors({ origin: "*", allowMethods: ["GET", "HEAD", "OPTIONS"], maxAge: 86_400 });
