import { Webhook } from "standardwebhooks";
import { seal, unseal } from "../crypto/sealed";
import { intVar, isDevelopment, listVar, type Env } from "../env";
import {
  claimAttempt,
  findDelivery,
  finishDelivery,
  insertAttempt,
  scheduleDelivery,
  type AttemptRow,
  type DeliveryRow,
} from "../storage/webhook-deliveries";
import { disableWebhookEndpoint, findWebhookEndpoint, recordWebhookSuccess, type WebhookEndpointRow } from "../storage/webhook-endpoints";
import { endpointUrlProblem } from "./endpoint-url";

/**
 * Delivering an event to an endpoint, the Standard Webhooks way: a POST of the JSON payload with
 * `webhook-id` (the delivery's ID, the same on every attempt, so a receiver can drop repeats),
 * `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with the endpoint's secret, by the
 * `standardwebhooks` package). Any 2xx is success; anything else, a redirect (never followed), no
 * answer within the timeout or no connection is a failure, retried on a growing schedule; after the last
 * retry the delivery is dead, and an endpoint that has not succeeded since is disabled.
 */

/** Seconds to wait after each failed attempt: the Standard Webhooks reference schedule, 8 attempts over 27.6 hours. */
export const DEFAULT_RETRY_DELAYS_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
const DEFAULT_TIMEOUT_MS = 10_000;
/** How long the delivery log keeps a finished delivery (the daily upkeep deletes older ones). */
export const DELIVERIES_KEPT_DAYS = 30;
// A queue message can wait at most 12 hours.
const MAX_DELAY_SECONDS = 43_200;

/** WEBHOOK_RETRY_DELAYS (seconds, comma-separated, each 1-43200, at most 20) or the default schedule. */
function retryDelays(env: Pick<Env, "WEBHOOK_RETRY_DELAYS">): number[] {
  const delays = listVar(env.WEBHOOK_RETRY_DELAYS).map(Number);
  const valid = delays.length > 0 && delays.length <= 20 && delays.every((d) => Number.isInteger(d) && d >= 1 && d <= MAX_DELAY_SECONDS);
  return valid ? delays : DEFAULT_RETRY_DELAYS_SECONDS;
}

const secretBinding = (endpointId: string) => `webhook-endpoint:${endpointId}`;

/** A new signing secret in the Standard Webhooks form (`whsec_` and 32 random bytes in base64), and how it is stored. */
export async function newEndpointSecret(
  env: Pick<Env, "KEY_ENCRYPTION_KEY">,
  endpointId: string,
): Promise<{ secret: string; sealed: string }> {
  const secret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
  return { secret, sealed: await seal(env.KEY_ENCRYPTION_KEY, secret, secretBinding(endpointId)) };
}

