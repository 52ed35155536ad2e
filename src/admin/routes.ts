import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "../http/body";
import { API_LICENSE } from "../http/openapi";
import { apiKeyRoutes } from "./api-keys";
import { adminAuth, type AdminEnv } from "./auth";
import { connectorClientRoutes } from "./connector-clients";
import { contentRoutes } from "./content";
import { faqRoutes } from "./faqs";
import { findReplaceRoutes } from "./find-replace";
import { identityClientRoutes } from "./identity-clients";
import { adminError } from "./openapi";
import { unservedRequest } from "./operation";
import { organizationRoutes } from "./organizations";
import { personRoutes } from "./people";
import { searchRoutes } from "./search";
import { systemRoutes } from "./system";
import { userRoutes } from "./users";
import { webhookRoutes } from "./webhooks";

// Import rows come in chunks of up to 2,000 records; every other request is a small JSON object.
const MAX_IMPORT_CHUNK_BYTES = 4 * 1024 * 1024;
const MAX_BODY_BYTES = 64 * 1024;
const BASE_PATH = "/admin/v1";

/** The operator API under /admin/v1 (DESIGN §7): JSON in and out, every change audited, described by its own OpenAPI document. */
export function adminApi(): OpenAPIHono<AdminEnv> {
  const api = new OpenAPIHono<AdminEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      // A path that cannot name a resource names none, as on the content API.
      if (result.target === "param") return adminError(c, 404, "No such resource.");
      const details = result.error.issues.map((issue) => ({ field: issue.path.join(".") || "(body)", message: issue.message }));
      return adminError(
        c,
        400,
        `Invalid ${result.target === "json" ? "request body" : result.target}: ${details.map((d) => `${d.field} ${d.message}`).join("; ")}.`,
        details,
      );
    },
  }).basePath(BASE_PATH);

  api.use(
    "*",
    adminAuth,
    bodyLimit(
      // An import's chunk, and a replace's up to 500 change keys, are larger than any other body.
      (c) => (/\/imports\/[^/]+\/(rows|csv)$|\/content\/replace$/.test(c.req.path) ? MAX_IMPORT_CHUNK_BYTES : MAX_BODY_BYTES),
      (c, max) => adminError(c, 413, `The request body is larger than ${max} bytes.`),
    ),
  );

  organizationRoutes(api);
  identityClientRoutes(api);
  apiKeyRoutes(api);
  userRoutes(api);
  connectorClientRoutes(api);
  contentRoutes(api);
  faqRoutes(api);
  findReplaceRoutes(api);
  searchRoutes(api);
  systemRoutes(api);
  webhookRoutes(api);
  personRoutes(api);

  api.openAPIRegistry.registerComponent("securitySchemes", "OperatorToken", { type: "http", scheme: "bearer", description: "ADMIN_TOKEN" });
  const DOCUMENT_PATH = "/openapi.json";
  api.doc31(DOCUMENT_PATH, (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Hospitality Content operator API",
      version: "1",
      license: API_LICENSE,
      description:
        "Content import and export, organizations, identity clients, API keys, connector users and clients. Every change is written to the audit log.",
    },
    servers: [{ url: new URL(c.req.url).origin }],
    security: [{ OperatorToken: [] }],
  }));
  api.all("*", unservedRequest(api, BASE_PATH, [{ method: "get", path: DOCUMENT_PATH }]));
  return api;
}
