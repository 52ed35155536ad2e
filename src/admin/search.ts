import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { LanguageTag } from "../http/language-tags";
import { reindexPage } from "../catalogue/reindex";
import { ANALYZER_VERSION } from "../search/analyze";
import { currentLexicon, forgetLexicon, storedLexicon } from "../search/current-lexicon";
import { ANALYZED_LANGUAGES, DEFAULT_LANGUAGE, languageOf } from "../search/languages";
import { BUILT_IN_TERMS, CONCEPT_KINDS } from "../search/lexicon";
import { fold } from "../search/normalize";
import { planQuery } from "../search/plan";
import { firstOfLastDays, oldestKeptDay, UNANSWERED_RETENTION_DAYS } from "../search/unanswered";
import { entityCount } from "../storage/entities";
import { staleFaqCount } from "../storage/faqs";
import { deleteLexiconTerm, insertLexiconTerm, listLexiconTerms } from "../storage/lexicon-terms";
import { listUnanswered, UNANSWERED_OUTCOMES, UNANSWERED_STATES } from "../storage/unanswered-questions";
import { dismissQuestions } from "../catalogue/guest-questions";
import { MAX_PHRASINGS, Phrasing } from "../catalogue/records";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, notFound, OrganizationId, SafeId, Timestamp } from "./openapi";
import { operations } from "./operation";

/**
 * The operator's side of search: the deployment's additions to the hospitality lexicon, what a question
 * searches for (to see why an FAQ is or is not found), re-analysing stored FAQs after the analysis
 * changed, and the questions the content did not answer.
 */

const Language = z.enum(ANALYZED_LANGUAGES).openapi({ description: "The language the term is written in." });
const ConceptName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9 -]{0,39}$/, "must be 1-40 lower-case letters, digits, spaces or '-', starting with a letter")
  .openapi({ example: "loyalty" });
const Term = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .refine((t) => !/\p{Cc}/u.test(t), "must not contain control characters")
  .refine((t) => /[\p{L}\p{N}]/u.test(t), "must contain a letter or a digit")
  .openapi({
    description: 'A word or phrase; "=word" matches only as written, "~word" is weak evidence on its own.',
    example: "Aurora Rewards",
    // The two checks above, as one pattern for the document (a regular expression with Unicode property escapes).
    pattern: String.raw`^[^\p{Cc}]*[\p{L}\p{N}][^\p{Cc}]*$`,
  });
const Kind = z.enum(CONCEPT_KINDS).openapi({
  description:
    "topic: what an FAQ can be about; facet: the kind of answer asked for (a price, a time); word: one word and its equivalents (synonyms, spellings, other languages).",
});

const LexiconTerm = z
  .object({
    term: z.string(),
    source: z.enum(["built-in", "operator"]).openapi({ description: "built-in: src/search/lexicon.json; operator: added here." }),
    addedAt: Timestamp.nullable(),
  })
  .openapi("LexiconTerm");
const LexiconConcept = z
  .object({ concept: z.string(), kind: Kind, language: Language, terms: z.array(LexiconTerm) })
  .openapi("LexiconConcept");
const LexiconList = z.object({ concepts: z.array(LexiconConcept) });
const LexiconQuery = z.object({
  concept: z
    .string()
    .max(40)
    .optional()
    .openapi({ param: { name: "concept", in: "query" } }),
  language: Language.optional().openapi({ param: { name: "language", in: "query" } }),
  kind: Kind.optional().openapi({ param: { name: "kind", in: "query" } }),
});
const TermCreate = z.strictObject({
  concept: ConceptName,
  term: Term,
  language: Language.default(DEFAULT_LANGUAGE),
  kind: Kind.optional().openapi({ description: "Only for a new concept (topic when omitted); an existing concept keeps its kind." }),
});
const TermAdded = z
  .object({ concept: z.string(), kind: Kind, language: Language, term: z.string(), addedAt: Timestamp })
  .openapi("LexiconTermAdded");
const TermQuery = z.object({
  concept: ConceptName.openapi({ param: { name: "concept", in: "query" } }),
  term: Term.openapi({ param: { name: "term", in: "query" } }),
  language: Language.default(DEFAULT_LANGUAGE).openapi({ param: { name: "language", in: "query" } }),
  kind: Kind.optional().openapi({
    param: { name: "kind", in: "query" },
    description: "word for a word's term; a topic's or facet's otherwise.",
  }),
});