export interface AttemptOutcome {
  ok: boolean;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/** One signed POST of `payload`: no redirect followed, given up after `timeoutMs`. */
async function sendSigned(url: string, secret: string, messageId: string, payload: string, timeoutMs: number): Promise<AttemptOutcome> {
  const timestamp = new Date();
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "hospitality-content-webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, timestamp, payload),
  };
  const started = Date.now();
  try {
    const res = await fetch(url, { method: "POST", headers, body: payload, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    const durationMs = Date.now() - started;
    if (res.status >= 200 && res.status < 300) return { ok: true, responseStatus: res.status, error: null, durationMs };
    const error = res.status >= 300 && res.status < 400 ? `HTTP ${res.status}: redirects are not followed` : `HTTP ${res.status}`;
    return { ok: false, responseStatus: res.status, error, durationMs };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    const reason = timedOut ? `no answer within ${timeoutMs} ms` : `no connection: ${describeError(error)}`;
    return { ok: false, responseStatus: null, error: reason, durationMs: Date.now() - started };
  }
}

/** Unseals the endpoint's secret and sends; a secret that cannot be opened is a failed attempt, not an exception. */
async function attempt(env: Env, endpoint: WebhookEndpointRow, delivery: DeliveryRow): Promise<AttemptOutcome> {
  let secret: string;
  try {
    secret = await unseal(env.KEY_ENCRYPTION_KEY, endpoint.secret_sealed, secretBinding(endpoint.id));
  } catch {
    return { ok: false, responseStatus: null, error: "the endpoint's secret cannot be opened with this KEY_ENCRYPTION_KEY", durationMs: 0 };
  }
  return sendSigned(endpoint.url, secret, delivery.id, delivery.payload, intVar(env.WEBHOOK_TIMEOUT_MS, DEFAULT_TIMEOUT_MS));
}

const attemptRow = (delivery: DeliveryRow, number: number, at: string, outcome: AttemptOutcome): AttemptRow => ({
  delivery_id: delivery.id,
  attempt: number,
  at,
  response_status: outcome.responseStatus,
  error: outcome.error,
  duration_ms: outcome.durationMs,
});

/**
 * The next attempt of a delivery (a queue message names it). Returns the seconds after which the queue must
 * bring the message again, or null when the delivery is settled (delivered, dead, gone, or another consumer
 * took this attempt).
 */
export async function deliverNext(env: Env, deliveryId: string): Promise<number | null> {
  const db = env.DB;
  const delivery = await findDelivery(db, deliveryId);
  if (!delivery || delivery.status !== "pending") return null;
  const endpoint = await findWebhookEndpoint(db, delivery.endpoint_id);
  if (!endpoint) return null;
  const now = new Date();
  const early = delivery.next_attempt_at === null ? 0 : Date.parse(delivery.next_attempt_at) - now.getTime();
  if (early > 1_000) return Math.ceil(early / 1000); // a message brought before its time (a repeat): wait for it
  if (endpoint.disabled_at !== null) {
    await finishDelivery(db, delivery.id, "dead", now.toISOString()).run();
    return null;
  }
  const problem = endpointUrlProblem(endpoint.url, isDevelopment(env));
  if (problem) {
    const reason = `Its URL ${problem}.`;
    await db.batch([
      finishDelivery(db, delivery.id, "dead", now.toISOString()),
      disableWebhookEndpoint(db, endpoint.id, now.toISOString(), reason, now.toISOString()),
    ]);
    return null;
  }
  if (!(await claimAttempt(db, delivery.id, delivery.attempts))) return null;

  const number = delivery.attempts + 1;
  const outcome = await attempt(env, endpoint, delivery);
  const at = new Date().toISOString();
  const log = insertAttempt(db, attemptRow(delivery, number, now.toISOString(), outcome));
  if (outcome.ok) {
    await db.batch([log, finishDelivery(db, delivery.id, "delivered", at), recordWebhookSuccess(db, endpoint.id, at)]);
    return null;
  }
  const delay = retryDelays(env)[number - 1];
  if (delay !== undefined) {
    await db.batch([log, scheduleDelivery(db, delivery.id, new Date(Date.now() + delay * 1000).toISOString())]);
    return delay;
  }
  const hours = ((Date.now() - Date.parse(delivery.created_at)) / 3_600_000).toFixed(1);
  const reason = `Delivery ${delivery.id} failed all ${number} attempts over ${hours} h (last: ${outcome.error}); no delivery succeeded since.`;
  await db.batch([
    log,
    finishDelivery(db, delivery.id, "dead", at),
    disableWebhookEndpoint(db, endpoint.id, at, reason, delivery.created_at),
  ]);
  return null;
}

/** One attempt now, without retries, of an event that exists only to be sent once (the operator's test): it is logged like any other. */
export async function deliverOnce(env: Env, endpoint: WebhookEndpointRow, delivery: DeliveryRow): Promise<AttemptOutcome> {
  const outcome = await attempt(env, endpoint, delivery);
  const at = new Date().toISOString();
  await env.DB.batch([
    insertAttempt(env.DB, attemptRow(delivery, 1, delivery.created_at, outcome)),
    finishDelivery(env.DB, delivery.id, outcome.ok ? "delivered" : "dead", at),
    ...(outcome.ok ? [recordWebhookSuccess(env.DB, endpoint.id, at)] : []),
  ]);
  return outcome;
}
