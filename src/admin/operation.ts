import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { jsonContent, operationIdOf } from "../http/openapi";
import type { AdminEnv } from "./auth";
import { adminError, ERRORS, notFound } from "./openapi";

/**
 * The one way an operator route is declared: method, path, summary, inputs and the success body, each a
 * zod schema that validates the request, types the handler and describes the route in the OpenAPI
 * document; every route answers the same error responses (ERRORS) in the envelope.
 */

type AdminContext = Context<AdminEnv>;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface OperationSpec<T, P, Q, B, H = undefined> {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Path parameters in braces, declared by `params`. */
  path: string;
  summary: string;
  /** What the success response holds. */
  description: string;
  /** The success body; without one the route answers 204 and no body. */
  schema?: T;
  /** The success body's media type when it is not JSON (`text/csv`): the handler answers the body as text. */
  produces?: string;
  /** 201 for a route that creates; 200 otherwise. */
  status?: 200 | 201;
  /** Other success statuses with the same body, and when (a handler answers them with `c.json`). */
  alsoAnswers?: Partial<Record<200 | 201, string>>;
  /** Refusals only this route answers (a failed precondition), each with its body's schema. */
  refusals?: Partial<Record<412 | 428, { description: string; schema: z.ZodType }>>;
  params?: P;
  query?: Q;
  /** Request headers the route reads (`If-Match`), by lower-case name. */
  headers?: H;
  body?: B;
  /**
   * Media types the route also takes as a file, its bytes as sent (`text/csv`): the handler reads the body itself,
   * and `body`, the JSON form, is then not required.
   */
  files?: string[];
}

export interface OperationInput<P, Q, B, H = undefined> {
  params: Output<P>;
  query: Output<Q>;
  body: Output<B>;
  headers: Output<H>;
}

/**
 * What a handler answers: the success body (typed by the schema), nothing for a 204, or a refusal made
 * with adminError / notFound.
 */
export type Answer<T> = (T extends z.ZodType ? z.input<T> : void) | Response;

export type Handler<T, P, Q, B, H = undefined> = (c: AdminContext, input: OperationInput<P, Q, B, H>) => Answer<T> | Promise<Answer<T>>;