const PlanRequest = z.strictObject({
  question: z.string().min(1).max(500),
  language: Language.optional().openapi({ description: "The question's language; detected from its words when omitted." }),
});
const Plan = z
  .object({
    language: z.string().openapi({ description: "The language the question's own words were analysed in." }),
    detected: z.boolean().openapi({ description: "Whether that language was given or shown by the question's words." }),
    concepts: z.array(z.object({ concept: z.string(), kind: Kind })),
    groups: z
      .array(
        z.object({
          key: z.string().openapi({ description: "w: and the positions of the question's words, or t: and a topic." }),
          weight: z.number(),
          alternatives: z.array(z.object({ phrase: z.string(), weight: z.number() })),
        }),
      )
      .openapi({ description: "What is searched: each group counts once, by its best alternative." }),
    topics: z.array(z.object({ concept: z.string(), boost: z.number() })),
    kinds: z.array(z.string()).openapi({ description: "The kinds of answer asked for: price, time, distance." }),
  })
  .openapi("SearchPlan");

const ReindexRequest = z.strictObject({
  after: z.string().max(128).default("").openapi({ description: "`next` of the previous page; empty for the first." }),
  limit: z.number().int().min(1).max(500).default(200),
});
const ReindexPage = z
  .object({
    scanned: z.number().int().openapi({ description: "Entities this page read." }),
    entities: z.number().int().openapi({ description: "Entities whose name key was written again." }),
    faqs: z.number().int().openapi({ description: "FAQs analysed again." }),
    next: z.string().optional().openapi({ description: "Where the next page starts; absent after the last." }),
  })
  .openapi("ReindexPage");
const ReindexStatus = z
  .object({
    analyzer: z.number().int().openapi({ description: "The version of the analysis this deployment runs." }),
    staleFaqs: z
      .number()
      .int()
      .openapi({ description: "FAQs an older analysis wrote; the scheduled upkeep analyses them again every ten minutes." }),
    entities: z.number().int().openapi({ description: "Entities stored: what a whole `search reindex` reads." }),
  })
  .openapi("ReindexStatus");

const Since = z
  .string()
  .regex(/^([1-9]\d?d|\d{4}-\d{2}-\d{2})$/, "must be a number of days such as 7d (at least 1d), or a date such as 2026-11-01")
  .default(`${UNANSWERED_RETENTION_DAYS}d`);
