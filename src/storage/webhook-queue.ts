import { z } from "zod";
import type { Env } from "../env";

/** What goes through WEBHOOK_QUEUE: a request to make events from the change feed, or the next attempt of one delivery. */
export const WebhookMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("dispatch") }),
  z.object({ type: z.literal("deliver"), deliveryId: z.string().min(1).max(64) }),
]);
export type WebhookMessage = z.infer<typeof WebhookMessage>;

export const deliverMessage = (deliveryId: string): { body: WebhookMessage } => ({ body: { type: "deliver", deliveryId } });

/**
 * Asks the queue's consumer to make the events of the content changes committed so far. It never fails the
 * change that asks: a message lost here is made up by the next change or the daily upkeep.
 */
export async function requestDispatch(env: Pick<Env, "WEBHOOK_QUEUE">): Promise<void> {
  try {
    await env.WEBHOOK_QUEUE.send({ type: "dispatch" } satisfies WebhookMessage);
  } catch (error) {
    console.error(JSON.stringify({ event: "webhook_dispatch_not_queued", message: String(error) }));
  }
}