/** Whether the request's body is one of the route's file media types rather than its JSON. */
const isFile = (c: AdminContext, files: string[] = []) =>
  files.includes((c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase());

/** The operations of one tag of the operator API (`API keys`, `Users`...), registered on `app`. */
export function operations(app: OpenAPIHono<AdminEnv>, tag: string) {
  return function operation<
    T extends z.ZodType | undefined = undefined,
    P extends z.ZodObject | undefined = undefined,
    Q extends z.ZodObject | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
    H extends z.ZodObject | undefined = undefined,
  >(spec: OperationSpec<T, P, Q, B, H>, handle: Handler<T, P, Q, B, H>): void {
    const status = spec.schema ? (spec.status ?? 200) : 204;
    const route = createRoute({
      method: spec.method,
      path: spec.path,
      operationId: operationIdOf(spec.method, spec.path),
      tags: [tag],
      summary: spec.summary,
      request: {
        ...(spec.params ? { params: spec.params } : {}),
        ...(spec.query ? { query: spec.query } : {}),
        ...(spec.headers ? { headers: spec.headers } : {}),
        ...(spec.body
          ? {
              body: {
                content: {
                  ...jsonContent(spec.body),
                  ...Object.fromEntries((spec.files ?? []).map((type) => [type, { schema: z.string().openapi({ format: "binary" }) }])),
                },
                required: !spec.files,
              },
            }
          : {}),
      },
      responses: {
        [status]: spec.schema
          ? {
              description: spec.description,
              content: spec.produces ? { [spec.produces]: { schema: spec.schema } } : jsonContent(spec.schema),
            }
          : { description: spec.description },
        ...Object.fromEntries(
          Object.entries(spec.alsoAnswers ?? {}).map(([code, description]) => [code, { description, content: jsonContent(spec.schema!) }]),
        ),
        ...ERRORS,
        ...Object.fromEntries(
          Object.entries(spec.refusals ?? {}).map(([code, { description, schema }]) => [
            code,
            { description, content: jsonContent(schema) },
          ]),
        ),
      },
    });
    // The route is built from the spec at run time, so hono cannot type its inputs and responses; the
    // spec's generics do instead: inputs are the schemas' outputs, and a success body must fit `schema`.
    const valid = (c: AdminContext, target: "param" | "query" | "header" | "json") =>
      (c.req as unknown as { valid(t: string): unknown }).valid(target);
    app.openapi(route, (async (c: AdminContext) => {
      const input = {
        params: spec.params ? valid(c, "param") : undefined,
        query: spec.query ? valid(c, "query") : undefined,
        body: spec.body && !isFile(c, spec.files) ? valid(c, "json") : undefined,
        headers: spec.headers ? valid(c, "header") : undefined,
      } as OperationInput<P, Q, B, H>;
      const answer = await handle(c, input);
      if (answer instanceof Response) return answer;
      if (status === 204) return c.body(null, 204);
      if (spec.produces) return c.body(answer as string, status, { "Content-Type": `${spec.produces}; charset=utf-8` });
      return c.json(answer as object, status);
    }) as never);
  };
}

/**
 * Handlers on one stored item of a resource: `load` finds it from the route's path parameters (and query),
 * and when there is none the answer is 404 `No such <noun>.`; otherwise the handler answers with the item.
 * `request` names the schemas the item's routes declare, for their types.
 */
export function itemsOf<P extends z.ZodObject, Row, Q extends z.ZodObject | undefined = undefined>(
  noun: string,
  _request: { params: P; query?: Q },
  load: (c: AdminContext, input: { params: z.output<P>; query: Output<Q> }) => Promise<Row | null | undefined>,
) {
  return <T, B = undefined>(
      handle: (c: AdminContext, row: Row, input: OperationInput<P, Q, B>) => Answer<T> | Promise<Answer<T>>,
    ): Handler<T, P, Q, B> =>
    async (c, input) => {
      const row = await load(c, input as { params: z.output<P>; query: Output<Q> });
      return row ? handle(c, row, input) : notFound(c, `such ${noun}`);
    };
}

export interface ResourceSpec<P extends z.ZodObject, Q extends z.ZodObject | undefined, Row, T extends z.ZodType> {
  tag: string;
  /** The collection; one item is at `path/{param}` for each parameter of `params`. */
  path: string;
  /** What an item is called when there is none: "No such <noun>." */
  noun: string;
  params: P;
  /** A query every route on an item takes (an identity client's issuer). */
  itemQuery?: Q;
  /** What a route on an item answers, unless it says otherwise. */
  item: T;
  load: (c: AdminContext, input: { params: z.output<P>; query: Output<Q> }) => Promise<Row | null | undefined>;
  view: (row: Row) => z.input<T>;
}

/** What the OpenAPI document says of a route: its summary, and what its success response holds. */
type Described = { summary: string; description: string };

/**
 * The routes of one operator resource, declared one way: the collection's list and create, and the
 * routes on one item (get, actions, delete), which answer 404 for an item that does not exist before
 * their handler runs. `operation` declares a route that fits none of these.
 */
export function resource<P extends z.ZodObject, Row, T extends z.ZodType, Q extends z.ZodObject | undefined = undefined>(
  app: OpenAPIHono<AdminEnv>,
  spec: ResourceSpec<P, Q, Row, T>,
) {
  const operation = operations(app, spec.tag);
  const stored = itemsOf(spec.noun, { params: spec.params, query: spec.itemQuery }, spec.load);
  const itemPath = `${spec.path}/${Object.keys(spec.params.shape)
    .map((name) => `{${name}}`)
    .join("/")}`;
  /**
   * A route on one item: at the item's path, or below it (`path`, with more parameters in `params`, which
   * extend the resource's); it answers `schema`, the item unless it says otherwise (undefined: 204).
   */
  const on = <B extends z.ZodType | undefined = undefined, S extends z.ZodType | undefined = T, PP extends P = P>(
    route: Described & { method: OperationSpec<S, P, Q, B>["method"]; path?: string; params?: PP; body?: B; files?: string[]; schema?: S },
    handle: (c: AdminContext, row: Row, input: OperationInput<PP, Q, B>) => Answer<S> | Promise<Answer<S>>,
  ) =>
    operation<S, PP, Q, B>(
      {
        ...route,
        path: `${itemPath}${route.path ?? ""}`,
        params: route.params ?? (spec.params as PP),
        query: spec.itemQuery,
        schema: "schema" in route ? route.schema : (spec.item as unknown as S),
      },
      // The item is found by the resource's own parameters, which every route below it carries too.
      stored<S, B>(handle as (c: AdminContext, row: Row, input: OperationInput<P, Q, B>) => Answer<S> | Promise<Answer<S>>) as Handler<
        S,
        PP,
        Q,
        B
      >,
    );
  return {
    spec,
    operation,
    /** GET the collection: `{ [key]: items }`, the rows `rows` reads, each as `view` shows it. */
    list: <L extends z.ZodObject | undefined = undefined>(
      key: string,
      route: Described & { query?: L },
      rows: (c: AdminContext, query: Output<L>) => Promise<Row[]>,
    ) =>
      operation({ ...route, method: "get", path: spec.path, schema: z.object({ [key]: z.array(spec.item) }) }, async (c, { query }) => ({
        [key]: (await rows(c, query)).map(spec.view),
      })),
    /** POST to the collection: 201 with `schema`. */
    create: <S extends z.ZodType, B extends z.ZodType | undefined = undefined>(
      route: Described & { body?: B; schema: S },
      handle: (c: AdminContext, body: Output<B>) => Answer<S> | Promise<Answer<S>>,
    ) =>
      operation<S, undefined, undefined, B>({ ...route, method: "post", path: spec.path, status: 201 }, (c, { body }) => handle(c, body)),
    /** GET one item, as `view` shows it. */
    get: (summary: string, description: string) =>
      on({ summary, description, method: "get", schema: spec.item }, (_, row) => spec.view(row) as Answer<T>),
    on,
    remove: (route: Described, handle: (c: AdminContext, row: Row) => Promise<Response | void>) =>
      on<undefined, undefined>({ ...route, method: "delete", schema: undefined }, handle),
  };
}

/**
 * The answer to a request no route of `app` (mounted at `basePath`) takes: 405 with `Allow` naming the methods its
 * path is served with (RFC 9110 §15.5.6), as declared here; 404 for a path nothing is served at.
 */
export function unservedRequest(app: OpenAPIHono<AdminEnv>, basePath: string, alsoServed: { method: string; path: string }[]) {
  let served: { method: string; pattern: RegExp }[] | undefined;
  const methodsAt = (path: string) => {
    served ??= [...app.openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? [d.route] : [])), ...alsoServed].map((route) => ({
      method: route.method.toUpperCase(),
      // The path's own characters match only themselves ("template.csv" is not "templateXcsv"); a {parameter} one segment.
      pattern: new RegExp(
        `^${`${basePath}${route.path}`
          .split(/\{[^}]+\}/)
          .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join("[^/]+")}$`,
      ),
    }));
    const methods = served.filter((route) => route.pattern.test(path)).map((route) => route.method);
    // A GET route answers HEAD too.
    return [...new Set(methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method])))];
  };
  return (c: AdminContext): Response => {
    const methods = methodsAt(c.req.path);
    if (methods.length === 0) return adminError(c, 404, `No route for ${c.req.method} ${c.req.path}.`);
    const refusal = adminError(c, 405, `${c.req.method} is not served at ${c.req.path}; use ${methods.join(", ")}.`);
    refusal.headers.set("Allow", methods.join(", "));
    return refusal;
  };
}
