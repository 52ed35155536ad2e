import { z } from "@hono/zod-openapi";
import { ChangeEntry, changeEntry, encodeCursor, MAX_CHANGES_PER_PAGE } from "../catalogue/changes";
import { randomId } from "../crypto/random";
import { surfaceOrigin, type Env } from "../env";
import { changeFeedStateStatement, changesOfBrandsAfter, type ChangeFeedState } from "../storage/content-changes";
import { insertDeliveryWhileCursorIs, overdueDeliveries, type DeliveryRow } from "../storage/webhook-deliveries";
import { activeWebhookEndpoints, advanceWebhookCursor, type WebhookEndpointRow } from "../storage/webhook-endpoints";
import { deliverMessage } from "../storage/webhook-queue";

/**
 * Events made from the change feed, per endpoint: the changes of its brands after its cursor, at most
 * `MAX_CHANGES_PER_EVENT` an event (one feed page), so an import of any size sends each endpoint
 * ceil(changes / 1000) requests. The payload follows Standard Webhooks: `type`, `timestamp`, `data`.
 */

export const MAX_CHANGES_PER_EVENT = MAX_CHANGES_PER_PAGE;

export const ContentChangedEvent = z
  .object({
    type: z.literal("content.changed"),
    timestamp: z.string().openapi({ description: "When the event was made (ISO 8601 UTC)." }),
    data: z.object({
      changes: z.array(ChangeEntry).openapi({ description: `Oldest first, at most ${MAX_CHANGES_PER_EVENT}; only the endpoint's brands.` }),
      cursor: z.string().openapi({
        description: "The change feed's position after these changes: GET /api/v3/content/changes?cursor=… continues from here.",
      }),
    }),
  })
  .openapi("ContentChangedEvent");
export type ContentChangedEvent = z.infer<typeof ContentChangedEvent>;

export const TestEvent = z
  .object({
    type: z.literal("webhook.test"),
    timestamp: z.string(),
    data: z.object({ endpointId: z.string(), brands: z.array(z.string()) }),
  })
  .openapi("WebhookTestEvent");

export function newDelivery(endpointId: string, type: string, payload: string, changeCount: number, now: string): DeliveryRow {
  return {
    // Sent as `webhook-id`: 96 random bits, so receivers can use it to drop repeats.
    id: randomId("msg_", 12),
    endpoint_id: endpointId,
    event_type: type,
    payload,
    change_count: changeCount,
    status: "pending",
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    finished_at: null,
  };
}

/** Where an endpoint's events point: API_URL when set, else the content API's origin when the endpoint was registered. */
const apiOriginOf = (env: Pick<Env, "API_URL">, endpoint: WebhookEndpointRow): string => surfaceOrigin(env.API_URL, endpoint.api_origin);

/** The events after one endpoint's cursor, each written with the cursor moved past it; returns the new deliveries' IDs. */
async function eventsFor(env: Env, endpoint: WebhookEndpointRow & { brands: string[] }, feed: ChangeFeedState): Promise<string[]> {
  const made: string[] = [];
  for (let cursor = endpoint.cursor_seq; ;) {
    const changes = await changesOfBrandsAfter(env.DB, endpoint.brands, cursor, MAX_CHANGES_PER_EVENT);
    if (changes.length === 0) return made;
    const through = changes[changes.length - 1]!.seq;
    const now = new Date().toISOString();
    const event: ContentChangedEvent = {
      type: "content.changed",
      timestamp: now,
      data: {
        changes: changes.map((row) => changeEntry(row, apiOriginOf(env, endpoint))),
        cursor: encodeCursor({ feedId: feed.feed_id, seq: through }),
      },
    };
    const delivery = newDelivery(endpoint.id, event.type, JSON.stringify(event), changes.length, now);
    const [, moved] = await env.DB.batch([
      insertDeliveryWhileCursorIs(env.DB, delivery, cursor),
      advanceWebhookCursor(env.DB, endpoint.id, cursor, through),
    ]);
    if (moved!.meta.changes !== 1) return made; // another dispatcher made this event
    made.push(delivery.id);
    if (changes.length < MAX_CHANGES_PER_EVENT) return made;
    cursor = through;
  }
}

// A pending delivery this long past its time has lost its queue message (the daily upkeep also asks for a dispatch).
const OVERDUE_MS = 3_600_000;

/**
 * Makes the events of every active endpoint and queues their deliveries, with the deliveries whose queue
 * message was lost. Asked for after every content change and once a day.
 */
export async function dispatchEvents(env: Env): Promise<void> {
  const [endpoints, feed] = await Promise.all([activeWebhookEndpoints(env.DB), changeFeedStateStatement(env.DB).first<ChangeFeedState>()]);
  const deliveries = [
    ...(await Promise.all(endpoints.map((endpoint) => eventsFor(env, endpoint, feed!)))).flat(),
    ...(await overdueDeliveries(env.DB, new Date(Date.now() - OVERDUE_MS).toISOString(), 100)),
  ];
  for (let start = 0; start < deliveries.length; start += 100) {
    await env.WEBHOOK_QUEUE.sendBatch(deliveries.slice(start, start + 100).map(deliverMessage));
  }
}
