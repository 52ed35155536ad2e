import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { randomId } from "../crypto/random";
import { isDevelopment, surfaceOrigin } from "../env";
import { BRAND_ID_PATTERN } from "../content/schemas";
import { changeFeedStateStatement, type ChangeFeedState } from "../storage/content-changes";
import { entitiesByIdOrBrand } from "../storage/entities";
import { attemptsOf, findDelivery, insertDelivery, listDeliveries, type AttemptRow, type DeliveryRow } from "../storage/webhook-deliveries";
import {
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  type WebhookEndpointView,
} from "../storage/webhook-endpoints";
import { deliverOnce, newEndpointSecret } from "../webhooks/delivery";
import { CALLBACK_URL_PATTERN } from "../http/url-shape";
import { endpointUrlProblem } from "../webhooks/endpoint-url";
import { newDelivery, TestEvent } from "../webhooks/events";
import { audit } from "./audit";
import type { AdminEnv } from "./auth";
import { adminError, IdParam, Timestamp } from "./openapi";
import { itemsOf, resource } from "./operation";

/**
 * Partner webhook endpoints: where the content changes of some brands are delivered as signed events
 * (src/webhooks/). The signing secret is shown once, at creation; the delivery log says what was sent,
 * what each attempt got back, and what is dead; an endpoint that keeps failing is disabled, with why.
 */

const MAX_BRANDS = 100;
const BrandId = z.string().regex(BRAND_ID_PATTERN, "must be a hospitality brand ID (HO-…)");

const WebhookEndpoint = z
  .object({
    id: z.string().openapi({ example: "wh_3f9a1c2b7d4e" }),
    url: z.string(),
    brands: z.array(z.string()).openapi({ description: "Its events list the changes of these brands (each brand with its properties)." }),
    description: z.string().nullable(),
    status: z.enum(["active", "disabled"]),
    disabledAt: Timestamp.nullable(),
    disabledReason: z.string().nullable().openapi({ description: "Why the service stopped sending to it." }),
    lastSuccessAt: Timestamp.nullable(),
    deliveries: z.object({ pending: z.number().int(), delivered: z.number().int(), dead: z.number().int() }),
    createdAt: Timestamp,
  })
  .openapi("WebhookEndpoint");
const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().openapi({
    description: "The signing secret (`whsec_…`), shown once: verify each event with it (Standard Webhooks).",
  }),
}).openapi("WebhookEndpointWithSecret");
const WebhookEndpointCreate = z.strictObject({
  url: z.string().max(2048).openapi({
    format: "uri",
    pattern: CALLBACK_URL_PATTERN,
    description: "https on a public host (loopback, over http too, only in development).",
  }),
  brands: z.array(BrandId).min(1).max(MAX_BRANDS),
  description: z.string().trim().max(200).optional(),
});

const WebhookAttempt = z
  .object({
    attempt: z.number().int(),
    at: Timestamp,
    responseStatus: z.number().int().nullable(),
    error: z.string().nullable().openapi({ description: "Why it failed: the HTTP status, a redirect, a timeout, no connection." }),
    durationMs: z.number().int(),
  })
  .openapi("WebhookAttempt");
const WebhookDelivery = z
  .object({
    id: z.string().openapi({ description: "The event's webhook-id.", example: "msg_5b1e0c9a7d3f2e4a6b8c0d1e" }),
    eventType: z.string().openapi({ example: "content.changed" }),
    changes: z.number().int(),
    status: z.enum(["pending", "delivered", "dead"]).openapi({ description: "`dead`: every attempt failed; it is not retried." }),
    attempts: z.array(WebhookAttempt),
    nextAttemptAt: Timestamp.nullable(),
    createdAt: Timestamp,
    finishedAt: Timestamp.nullable(),
  })
  .openapi("WebhookDelivery");
const DeliveriesQuery = z.object({
  status: z
    .enum(["pending", "delivered", "dead"])
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(50)
    .openapi({ param: { name: "limit", in: "query" } }),
});

const view = (row: WebhookEndpointView) => ({
  id: row.id,
  url: row.url,
  brands: row.brands,
  description: row.description,
  status: row.disabled_at === null ? ("active" as const) : ("disabled" as const),
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
  lastSuccessAt: row.last_success_at,
  deliveries: { pending: row.pending, delivered: row.delivered, dead: row.dead },
  createdAt: row.created_at,
});

