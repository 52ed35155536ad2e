import { REMOVALS_KEPT_DAYS } from "./catalogue/changes";
import type { Env } from "./env";
import { oldestKeptDay } from "./search/unanswered";
import { pruneRemovalsBefore } from "./storage/content-changes";
import { deleteUnansweredBefore } from "./storage/unanswered-questions";
import { deleteFinishedDeliveriesBefore } from "./storage/webhook-deliveries";
import { DELIVERIES_KEPT_DAYS } from "./webhooks/delivery";
import { requestDispatch } from "./webhooks/messages";

const daysBefore = (now: Date, days: number): string => new Date(now.getTime() - days * 86_400_000).toISOString();

/**
 * The daily upkeep (wrangler.toml `crons`): what is kept only for a while is deleted once its time is over,
 * and webhook events are dispatched once more, in case the request after a change was lost.
 */
export async function dailyUpkeep(env: Pick<Env, "DB" | "WEBHOOK_QUEUE">, now: Date): Promise<void> {
  await env.DB.batch([
    deleteUnansweredBefore(env.DB, oldestKeptDay(now)),
    ...pruneRemovalsBefore(env.DB, daysBefore(now, REMOVALS_KEPT_DAYS)),
    deleteFinishedDeliveriesBefore(env.DB, daysBefore(now, DELIVERIES_KEPT_DAYS)),
  ]);
  await requestDispatch(env);
}
