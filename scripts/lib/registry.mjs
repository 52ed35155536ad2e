// The MCP Registry's server.json of a deployment, made from its server card (src/mcp/server-card.ts), and the checks
// of both documents against their published schemas, kept in scripts/schemas/ (README.md there says where from).
import { Validator } from "@cfworker/json-schema";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./servers.mjs";

const schema = (file) => JSON.parse(readFileSync(join(ROOT, "scripts", "schemas", file), "utf8"));
export const SERVER_JSON_SCHEMA = schema("server.schema.json");
const CARD_SCHEMAS = schema("server-card.schema.json");

/** A server.json's problems against the registry's schema (draft-07): none when it is valid. */
export function serverJsonProblems(document) {
  return new Validator(SERVER_JSON_SCHEMA, "7", false).validate(document).errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** A server card's problems against the Server Cards schema (2020-12, `ServerCard`): none when it is valid. */
export function serverCardProblems(card) {
  const root = { ...CARD_SCHEMAS, $ref: "#/$defs/ServerCard" };
  return new Validator(root, "2020-12", false).validate(card).errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/**
 * The registry entry of the deployment whose card is `card`: its name, title, description and version, and the
 * remotes of SPEC's MCP URL in both transports (ChatGPT's URL serves ChatGPT's own tools, and is left to its directory).
 * Authorization is not declared: clients discover it from the URL's 401 and its protected-resource metadata.
 */
export function registryServerJson(card) {
  const spec = card.remotes.filter((remote) => new URL(remote.url).pathname === "/v1/sse");
  return {
    $schema: SERVER_JSON_SCHEMA.$id,
    name: card.name,
    title: card.title,
    description: card.description,
    version: card.version,
    remotes: spec.map(({ type, url }) => ({ type, url })),
  };
}
