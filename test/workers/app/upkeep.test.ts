import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { indexed } from "../../../src/catalogue/apply";
import { REINDEX_STEP_FAQS, reindexStale, reindexStaleStep } from "../../../src/catalogue/reindex";
import worker from "../../../src/index";
import { ANALYZER_VERSION } from "../../../src/search/analyze";
import { dayOf, UNANSWERED_RETENTION_DAYS } from "../../../src/search/unanswered";
import { staleFaqs, updateFaqTerms } from "../../../src/storage/faqs";
import { DAILY_UPKEEP_CRON, INDEX_UPKEEP_CRON } from "../../../src/upkeep";
import { counting } from "../support/app";
import { get } from "../support/content";
import { UNCOUNTED } from "../support/partner-sync";

/** Runs the Worker's scheduled handler for `cron` at `now`, and waits for what it left to waitUntil. */
async function scheduled(cron: string, now = new Date()): Promise<void> {
  const ctx = createExecutionContext();
  void worker.scheduled(createScheduledController({ scheduledTime: now.getTime(), cron }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const staleCount = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM faqs WHERE analyzer < ?").bind(ANALYZER_VERSION).first<{ n: number }>())!.n;

describe("the daily upkeep (wrangler.toml crons)", () => {
  it(`deletes counts of unanswered questions older than ${UNANSWERED_RETENTION_DAYS} days, and keeps the rest`, async () => {
    const now = new Date("2026-11-23T03:17:00Z");
    const day = (daysAgo: number) => dayOf(new Date(now.getTime() - daysAgo * 86_400_000));
    for (const daysAgo of [0, UNANSWERED_RETENTION_DAYS - 1, UNANSWERED_RETENTION_DAYS, 90]) {
      await env.DB.prepare(
        "INSERT INTO unanswered_questions (organization_id, day, question, tool, count, last_seen_at) VALUES ('org-aurora', ?, ?, 'service_query', 1, ?)",
      )
        .bind(day(daysAgo), `upkeep ${daysAgo}`, now.toISOString())
        .run();
    }
    await scheduled(DAILY_UPKEEP_CRON, now);
    const { results } = await env.DB.prepare(
      "SELECT question FROM unanswered_questions WHERE question LIKE 'upkeep %' ORDER BY question",
    ).all<{ question: string }>();
    expect(results.map((r) => r.question)).toEqual(["upkeep 0", `upkeep ${UNANSWERED_RETENTION_DAYS - 1}`]);
  });
});

describe("the search index keeps up with the analysis by itself (wrangler.toml crons)", () => {
  it(`analyses again, at the next run of ${INDEX_UPKEEP_CRON}, every FAQ an older analysis wrote, changing no text, no ETag, no change feed`, async () => {
    const rows = () =>
      env.DB.prepare(
        "SELECT id, question, terms_q, terms_a, analyzer FROM faqs WHERE entity_id IN ('HO-AUR-0007', 'HO-AUR-0008') ORDER BY id",
      ).all();
    const before = (await rows()).results;
    const feed = await get("/api/v3/content/HO-AUR-0007/faq.json", UNCOUNTED);
    const changes = await env.DB.prepare("SELECT count(*) AS n FROM content_changes").first<{ n: number }>();
    // Whatever ANALYZER_VERSION is, a row of any older version is analysed again.
    await env.DB.prepare("UPDATE faqs SET terms_q = ' stale ', terms_a = '', analyzer = ? WHERE entity_id = 'HO-AUR-0007'")
      .bind(ANALYZER_VERSION - 1)
      .run();
    await env.DB.prepare("UPDATE faqs SET terms_q = ' ' || lower(question) || ' ', analyzer = 0 WHERE entity_id = 'HO-AUR-0008'").run();
    expect(await staleCount()).toBeGreaterThan(0);

    await scheduled(INDEX_UPKEEP_CRON);
    expect(await staleCount()).toBe(0);
    expect((await rows()).results).toEqual(before);
    const after = await get("/api/v3/content/HO-AUR-0007/faq.json", UNCOUNTED);
    expect(after.headers.get("ETag")).toBe(feed.headers.get("ETag"));
    expect(await env.DB.prepare("SELECT count(*) AS n FROM content_changes").first<{ n: number }>()).toEqual(changes);
  });

  it(`reads and writes at most ${REINDEX_STEP_FAQS} FAQs a step, in one read and one batch, and stops when its time is up`, async () => {
    await env.DB.prepare("UPDATE faqs SET analyzer = 0 WHERE entity_id BETWEEN 'HO-BOR-0001' AND 'HO-BOR-0150'").run();
    const stale = await staleCount();
    expect(stale).toBeGreaterThan(REINDEX_STEP_FAQS);

    const db = counting(env.DB, ["batch"]);
    expect(await reindexStaleStep(db.binding)).toBe(REINDEX_STEP_FAQS);
    expect(db.statements.filter((sql) => sql.trimStart().startsWith("SELECT"))).toHaveLength(1);
    expect(db.calls()).toBe(1);
    expect(await staleCount()).toBe(stale - REINDEX_STEP_FAQS);

    expect(await reindexStale(env.DB, Date.now())).toEqual({ faqs: 0, done: false });
    expect(await staleCount()).toBe(stale - REINDEX_STEP_FAQS);
    expect(await reindexStale(env.DB, Date.now() + 60_000)).toEqual({ faqs: stale - REINDEX_STEP_FAQS, done: true });
    expect(await staleCount()).toBe(0);
  });

  it("never writes terms over an FAQ whose text changed since it was read (an import meanwhile)", async () => {
    await env.DB.prepare("UPDATE faqs SET analyzer = 0 WHERE entity_id = 'HO-AUR-0009'").run();
    const [read] = await staleFaqs(env.DB, ANALYZER_VERSION, 1);
    await env.DB.prepare("UPDATE faqs SET question = 'Changed meanwhile?', terms_q = ' chang meanwhil ', analyzer = ? WHERE id = ?")
      .bind(ANALYZER_VERSION, read!.id)
      .run();
    await env.DB.batch(updateFaqTerms(env.DB, [indexed(read!)]));
    expect(await env.DB.prepare("SELECT question, terms_q FROM faqs WHERE id = ?").bind(read!.id).first()).toEqual({
      question: "Changed meanwhile?",
      terms_q: " chang meanwhil ",
    });
    await reindexStale(env.DB, Date.now() + 60_000);
  });
});
