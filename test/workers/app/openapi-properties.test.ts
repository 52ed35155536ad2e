import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, ADMIN_AUTH } from "../support/admin";
import { API } from "../support/content";
import {
  answerOf,
  conforms,
  generateRequest,
  inputSchema,
  nonconformance,
  operationsOf,
  propertyHolds,
  unsupportedMethodProblems,
  type Answer,
  type KnownValues,
  type OpenApiDocument,
} from "../support/openapi-properties";

/**
 * Both OpenAPI documents against the server, as Schemathesis tests them (docs/development.md says how to run
 * Schemathesis itself): for each operation, requests generated from the document from a fixed seed, every answer
 * checked against it; then every method a path is not documented with.
 */

const SEED = 0x0a91_2027;

/** The message of an answer in either surface's error shape (ErrorResponse's `message`, the envelope's `error.message`). */
function messageOf({ text }: Answer): string {
  try {
    const body = JSON.parse(text) as { message?: string; error?: { message?: string } };
    return body.message ?? body.error?.message ?? "";
  } catch {
    return "";
  }
}

/**
 * positive_data_acceptance: a request the document allows is never refused by the server's own validation of its
 * shape (400 "Invalid …"). A refusal for what the data refers to (an organization that does not exist) is no mismatch.
 */
const refusedByValidation = (answer: Answer): string | null =>
  answer.status === 400 && messageOf(answer).startsWith("Invalid ") ? `positive_data_acceptance: ${messageOf(answer)}` : null;

const documentAt = async (url: string, headers: Record<string, string> = {}): Promise<OpenApiDocument> =>
  (await SELF.fetch(url, { headers })).json<OpenApiDocument>();

const pick =
  <T>(values: readonly T[]) =>
  (seed: number): T =>
    values[seed % values.length]!;

interface Surface {
  name: string;
  doc: OpenApiDocument;
  origin: string;
  headers: Record<string, string>;
  /** Requests generated per operation. */
  runs: number;
  known: KnownValues;
}

const surfaces: Surface[] = [
  {
    name: "content API",
    doc: await documentAt(`${API}/api/v3/openapi.json`),
    origin: API,
    headers: { "X-API-Key": "bench-key" },
    runs: 100,
    known: { lang: pick(["en", "pt", "pt-BR", "es", "fr-CA", "de-CH", "ja"]), cursor: () => "" },
  },
  {
    name: "operator API",
    doc: await documentAt(`${ADMIN}/openapi.json`, ADMIN_AUTH),
    origin: new URL(ADMIN).origin,
    headers: ADMIN_AUTH,
    runs: 20,
    known: {
      expiresAt: (seed) => new Date(Date.now() + (1 + (seed % 365)) * 86_400_000).toISOString(),
      language: pick(["en", "pt", "es", "fr", "de", "it"]),
      languages: pick([["en"], ["pt", "es"], []]),
      // Ways guests ask need words (letters or digits), which the document says only in words.
      phrasings: pick([[], ["Can I bring my dog?"], ["posso levar o meu cão?", "Are dogs allowed?"]]),
      add: pick([["Can I bring my dog?"], []]),
      remove: pick([[], ["are dogs allowed"]]),
      questions: pick([["can i bring my dog"], ["posso levar o meu cão", "are dogs allowed"]]),
    },
  },
];

describe.each(surfaces)("the $name's OpenAPI document says what the server does", ({ doc, origin, headers, runs, known }) => {
  it.each(operationsOf(doc).map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    "%s: answers requests generated from the document as it documents them, and takes what it allows",
    async (_, operation) => {
      await propertyHolds(runs, SEED, async (seed) => {
        const { request, described } = generateRequest(doc, operation, seed, origin, headers, known);
        const answer = await answerOf(await SELF.fetch(request));
        const problem = nonconformance(doc, operation, answer) ?? refusedByValidation(answer);
        return problem && `${problem}\n${described}`;
      });
    },
  );
});

describe("methods the operator API's document does not give a path", () => {
  it("are 405 with Allow naming those it does, PUT on a collection included", async () => {
    const { doc, origin, headers } = surfaces[1]!;
    const problems = await unsupportedMethodProblems(doc, origin, headers, ["GET", "POST", "PUT", "PATCH", "DELETE"], (request) =>
      SELF.fetch(request),
    );
    expect(problems).toEqual([]);
  });
});

