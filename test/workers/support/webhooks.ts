import { createExecutionContext, createMessageBatch, env, getQueueResult, type QueueResult } from "cloudflare:test";
import worker from "../../../src/index";
import type { WebhookMessage } from "../../../src/storage/webhook-queue";
import { adminRequest } from "./admin";
import { fetchWith } from "./app";

/** Loopback receivers are allowed in development only. */
export const DEVELOPMENT = { ENVIRONMENT: "development" } as const;
type Vars = Partial<typeof env>;

/** A route of the local receiver (test/workers/global-setup.mjs) no other test uses. */
export const newRoute = (): string => `r-${crypto.randomUUID().slice(0, 12)}`;
export const receiverUrl = (route: string): string => `${env.TEST_WEBHOOK_RECEIVER}/${route}`;

/** How the receiver answers `route` (one step per request, the last repeating) and the secret it verifies with. */
export async function receiverAnswers(route: string, secret: string, answers: (number | { status: number; delayMs: number })[]) {
  const res = await fetch(`${env.TEST_WEBHOOK_RECEIVER}/_routes/${route}`, { method: "PUT", body: JSON.stringify({ secret, answers }) });
  if (res.status !== 204) throw new Error(`receiver: ${res.status}`);
}

export interface Received {
  webhookId: string | null;
  timestamp: string | null;
  contentType: string | null;
  verified: boolean;
  error: string | null;
  answered: number;
  body: string;
}

/** What the receiver got at `route`, oldest first, each with whether standardwebhooks verified it. */
export const received = async (route: string): Promise<Received[]> => (await fetch(`${env.TEST_WEBHOOK_RECEIVER}/_routes/${route}`)).json();

/** The operator API's JSON answer under `vars`, which must have `status`. */
export async function adminAs<T = any>(vars: Vars, method: string, path: string, body?: unknown, status = 200): Promise<T> {
  const res = await fetchWith(adminRequest(method, path, body), vars);
  const text = await res.text();
  if (res.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Registers an endpoint (in development by default, so the receiver on loopback is allowed). */
export const createEndpoint = (url: string, brands: string[], vars: Vars = DEVELOPMENT): Promise<{ id: string; secret: string }> =>
  adminAs(vars, "POST", "/webhooks", { url, brands }, 201);

/** The endpoint's delivery log, newest first. */
export const deliveriesOf = async (endpointId: string, query = ""): Promise<any[]> =>
  (await adminAs(DEVELOPMENT, "GET", `/webhooks/${endpointId}/deliveries${query}`)).deliveries;

/** Hands `bodies` to the Worker's queue consumer as one batch, under `vars`: what it acknowledged and retried. */
export async function consume(bodies: WebhookMessage[], vars: Vars = DEVELOPMENT): Promise<QueueResult> {
  const batch = createMessageBatch(
    "hospitality-webhooks",
    bodies.map((body, i) => ({ id: `message-${i}`, timestamp: Date.now(), attempts: 1, body })),
  );
  await worker.queue(batch, { ...env, ...vars });
  return getQueueResult(batch, createExecutionContext());
}

/** As the queue brings a retried message back once its delay is over: the delivery's next attempt is due now. */
export const dueNow = (deliveryId: string): Promise<unknown> =>
  env.DB.prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?").bind(new Date().toISOString(), deliveryId).run();
