import { Validator, type Schema } from "@cfworker/json-schema";
import fc from "fast-check";
import { generateSync, type JsonSchema } from "json-schema-faker";

/**
 * Property tests of an OpenAPI 3.1 document against the server it describes, in the manner of Schemathesis: requests
 * are generated from the document alone (fast-check runs them from a fixed seed and reports what failed, json-schema-faker
 * makes each value from its schema), and every answer must be one the document describes. The checks, by
 * Schemathesis's names: not_a_server_error, status_code_conformance, content_type_conformance,
 * response_schema_conformance, positive_data_acceptance (what the document allows, the server's validation takes),
 * unsupported_method (a method the document does not give a path is 405 with Allow).
 */

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown> };
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: JsonSchema;
}

interface OperationObject {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface Operation extends OperationObject {
  method: string;
  path: string;
}

const HTTP_METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation of the document, by method and path. */
export const operationsOf = (doc: OpenApiDocument): Operation[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
  );

/** A schema of the document made whole: its `#/components/...` references resolve within it. */
const standalone = (doc: OpenApiDocument, schema: JsonSchema): JsonSchema =>
  typeof schema === "object" && schema !== null ? { ...schema, components: doc.components } : schema;

const validators = new WeakMap<object, Validator>();

/** Whether `value` is an instance of `schema` (a schema of `doc`), as a JSON Schema 2020-12 validator reads it. */
export function conforms(doc: OpenApiDocument, schema: JsonSchema, value: unknown): boolean {
  if (typeof schema !== "object") return schema;
  let validator = validators.get(schema);
  if (!validator) validators.set(schema, (validator = new Validator(standalone(doc, schema) as Schema, "2020-12", false)));
  return validator.validate(value).valid;
}

/** The schema the document gives the JSON body of `method path` (`"body"`), or one of its parameters by name. */
export function inputSchema(doc: OpenApiDocument, method: string, path: string, input: string): JsonSchema {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  const schema =
    input === "body"
      ? operation?.requestBody?.content["application/json"]?.schema
      : operation?.parameters?.find((p) => p.name === input)?.schema;
  if (schema === undefined) throw new Error(`${method} ${path} has no ${input}`);
  return schema;
}

/** A request as generated: what is sent, and how it was made, for the report of a failure. */
export interface GeneratedRequest {
  request: Request;
  described: string;
}

/**
 * Values the document can only describe in words (a time in the future, a language CLDR knows, a cursor the feed
 * issued), by the name of the parameter or body property they are for: as Schemathesis is given known test data.
 */
export type KnownValues = Record<string, (seed: number) => unknown>;

/**
 * A request to `operation` made from the document with `seed`: every path parameter, the required query parameters
 * and headers and about half the optional ones, and the JSON body, each generated from its schema, except what
 * `known` gives. `headers` (the credential) are added.
 */
export function generateRequest(
  doc: OpenApiDocument,
  operation: Operation,
  seed: number,
  origin: string,
  headers: Record<string, string>,
  known: KnownValues = {},
): GeneratedRequest {
  let n = 0;
  const value = (schema: JsonSchema, name?: string): unknown => {
    const at = seed * 31 + n++;
    if (name !== undefined && known[name]) return known[name](at);
    const generated = generateSync(standalone(doc, schema), {
      seed: at,
      outputTransform: (made, _schema, path) => {
        const property = path.split("/").pop() ?? "";
        return known[property] ? known[property](at) : made;
      },
    });
    // The generator reads some patterns loosely (Unicode property escapes): what the document does not allow is not sent.
    fc.pre(conforms(doc, schema, generated));
    return generated;
  };
  const included = (parameter: Parameter) => parameter.required === true || (seed >> n++) % 2 === 0;
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  let path = operation.path;
  const query = new URLSearchParams();
  const sent = new Headers(headers);
  for (const parameter of operation.parameters ?? []) {
    const generated = () => text(value(parameter.schema, parameter.name));
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(generated()));
    else if (!included(parameter)) continue;
    else if (parameter.in === "query") query.set(parameter.name, generated());
    else if (parameter.in === "header") sent.set(parameter.name, generated().replace(/[^\x20-\x7e]/g, ""));
  }
  const bodySchema = operation.requestBody?.content["application/json"]?.schema;
  const body = bodySchema === undefined ? undefined : JSON.stringify(value(bodySchema));
  if (body !== undefined) sent.set("Content-Type", "application/json");
  const url = `${origin}${path}${query.size > 0 ? `?${query.toString()}` : ""}`;
  return {
    request: new Request(url, { method: operation.method, headers: sent, body }),
    described: `${operation.method} ${url}${body === undefined ? "" : `\n${body.slice(0, 2_000)}`}`,
  };
}