describe("what the server refuses for its shape, the documents refuse too", () => {
  const [content, operator] = surfaces as [Surface, Surface];
  const operatorUrl = (path: string) => `${new URL(ADMIN).origin}${path}`;

  interface ShapeCase {
    name: string;
    surface: Surface;
    method: string;
    /** The document's path, and the input of it that is refused: a parameter's name, or "body". */
    path: string;
    input: string;
    value: unknown;
    request: Request;
  }
  const contentQuery = (path: string, parameter: string, value: string, url: string): ShapeCase => ({
    name: `${parameter}=${value}`,
    surface: content,
    method: "GET",
    path,
    input: parameter,
    value,
    request: new Request(`${API}${url}?${parameter}=${encodeURIComponent(value)}`, { headers: content.headers }),
  });
  const operatorBody = (name: string, method: string, path: string, url: string, value: object): ShapeCase => ({
    name,
    surface: operator,
    method,
    path,
    input: "body",
    value,
    request: new Request(operatorUrl(url), {
      method,
      headers: { ...ADMIN_AUTH, "Content-Type": "application/json" },
      body: JSON.stringify(value),
    }),
  });
  const callbacks = [
    "http://partner.example/cb",
    "https://partner.example/cb#x",
    "https://user@partner.example/cb",
    "https://partner.example:70000/",
  ];

  it.each<ShapeCase>([
    ...["english", "pt_BR", "en-", `en-${"a1b2c3d4-".repeat(8)}x`].map((lang) =>
      contentQuery("/api/v3/content/{entityId}/faq.json", "lang", lang, "/api/v3/content/HO-AUR-0001/faq.json"),
    ),
    contentQuery("/api/v3/content/changes", "cursor", "not a cursor", "/api/v3/content/changes"),
    operatorBody("a user's e-mail that is none", "POST", "/admin/v1/users", "/admin/v1/users", {
      email: "ana-at-aurora",
      organizationId: "org-aurora",
    }),
    ...["Aurora\u0007Rewards", "{", "  "].map((term) =>
      operatorBody(`lexicon term ${JSON.stringify(term)}`, "POST", "/admin/v1/lexicon/terms", "/admin/v1/lexicon/terms", {
        concept: "loyalty",
        term,
      }),
    ),
    ...callbacks.map((uri) =>
      operatorBody(`redirect URI ${uri}`, "POST", "/admin/v1/connector-clients", "/admin/v1/connector-clients", {
        name: "App",
        redirectUris: [uri],
      }),
    ),
    ...callbacks.map((url) =>
      operatorBody(`webhook URL ${url}`, "POST", "/admin/v1/webhooks", "/admin/v1/webhooks", { url, brands: ["HO-AUR"] }),
    ),
    operatorBody("an import row without its record", "POST", "/admin/v1/imports/{id}/rows", "/admin/v1/imports/any-import/rows", {
      rows: [{ line: 1 }],
    }),
    operatorBody("a realm client ID with a space", "POST", "/admin/v1/identity-clients", "/admin/v1/identity-clients", {
      clientId: "my bot",
      organizationId: null,
    }),
    operatorBody("an external client without its ID", "POST", "/admin/v1/identity-clients", "/admin/v1/identity-clients", {
      issuer: "https://issuer.example",
      organizationId: null,
    }),
    operatorBody("an API key change of nothing", "PATCH", "/admin/v1/api-keys/{id}", "/admin/v1/api-keys/any-key", {}),
  ])("$name", async ({ surface, method, path, input, value, request }) => {
    expect(conforms(surface.doc, inputSchema(surface.doc, method, path, input), value), "the document allows it").toBe(false);
    const res = await SELF.fetch(request);
    expect([400, 404], await res.clone().text()).toContain(res.status);
  });

  it("takes an empty cursor as no cursor, as the document says: the feed from its start", async () => {
    expect(conforms(content.doc, inputSchema(content.doc, "GET", "/api/v3/content/changes", "cursor"), "")).toBe(true);
    const empty = await SELF.fetch(new Request(`${API}/api/v3/content/changes?cursor=&limit=5`, { headers: content.headers }));
    const none = await SELF.fetch(new Request(`${API}/api/v3/content/changes?limit=5`, { headers: content.headers }));
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe(await none.text());
  });

  it("says in words what JSON Schema cannot: an API key's expiry is in the future, the language one CLDR knows", () => {
    for (const method of ["POST", "PATCH"]) {
      const body = inputSchema(operator.doc, method, method === "POST" ? "/admin/v1/api-keys" : "/admin/v1/api-keys/{id}", "body");
      expect(JSON.stringify(body)).toMatch(/"expiresAt":\{[^}]*"description":"[^"]*in the future/);
    }
    expect(JSON.stringify(inputSchema(content.doc, "GET", "/api/v3/content/{entityId}/faq.json", "lang"))).toMatch(/CLDR knows/);
  });
});
