import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index";
import { dayOf, UNANSWERED_RETENTION_DAYS } from "../../../src/search/unanswered";

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
    const ctx = createExecutionContext();
    // The handler hands its work to waitUntil, which the execution context then waits on.
    void worker.scheduled(createScheduledController({ scheduledTime: now.getTime(), cron: "17 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const { results } = await env.DB.prepare(
      "SELECT question FROM unanswered_questions WHERE question LIKE 'upkeep %' ORDER BY question",
    ).all<{ question: string }>();
    expect(results.map((r) => r.question)).toEqual(["upkeep 0", `upkeep ${UNANSWERED_RETENTION_DAYS - 1}`]);
  });
});
