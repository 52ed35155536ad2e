import type { Env } from "../env";
import { deliverNext } from "./delivery";
import { dispatchEvents } from "./events";
import { WebhookMessage } from "../storage/webhook-queue";

// After an unexpected failure (D1 unavailable, say), the message comes back after this long.
const FAILURE_RETRY_SECONDS = 30;

/**
 * The consumer of WEBHOOK_QUEUE (wrangler.toml `[[queues.consumers]]`): one dispatch for all the dispatch
 * requests of a batch, then each delivery's next attempt, brought back by the queue after its retry delay.
 */
export async function handleWebhookBatch(batch: MessageBatch, env: Env): Promise<void> {
  const messages = batch.messages.map((message) => ({ message, parsed: WebhookMessage.safeParse(message.body) }));
  const dispatches = messages.filter(({ parsed }) => parsed.data?.type === "dispatch");
  if (dispatches.length > 0) {
    try {
      await dispatchEvents(env);
      for (const { message } of dispatches) message.ack();
    } catch (error) {
      console.error(JSON.stringify({ event: "webhook_dispatch_failed", message: String(error) }));
      for (const { message } of dispatches) message.retry({ delaySeconds: FAILURE_RETRY_SECONDS });
    }
  }
  // Attempts to different endpoints go out together, so one slow receiver does not hold up the others.
  await Promise.all(
    messages.map(async ({ message, parsed }) => {
      if (!parsed.success) {
        console.error(JSON.stringify({ event: "webhook_message_unreadable", id: message.id }));
        return message.ack();
      }
      if (parsed.data.type !== "deliver") return;
      try {
        const delaySeconds = await deliverNext(env, parsed.data.deliveryId);
        if (delaySeconds === null) message.ack();
        else message.retry({ delaySeconds });
      } catch (error) {
        console.error(JSON.stringify({ event: "webhook_delivery_failed", deliveryId: parsed.data.deliveryId, message: String(error) }));
        message.retry({ delaySeconds: FAILURE_RETRY_SECONDS });
      }
    }),
  );
}
