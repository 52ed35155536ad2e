import { REMOVALS_KEPT_DAYS } from "./catalogue/changes";
import { VERSIONS_KEPT_DAYS } from "./catalogue/faq-versions";
import { reindexStale } from "./catalogue/reindex";
import { SESSION_IDLE_MS, SESSION_MAX_MS } from "./console/session";
import type { Env } from "./env";
import { oldestKeptDay } from "./search/unanswered";
import { deleteEndedSessions } from "./storage/console-sessions";
import { deleteVersionsBefore } from "./storage/faq-versions";
import { pruneRemovalsBefore } from "./storage/content-changes";
import { deleteOrphanOutcomes, deleteUnansweredBefore } from "./storage/unanswered-questions";
import { deleteFinishedDeliveriesBefore } from "./storage/webhook-deliveries";
import { DELIVERIES_KEPT_DAYS } from "./webhooks/delivery";
import { requestDispatch } from "./storage/webhook-queue";

/** The schedules of wrangler.toml `crons`: the daily upkeep, and the search index's, every ten minutes. */
export const DAILY_UPKEEP_CRON = "17 3 * * *";
export const INDEX_UPKEEP_CRON = "*/10 * * * *";
/**
 * How long one scheduled run analyses FAQs again: a Cron Trigger that runs more often than hourly has 30 s, and a
 * run that stops early is taken up by the next.
 */
export const INDEX_UPKEEP_BUDGET_MS = 20_000;

const daysBefore = (now: Date, days: number): string => new Date(now.getTime() - days * 86_400_000).toISOString();

/**
 * The daily upkeep: what is kept only for a while is deleted once its time is over, and webhook events are
 * dispatched once more, in case the request after a change was lost.
 */
export async function dailyUpkeep(env: Pick<Env, "DB" | "WEBHOOK_QUEUE">, now: Date): Promise<void> {
  await env.DB.batch([
    deleteUnansweredBefore(env.DB, oldestKeptDay(now)),
    deleteOrphanOutcomes(env.DB),
    ...pruneRemovalsBefore(env.DB, daysBefore(now, REMOVALS_KEPT_DAYS)),
    deleteFinishedDeliveriesBefore(env.DB, daysBefore(now, DELIVERIES_KEPT_DAYS)),
    deleteVersionsBefore(env.DB, daysBefore(now, VERSIONS_KEPT_DAYS)),
    deleteEndedSessions(
      env.DB,
      new Date(now.getTime() - SESSION_IDLE_MS).toISOString(),
      new Date(now.getTime() - SESSION_MAX_MS).toISOString(),
    ),
  ]);
  await requestDispatch(env);
}

/**
 * What a scheduled run does: the daily upkeep once a day, and at every run the FAQs an older analysis wrote are
 * analysed again, so a deployment that changes the analysis brings the index up to date by itself within minutes
 * (one indexed query when there is nothing to do).
 */
export function scheduledUpkeep(controller: ScheduledController, env: Env, waitUntil: (work: Promise<unknown>) => void): void {
  if (controller.cron === DAILY_UPKEEP_CRON) waitUntil(dailyUpkeep(env, new Date(controller.scheduledTime)));
  waitUntil(reindexStale(env.DB, Date.now() + INDEX_UPKEEP_BUDGET_MS));
}