/**
 * unsupported_method: every path of the document asked with each method it does not declare there (`methods`), with
 * `headers`; what each answered that is not 405 with `Allow` naming the declared methods (HEAD with GET).
 */
export async function unsupportedMethodProblems(
  doc: OpenApiDocument,
  origin: string,
  headers: Record<string, string>,
  methods: string[],
  send: (request: Request) => Promise<Response>,
): Promise<string[]> {
  const problems: string[] = [];
  const templates = Object.entries(doc.paths).map(([template, item]) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    methods: Object.keys(item)
      .filter((method) => HTTP_METHODS.includes(method))
      .map((method) => method.toUpperCase()),
  }));
  for (const { template } of templates) {
    const path = template.replace(/\{[^}]+\}/g, "any-1");
    // Templates may overlap (`/scope/remove` is also `/scope/{entityId}`): a path is served by every one it fits.
    const declared = templates.filter((t) => t.pattern.test(path)).flatMap((t) => t.methods);
    const allowed = [...new Set(declared.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method])))];
    for (const method of methods.filter((m) => !allowed.includes(m))) {
      const body = method === "GET" ? {} : { headers: { ...headers, "Content-Type": "application/json" }, body: "{}" };
      const response = await send(new Request(`${origin}${path}`, { method, headers, ...body }));
      await response.body?.cancel();
      const allow = response.headers.get("Allow")?.split(/,\s*/).sort();
      if (response.status !== 405 || JSON.stringify(allow) !== JSON.stringify([...allowed].sort())) {
        problems.push(`${method} ${path}: ${response.status}, Allow: ${response.headers.get("Allow")} (declared: ${allowed.join(", ")})`);
      }
    }
  }
  return problems;
}

/** An answer as the checks read it: its status, headers and body text. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export const answerOf = async (response: Response): Promise<Answer> => ({
  status: response.status,
  headers: response.headers,
  text: await response.text(),
});

/** What is wrong with `answer` as an answer to `operation` under the document; null when nothing is. */
export function nonconformance(doc: OpenApiDocument, operation: Operation, { status, headers, text }: Answer): string | null {
  if (status >= 500) return `not_a_server_error: ${status} ${text.slice(0, 300)}`;
  const documented = operation.responses[String(status)] ?? operation.responses.default;
  if (!documented) {
    return `status_code_conformance: ${status} is not documented (${Object.keys(operation.responses).join(", ")}): ${text.slice(0, 300)}`;
  }
  if (!documented.content || text === "") return null;
  const mediaType = headers.get("Content-Type")?.split(";")[0]?.trim() ?? "";
  const declared = documented.content[mediaType];
  if (!declared) return `content_type_conformance: ${mediaType} is not among ${Object.keys(documented.content).join(", ")}`;
  if (mediaType !== "application/json" || declared.schema === undefined) return null;
  const body: unknown = JSON.parse(text);
  if (conforms(doc, declared.schema, body)) return null;
  const result = new Validator(standalone(doc, declared.schema) as Schema, "2020-12", false).validate(body);
  const errors = result.errors.map((e) => `${e.instanceLocation}: ${e.error}`).slice(0, 5);
  return `response_schema_conformance (${status}): ${errors.join("; ")}\n${text.slice(0, 500)}`;
}

/**
 * Runs `check` on `runs` seeds from `seed` with fast-check, and fails with the first problem it names, the request,
 * and the seed and path that replay it (`fc.assert`'s report).
 */
export async function propertyHolds(runs: number, seed: number, check: (requestSeed: number) => Promise<string | null>): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.nat(), async (requestSeed) => {
      const problem = await check(requestSeed);
      if (problem !== null) throw new Error(problem.length > 2_000 ? `${problem.slice(0, 2_000)}…` : problem);
    }),
    { seed, numRuns: runs, endOnFailure: true },
  );
}