const deliveryView = (row: DeliveryRow, attempts: AttemptRow[]) => ({
  id: row.id,
  eventType: row.event_type,
  changes: row.change_count,
  status: row.status,
  attempts: attempts.map((a) => ({
    attempt: a.attempt,
    at: a.at,
    responseStatus: a.response_status,
    error: a.error,
    durationMs: a.duration_ms,
  })),
  nextAttemptAt: row.status === "pending" ? row.next_attempt_at : null,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

async function highWater(db: D1Database): Promise<number> {
  return (await changeFeedStateStatement(db).first<ChangeFeedState>())!.high_water;
}

export function webhookRoutes(app: OpenAPIHono<AdminEnv>): void {
  const load = async (db: D1Database, id: string) => (await listWebhookEndpoints(db, id))[0];
  const webhooks = resource(app, {
    tag: "Webhooks",
    path: "/webhooks",
    noun: "webhook endpoint",
    params: IdParam,
    item: WebhookEndpoint,
    load: (c, { params }) => load(c.env.DB, params.id),
    view,
  });

  webhooks.list("webhooks", { summary: "List webhook endpoints (never their secrets)", description: "Newest first." }, (c) =>
    listWebhookEndpoints(c.env.DB),
  );
  webhooks.get("One webhook endpoint, with its delivery counts and why it was disabled", "The endpoint.");

  webhooks.create(
    {
      summary: "Register a partner's endpoint for the content changes of some brands; its signing secret is shown once",
      description: "Registered; it receives the changes committed from now on.",
      body: WebhookEndpointCreate,
      schema: WebhookEndpointWithSecret,
    },
    async (c, input) => {
      const problem = endpointUrlProblem(input.url, isDevelopment(c.env));
      if (problem) return adminError(c, 400, `The endpoint URL ${problem}.`, [{ field: "url", message: problem }]);
      const brands = [...new Set(input.brands)];
      const stored = new Set((await entitiesByIdOrBrand(c.env.DB, brands, [])).filter((e) => e.kind === "brand").map((e) => e.id));
      const unknown = input.brands.flatMap((brandId, i) =>
        stored.has(brandId) ? [] : [{ field: `brands.${i}`, message: `no brand ${brandId}` }],
      );
      if (unknown.length > 0) return adminError(c, 400, "The endpoint names brands that do not exist.", unknown);

      const id = randomId("wh_");
      const { secret, sealed } = await newEndpointSecret(c.env, id);
      const row = {
        id,
        url: input.url,
        description: input.description ?? null,
        secret_sealed: sealed,
        api_origin: surfaceOrigin(c.env.API_URL, c.req.url),
        cursor_seq: await highWater(c.env.DB),
        last_success_at: null,
        disabled_at: null,
        disabled_reason: null,
        created_at: new Date().toISOString(),
      };
      await c.env.DB.batch([
        ...insertWebhookEndpoint(c.env.DB, row, brands),
        audit(c, "webhook.create", id, { host: new URL(input.url).host, brands }),
      ]);
      return { ...view({ ...row, brands: brands.sort(), pending: 0, delivered: 0, dead: 0 }), secret };
    },
  );

  webhooks.on(
    {
      method: "post",
      path: "/enable",
      summary: "Send to a disabled endpoint again, from the next change on (the change feed holds what it missed)",
      description: "Enabled.",
    },
    async (c, row) => {
      if (row.disabled_at === null) return adminError(c, 409, `Webhook endpoint ${row.id} is not disabled.`);
      await c.env.DB.batch([enableWebhookEndpoint(c.env.DB, row.id, await highWater(c.env.DB)), audit(c, "webhook.enable", row.id)]);
      return view((await load(c.env.DB, row.id))!);
    },
  );

  webhooks.on(
    {
      method: "post",
      path: "/test",
      summary: "Send a signed webhook.test event now, once, and say what the endpoint answered",
      description: "The test delivery with its one attempt (it is in the delivery log too).",
      schema: WebhookDelivery,
    },
    async (c, row) => {
      const problem = endpointUrlProblem(row.url, isDevelopment(c.env));
      if (problem) return adminError(c, 409, `The endpoint URL ${problem}; delete the endpoint and register a valid one.`);
      const now = new Date().toISOString();
      const event: z.infer<typeof TestEvent> = { type: "webhook.test", timestamp: now, data: { endpointId: row.id, brands: row.brands } };
      const delivery = { ...newDelivery(row.id, event.type, JSON.stringify(event), 0, now), attempts: 1 };
      await insertDelivery(c.env.DB, delivery).run();
      await deliverOnce(c.env, row, delivery);
      return deliveryView((await findDelivery(c.env.DB, delivery.id))!, await attemptsOf(c.env.DB, [delivery.id]));
    },
  );

  webhooks.operation(
    {
      method: "get",
      path: "/webhooks/{id}/deliveries",
      params: IdParam,
      query: DeliveriesQuery,
      summary: "The delivery log of an endpoint: each event, its attempts and what they got back; dead ones are not retried",
      description: "Newest first.",
      schema: z.object({ deliveries: z.array(WebhookDelivery) }),
    },
    itemsOf("webhook endpoint", { params: IdParam, query: DeliveriesQuery }, (c, { params }) => load(c.env.DB, params.id))(
      async (c, row, { query }) => {
        const deliveries = await listDeliveries(c.env.DB, row.id, query);
        const attempts = await attemptsOf(
          c.env.DB,
          deliveries.map((d) => d.id),
        );
        return {
          deliveries: deliveries.map((d) =>
            deliveryView(
              d,
              attempts.filter((a) => a.delivery_id === d.id),
            ),
          ),
        };
      },
    ),
  );

  webhooks.remove({ summary: "Delete a webhook endpoint with its delivery log", description: "Deleted." }, async (c, row) => {
    await c.env.DB.batch([deleteWebhookEndpoint(c.env.DB, row.id), audit(c, "webhook.delete", row.id, { brands: row.brands })]);
  });
}
