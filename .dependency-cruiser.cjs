// The import rules of src/, checked by `npm test` (npm run check:imports). Layers point down:
//   app      src/index.ts, src/app.ts, src/surface-error.ts, src/upkeep.ts: mount the surfaces, choose error bodies by path, daily upkeep
//   surfaces content/, mcp/, oauth/, identity/, admin/, console/, health/: one HTTP surface each
//   shared   catalogue/, search/, rate-limit/, http/, fixture/, webhooks/: concerns several surfaces use
//   base     storage/, crypto/, cache/, env.ts: SQL, primitives, per-isolate caches, configuration
// A module may import its own layer's folder and any layer below; surfaces import another surface only
// along the edges listed below. Type-only imports count like any other.
const APP = "^src/(index|app|surface-error|upkeep)\\.ts$";
const SURFACES = "^src/(content|mcp|oauth|identity|admin|console|health)/";
const SHARED = "^src/(catalogue|search|rate-limit|http|fixture|webhooks)/";
const BASE = "^src/(storage|crypto|cache)/|^src/env\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "Import cycles, type-only ones included.", from: {}, to: { circular: true } },
    { name: "base-stays-down", severity: "error", from: { path: BASE }, to: { path: [APP, SURFACES, SHARED] } },
    { name: "shared-below-surfaces", severity: "error", from: { path: SHARED }, to: { path: [APP, SURFACES] } },
    // Within the shared layer, the catalogue (content as records, plans and edits) sits over search and HTTP
    // helpers, and webhooks read the catalogue's change feed: the reverse edges would make the folders a cycle.
    { name: "search-and-http-below-catalogue", severity: "error", from: { path: "^src/(search|http)/" }, to: { path: "^src/catalogue/" } },
    { name: "catalogue-below-webhooks", severity: "error", from: { path: "^src/catalogue/" }, to: { path: "^src/webhooks/" } },
    { name: "surfaces-below-app", severity: "error", from: { path: SURFACES }, to: { path: APP } },
    // Surfaces are independent, except: the MCP server verifies the realm's and the connector flow's tokens,
    // the connector flow shares the realm's scope and client rules, the operator API administers the others, and
    // the console shows which connector clients its organization's users allowed (the provider's grants).
    {
      name: "independent-surfaces",
      severity: "error",
      from: { path: "^src/(content|identity|health)/" },
      to: { path: SURFACES, pathNot: "^src/$1/" },
    },
    {
      name: "console-edges",
      severity: "error",
      from: { path: "^src/console/" },
      to: { path: SURFACES, pathNot: ["^src/console/", "^src/oauth/grants\\.ts$"] },
    },
    { name: "mcp-edges", severity: "error", from: { path: "^src/mcp/" }, to: { path: "^src/(content|admin|health)/" } },
    { name: "oauth-edges", severity: "error", from: { path: "^src/oauth/" }, to: { path: "^src/(content|mcp|admin|health)/" } },
    { name: "admin-edges", severity: "error", from: { path: "^src/admin/" }, to: { path: "^src/(mcp|health)/" } },
    {
      name: "no-orphans",
      severity: "error",
      comment: "A module nothing imports is dead code.",
      from: { orphan: true, pathNot: ["^src/index\\.ts$", "\\.d\\.ts$"] },
      to: {},
    },
    { name: "not-to-unresolvable", severity: "error", from: {}, to: { couldNotResolve: true, pathNot: "^cloudflare:" } },
    {
      name: "not-to-dev-dep",
      severity: "error",
      comment: "The Worker bundles only dependencies.",
      from: { path: "^src/" },
      to: { dependencyTypes: ["npm-dev"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "workerd", "worker", "default"] },
    exclude: { path: "^(node_modules|test|bench|scripts)/" },
  },
};
