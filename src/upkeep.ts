import type { Env } from "./env";
import { oldestKeptDay } from "./search/unanswered";
import { deleteUnansweredBefore } from "./storage/unanswered-questions";

/** The daily upkeep (wrangler.toml `crons`): what is kept only for a while is deleted once its time is over. */
export async function dailyUpkeep(env: Pick<Env, "DB">, now: Date): Promise<void> {
  await env.DB.batch([deleteUnansweredBefore(env.DB, oldestKeptDay(now))]);
}