const UnansweredQuery = z.object({
  organizationId: OrganizationId.optional().openapi({ param: { name: "organizationId", in: "query" } }),
  entityId: SafeId.optional().openapi({
    param: { name: "entityId", in: "query" },
    description: "Only questions asked of this entity, or of a hotel of this brand.",
  }),
  language: LanguageTag.optional().openapi({
    param: { name: "language", in: "query" },
    description: "Only questions asked in this language or one of its regional forms (`pt` takes `pt-BR`).",
  }),
  since: Since.openapi({
    param: { name: "since", in: "query" },
    description: `Days back (at most ${UNANSWERED_RETENTION_DAYS}d) or a date.`,
  }),
  state: z
    .enum(UNANSWERED_STATES)
    .optional()
    .openapi({
      param: { name: "state", in: "query" },
      description:
        "Only open questions (nothing done about them yet) or only handled ones (attached, answered, dismissed); both when absent.",
    }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .openapi({ param: { name: "limit", in: "query" } }),
});
const Unanswered = z
  .object({
    since: z.string().openapi({ description: "The first day counted." }),
    questions: z.array(
      z.object({
        organizationId: z.string(),
        question: z
          .string()
          .openapi({ description: "As asked, lower-cased, personal data replaced by [email], [link], [token], [phone], [number]." }),
        entityId: z.string().nullable().openapi({ description: "The entity it was asked of; null when the tool searched no one entity." }),
        language: z
          .string()
          .nullable()
          .openapi({ description: "The language named with the question, else the one its words show; null when neither says." }),
        count: z.number().int(),
        tools: z.array(z.string()),
        lastSeenAt: Timestamp,
        handled: z
          .object({
            outcome: z.enum(UNANSWERED_OUTCOMES),
            faqQuestion: z
              .string()
              .nullable()
              .openapi({ description: "The question of the FAQ it was attached to or answered by; null when dismissed." }),
            actor: z.string().openapi({ description: "Who: `person:<email>` from the console, `token:<fingerprint>` from this API." }),
            at: Timestamp,
          })
          .nullable()
          .openapi({ description: "What was done about it; null while it is open." }),
      }),
    ),
  })
  .openapi("UnansweredQuestions");

const Dismissal = z
  .strictObject({
    entityId: SafeId.openapi({ description: "The entity the questions were asked of." }),
    questions: z
      .array(Phrasing)
      .min(1)
      .max(MAX_PHRASINGS)
      .openapi({ description: "The questions as listed (or as asked: they are compared as they are counted)." }),
  })
  .openapi("UnansweredDismissal");

/** The first day `since` asks for, never before the oldest day kept. */
function sinceDay(since: string, now: Date): string {
  const oldest = oldestKeptDay(now);
  const asked = since.endsWith("d") ? firstOfLastDays(now, Number(since.slice(0, -1))) : since;
  return asked > oldest ? asked : oldest;
}

export function searchRoutes(app: OpenAPIHono<AdminEnv>): void {
  const lexicon = operations(app, "Search");

  lexicon(
    {
      method: "get",
      path: "/lexicon",
      query: LexiconQuery,
      summary: "The lexicon: built-in terms and the operator's",
      description: "By concept and language.",
      schema: LexiconList,
    },
    async (c, { query }) => {
      const added = new Map(
        (await listLexiconTerms(c.env.DB)).map((row) => [`${row.concept}\n${row.language}\n${row.term}`, row.created_at]),
      );
      const current = await currentLexicon(c.env.DB, (p) => c.executionCtx.waitUntil(p));
      const concepts = current
        .entries()
        .filter(
          (e) =>
            (query.concept === undefined || e.concept === query.concept) &&
            (query.language === undefined || e.language === query.language) &&
            (query.kind === undefined || e.kind === query.kind),
        )
        .map((e) => ({
          ...e,
          terms: e.terms.map((term) => {
            const addedAt = added.get(`${e.concept}\n${e.language}\n${term}`) ?? null;
            return { term, source: addedAt === null ? ("built-in" as const) : ("operator" as const), addedAt };
          }),
        }));
      return { concepts };
    },
  );

  lexicon(
    {
      method: "post",
      path: "/lexicon/terms",
      body: TermCreate,
      status: 201,
      summary: "Add a term to a concept of the lexicon (a new concept when it has none)",
      description: "Added; questions use it within 10 s everywhere.",
      schema: TermAdded,
    },
    async (c, { body }) => {
      // Read from the database, not this isolate's lexicon: another isolate may have added the concept or term a moment ago.
      const stored = await storedLexicon(c.env.DB);
      // Words are a namespace of their own; a topic and a facet never share a name.
      const kind = body.kind === "word" ? "word" : (stored.kindIn("topic or facet", body.concept) ?? body.kind ?? "topic");
      if (body.kind !== undefined && body.kind !== kind) {
        return adminError(c, 409, `${body.concept} is a ${kind}; a term added to it is one too.`);
      }
      const known = stored.entries().find((e) => e.concept === body.concept && e.kind === kind && e.language === body.language);
      if (known?.terms.some((t) => fold(t) === fold(body.term))) {
        return adminError(c, 409, `"${body.term}" is already a term of ${body.concept} (${body.language}).`);
      }
      const row = { concept: body.concept, kind, language: body.language, term: body.term, created_at: new Date().toISOString() };
      await c.env.DB.batch([
        insertLexiconTerm(c.env.DB, row),
        audit(c, "lexicon.term.add", body.concept, { language: body.language, term: body.term, kind }),
      ]);
      forgetLexicon();
      return { concept: row.concept, kind, language: row.language, term: row.term, addedAt: row.created_at };
    },
  );

  lexicon(
    {
      method: "delete",
      path: "/lexicon/terms",
      query: TermQuery,
      summary: "Remove a term the operator added",
      description: "Removed; questions stop using it within 10 s.",
    },
    async (c, { query }) => {
      const isWord = (kind: string) => (kind === "word") === (query.kind === "word");
      const stored = (await listLexiconTerms(c.env.DB)).find(
        (r) => isWord(r.kind) && r.concept === query.concept && r.language === query.language && fold(r.term) === fold(query.term),
      );
      if (!stored) {
        const builtIn = BUILT_IN_TERMS.some(
          (e) =>
            isWord(e.kind) &&
            e.concept === query.concept &&
            e.language === query.language &&
            e.terms.some((t) => fold(t) === fold(query.term)),
        );
        if (builtIn)
          return adminError(c, 409, `"${query.term}" is a built-in term (src/search/lexicon.json or words.json); change it there.`);
        return notFound(c, `${query.language} term "${query.term}" of ${query.concept} added by the operator`);
      }
      await c.env.DB.batch([
        deleteLexiconTerm(c.env.DB, stored),
        audit(c, "lexicon.term.remove", stored.concept, { language: stored.language, term: stored.term }),
      ]);
      forgetLexicon();
    },
  );

  lexicon(
    {
      method: "post",
      path: "/search/plan",
      body: PlanRequest,
      summary: "What a question searches for: its words, concepts, expansions and topics",
      description: "The plan.",
      schema: Plan,
    },
    async (c, { body }) => {
      const current = await currentLexicon(c.env.DB, (p) => c.executionCtx.waitUntil(p));
      const plan = planQuery(body.question, current, {
        content: languageOf(DEFAULT_LANGUAGE),
        language: body.language && languageOf(body.language),
      });
      const rounded = (n: number) => Math.round(n * 1000) / 1000;
      return {
        language: plan.language.code,
        detected: plan.detected,
        concepts: plan.concepts,
        groups: plan.groups.map(({ key, weight, alternatives }) => ({
          key,
          weight: rounded(weight),
          alternatives: alternatives.map((a) => ({ phrase: a.phrase, weight: rounded(a.weight) })),
        })),
        topics: plan.topics.map(({ concept, boost }) => ({ concept, boost: rounded(boost) })),
        kinds: plan.kinds,
      };
    },
  );

  lexicon(
    {
      method: "get",
      path: "/search/reindex",
      summary: "How far the search index is behind the analysis, and how much a whole reindex reads",
      description: "The index's state.",
      schema: ReindexStatus,
    },
    async (c) => ({
      analyzer: ANALYZER_VERSION,
      staleFaqs: await staleFaqCount(c.env.DB, ANALYZER_VERSION),
      entities: await entityCount(c.env.DB),
    }),
  );

  lexicon(
    {
      method: "post",
      path: "/search/reindex",
      body: ReindexRequest,
      summary: "Analyse stored FAQs and names again (after an upgrade of the analysis), one page of entities at a time",
      description: "One page done.",
      schema: ReindexPage,
    },
    async (c, { body }) => {
      const page = await reindexPage(c.env.DB, body.after, body.limit);
      if (page.entities + page.faqs > 0)
        await audit(c, "search.reindex", body.after || "(start)", { entities: page.entities, faqs: page.faqs }).run();
      return page;
    },
  );

  operations(app, "Insights")(
    {
      method: "get",
      path: "/insights/unanswered",
      query: UnansweredQuery,
      summary: `Questions the content did not answer, or only weakly, most asked first (kept ${UNANSWERED_RETENTION_DAYS} days)`,
      description: "Counted questions.",
      schema: Unanswered,
    },
    async (c, { query }) => {
      const since = sinceDay(query.since, new Date());
      const rows = await listUnanswered(c.env.DB, {
        organizationId: query.organizationId,
        entityId: query.entityId,
        language: query.language,
        sinceDay: since,
        state: query.state,
        limit: query.limit,
      });
      return {
        since,
        questions: rows.map((r) => ({
          organizationId: r.organization_id,
          question: r.question,
          entityId: r.entity_id,
          language: r.language,
          count: r.count,
          tools: r.tools.split(","),
          lastSeenAt: r.last_seen_at,
          handled:
            r.outcome === null ? null : { outcome: r.outcome, faqQuestion: r.faq_question, actor: r.actor ?? "", at: r.handled_at ?? "" },
        })),
      };
    },
  );

  operations(app, "Insights")(
    {
      method: "post",
      path: "/insights/unanswered/dismiss",
      body: Dismissal,
      summary: "Dismiss unanswered questions of an entity: they are listed as handled (dismissed), no longer as open",
      description: "Dismissed.",
      schema: z.object({ entityId: z.string(), dismissed: z.number().int() }).openapi("UnansweredDismissed"),
    },
    async (c, { body }) => {
      const done = await dismissQuestions(c.env.DB, { entityId: body.entityId, questions: body.questions, actor: c.get("operator") });
      return done ? { entityId: body.entityId, dismissed: body.questions.length } : notFound(c, "such entity");
    },
  );
}
