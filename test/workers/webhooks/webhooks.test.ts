import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import worker from "../../../src/index";
import { DEFAULT_RETRY_DELAYS_SECONDS, DELIVERIES_KEPT_DAYS, deliverNext } from "../../../src/webhooks/delivery";
import { MAX_CHANGES_PER_EVENT } from "../../../src/webhooks/events";
import { admin, adminJson, importRecords } from "../support/admin";
import { brandRecords, feedPage, fixtureRecords, syntheticBrand, withNewAnswer } from "../support/partner-sync";
import {
  adminAs,
  consume,
  createEndpoint,
  deliveriesOf,
  DEVELOPMENT,
  dueNow,
  newRoute,
  received,
  receiverAnswers,
  receiverUrl,
} from "../support/webhooks";

const PUBLIC_URL = "https://hooks.partner.example/content";
const dispatch = (vars = {}) => consume([{ type: "dispatch" }], { ...DEVELOPMENT, ...vars });

/** The endpoint's pending deliveries, oldest first. */
const pending = async (endpointId: string) => (await deliveriesOf(endpointId, "?status=pending")).reverse();

/** An endpoint at a fresh receiver route answering `answers`, following `brands`. */
async function endpointAtReceiver(brands: string[], answers: Parameters<typeof receiverAnswers>[2] = [200]) {
  const route = newRoute();
  const endpoint = await createEndpoint(receiverUrl(route), brands);
  await receiverAnswers(route, endpoint.secret, answers);
  return { ...endpoint, route };
}

/** A change of one property of a synthetic brand (its first answer), committed now. */
const touch = (brandId: string, answer: string) => importRecords([withNewAnswer(syntheticBrand(brandId, 1)[1]!, answer)]);

describe("registering webhook endpoints (operator API)", () => {
  it("registers an https endpoint for stored brands, shows its secret once and keeps it only sealed", async () => {
    const created = await adminJson("POST", "/webhooks", { url: PUBLIC_URL, brands: ["HO-AUR", "HO-AUR"], description: "Acme sync" }, 201);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^wh_[0-9a-f]{12}$/),
      url: PUBLIC_URL,
      brands: ["HO-AUR"],
      description: "Acme sync",
      status: "active",
      disabledReason: null,
      deliveries: { pending: 0, delivered: 0, dead: 0 },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    // A secret the standardwebhooks package takes, as a partner would.
    expect(() => new Webhook(created.secret)).not.toThrow();
    const listed = await adminJson("GET", "/webhooks");
    expect(listed.webhooks.find((w: any) => w.id === created.id)).not.toHaveProperty("secret");
    expect(await adminJson("GET", `/webhooks/${created.id}`)).not.toHaveProperty("secret");
    const row = await env.DB.prepare("SELECT secret_sealed FROM webhook_endpoints WHERE id = ?")
      .bind(created.id)
      .first<{ secret_sealed: string }>();
    expect(row!.secret_sealed).toMatch(/^aesgcm1\./);
    expect(row!.secret_sealed).not.toContain(created.secret.slice(6));
    const audit = await adminJson("GET", `/audit?target=${created.id}`);
    expect(audit.entries[0]).toMatchObject({ action: "webhook.create", target: created.id });
    expect(JSON.stringify(audit.entries)).not.toContain(created.secret.slice(6));
  });

  it.each([
    ["http://hooks.partner.example/x", /must use https/],
    ["https://10.1.2.3/hook", /private, internal or reserved/],
    ["https://172.20.0.1/hook", /private, internal or reserved/],
    ["https://192.168.0.10/hook", /private, internal or reserved/],
    ["https://169.254.169.254/latest/meta-data", /private, internal or reserved/],
    ["https://100.64.0.1/hook", /private, internal or reserved/],
    ["https://0x0a000001/hook", /private, internal or reserved/],
    ["https://[fd00::1]/hook", /private, internal or reserved/],
    ["https://[fe80::1]/hook", /private, internal or reserved/],
    ["https://[::ffff:10.0.0.1]/hook", /private, internal or reserved/],
    ["https://metadata.internal/hook", /private, internal or reserved/],
    ["https://printer.local/hook", /private, internal or reserved/],
    ["https://intranet/hook", /private, internal or reserved/],
    ["https://kubernetes.default.svc/hook", /private, internal or reserved/],
    ["https://api.payments.svc.cluster.local/hook", /private, internal or reserved/],
    ["https://169.254.169.254.nip.io/latest/meta-data", /private, internal or reserved/],
    ["https://10-0-0-1.sslip.io/hook", /private, internal or reserved/],
    ["https://app.127.0.0.1.nip.io/hook", /loopback, allowed only in development/],
    ["https://localhost/hook", /loopback, allowed only in development/],
    ["http://127.0.0.1:9000/hook", /loopback, allowed only in development/],
    ["https://2130706433/hook", /loopback, allowed only in development/],
    ["https://[::1]/hook", /loopback, allowed only in development/],
    ["https://user:secret@hooks.partner.example/x", /must not carry credentials/],
    ["not a url", /must be an absolute URL/],
  ])("refuses %s with 400, registering nothing", async (url, reason) => {
    const before = (await adminJson("GET", "/webhooks")).webhooks.length;
    const res = await admin("POST", "/webhooks", { url, brands: ["HO-AUR"] });
    expect(res.status).toBe(400);
    const body = await res.json<any>();
    expect(body.error.code).toBe("bad_request");
    expect(body.error.details).toEqual([{ field: "url", message: expect.stringMatching(reason) }]);
    expect((await adminJson("GET", "/webhooks")).webhooks.length).toBe(before);
  });

  it("refuses unknown or malformed brands and unknown fields, naming each, registering nothing", async () => {
    const before = (await adminJson("GET", "/webhooks")).webhooks.length;
    const cases: [unknown, string[]][] = [
      [{ url: PUBLIC_URL, brands: ["HO-AUR", "HO-NOPE", "HO-AUR-0001"] }, ["brands.1", "brands.2"]],
      [{ url: PUBLIC_URL, brands: ["DMO-LIS"] }, ["brands.0"]],
      [{ url: PUBLIC_URL, brands: [] }, ["brands"]],
      [{ url: PUBLIC_URL }, ["brands"]],
      [{ url: PUBLIC_URL, brands: ["HO-AUR"], secret: "mine" }, ["(body)"]],
    ];
    for (const [body, fields] of cases) {
      const res = await admin("POST", "/webhooks", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json<any>()).error.details.map((d: any) => d.field)).toEqual(fields);
    }
    expect((await adminJson("GET", "/webhooks")).webhooks.length).toBe(before);
  });

  it("allows a receiver on loopback in development only", async () => {
    const url = receiverUrl(newRoute());
    expect((await admin("POST", "/webhooks", { url, brands: ["HO-CAS"] })).status).toBe(400);
    expect((await createEndpoint(url, ["HO-CAS"], DEVELOPMENT)).id).toMatch(/^wh_/);
    expect((await createEndpoint(url.replace("127.0.0.1", "localhost"), ["HO-CAS"], DEVELOPMENT)).id).toMatch(/^wh_/);
  });

  it("answers 404 for an unknown endpoint and 409 for enabling an active one", async () => {
    for (const [method, path] of [
      ["GET", "/webhooks/wh_000000000000"],
      ["GET", "/webhooks/wh_000000000000/deliveries"],
      ["POST", "/webhooks/wh_000000000000/test"],
      ["DELETE", "/webhooks/wh_000000000000"],
    ] as const) {
      const res = await admin(method, path);
      expect(res.status, path).toBe(404);
      expect((await res.json<any>()).error.code).toBe("not_found");
    }
    const { id } = await adminJson("POST", "/webhooks", { url: PUBLIC_URL, brands: ["HO-CAS"] }, 201);
    expect((await admin("POST", `/webhooks/${id}/enable`)).status).toBe(409);
    expect((await admin("GET", `/webhooks/${id}/deliveries?status=lost`)).status).toBe(400);
  });
});

describe("the operator API's OpenAPI document", () => {
  it("describes the webhook routes from the schemas that validate them", async () => {
    const doc = await adminJson("GET", "/openapi.json");
    expect(
      Object.keys(doc.paths)
        .filter((path) => path.startsWith("/admin/v1/webhooks"))
        .sort(),
    ).toEqual([
      "/admin/v1/webhooks",
      "/admin/v1/webhooks/{id}",
      "/admin/v1/webhooks/{id}/deliveries",
      "/admin/v1/webhooks/{id}/enable",
      "/admin/v1/webhooks/{id}/test",
    ]);
    expect(doc.components.schemas.WebhookEndpointWithSecret.allOf[1].required).toEqual(["secret"]);
    expect(doc.components.schemas.WebhookEndpoint.properties).not.toHaveProperty("secret");
    expect(doc.components.schemas.WebhookDelivery.properties.status.enum).toEqual(["pending", "delivered", "dead"]);
  });
});

describe("events made from the change feed", () => {
  it(`batches an import of HO-BOR's 1,200 properties into ${Math.ceil(1200 / MAX_CHANGES_PER_EVENT)} events, each listing only HO-BOR`, async () => {
    const { id } = await adminJson("POST", "/webhooks", { url: PUBLIC_URL, brands: ["HO-BOR"] }, 201);
    await importRecords(brandRecords("HO-BOR").map((r) => (r.kind === "property" ? withNewAnswer(r, "Every hotel changed.") : r)));
    expect((await dispatch()).explicitAcks).toEqual(["message-0"]);
    const events = (await pending(id)).map((d) => d);
    expect(events.map((d) => [d.eventType, d.changes])).toEqual([
      ["content.changed", 1000],
      ["content.changed", 200],
    ]);
    const payloads = await Promise.all(
      events.map(async (d) =>
        JSON.parse((await env.DB.prepare("SELECT payload FROM webhook_deliveries WHERE id = ?").bind(d.id).first<any>()).payload),
      ),
    );
    const listed = payloads.flatMap((p) => p.data.changes);
    expect(listed).toHaveLength(1200);
    expect(new Set(listed.map((c: any) => c.entityId)).size).toBe(1200);
    expect(listed.every((c: any) => c.brandId === "HO-BOR" && c.change === "upserted" && c.url.endsWith("/faq.json"))).toBe(true);
    // The last event's cursor is where the feed stands: nothing of HO-BOR after it.
    expect((await feedPage({ cursor: payloads[1].data.cursor, brandId: "HO-BOR" })).changes).toEqual([]);
    // Dispatching again makes nothing twice.
    await dispatch();
    expect(await pending(id)).toHaveLength(2);
  });

  it("sends each endpoint only its own brands' changes, from both sides, and nothing for an import that changes nothing", async () => {
    await importRecords([...syntheticBrand("HO-WHA", 1), ...syntheticBrand("HO-WHB", 1)]);
    const a = (await adminJson("POST", "/webhooks", { url: `${PUBLIC_URL}/a`, brands: ["HO-WHA"] }, 201)).id;
    const b = (await adminJson("POST", "/webhooks", { url: `${PUBLIC_URL}/b`, brands: ["HO-WHB"] }, 201)).id;
    await touch("HO-WHA", "A changed.");
    await dispatch();
    await touch("HO-WHB", "B changed.");
    await dispatch();
    const listedFor = async (endpointId: string) => {
      const rows = await env.DB.prepare("SELECT payload FROM webhook_deliveries WHERE endpoint_id = ?").bind(endpointId).all<any>();
      return rows.results.flatMap((r) => JSON.parse(r.payload).data.changes.map((c: any) => c.entityId));
    };
    expect(await listedFor(a)).toEqual(["HO-WHA-0001"]);
    expect(await listedFor(b)).toEqual(["HO-WHB-0001"]);
    await touch("HO-WHA", "A changed.");
    await dispatch();
    expect(await listedFor(a)).toEqual(["HO-WHA-0001"]);
  });

  it("sends an endpoint the changes made after it was registered, not before", async () => {
    await importRecords(syntheticBrand("HO-LATE", 1));
    await touch("HO-LATE", "Before the endpoint.");
    const { id } = await adminJson("POST", "/webhooks", { url: PUBLIC_URL, brands: ["HO-LATE"] }, 201);
    await dispatch();
    expect(await pending(id)).toEqual([]);
    await touch("HO-LATE", "After the endpoint.");
    await dispatch();
    expect((await pending(id)).map((d) => d.changes)).toEqual([1]);
  });
});

describe("delivery to a receiver that verifies signatures with standardwebhooks", () => {
  it("delivers a signed event; after 500s it retries on the schedule with the same webhook-id until a 2xx", async () => {
    await importRecords(syntheticBrand("HO-RETRY", 1));
    const endpoint = await endpointAtReceiver(["HO-RETRY"], [500, 500, 200]);
    await touch("HO-RETRY", "Retried.");
    await dispatch();
    const [delivery] = await pending(endpoint.id);
    // The queue consumer asks the queue to bring the message back; the delay is the schedule's first.
    expect((await consume([{ type: "deliver", deliveryId: delivery.id }])).retryMessages).toEqual([{ msgId: "message-0" }]);
    const [afterFirst] = await pending(endpoint.id);
    const wait = (Date.parse(afterFirst.nextAttemptAt) - Date.parse(afterFirst.attempts[0].at)) / 1000;
    expect(Math.round(wait)).toBe(DEFAULT_RETRY_DELAYS_SECONDS[0]);
    // Brought back early (a repeated message), it waits for the rest of the delay and sends nothing.
    expect(await deliverNext({ ...env, ...DEVELOPMENT }, delivery.id)).toBeGreaterThan(0);
    expect(await received(endpoint.route)).toHaveLength(1);
    await dueNow(delivery.id);
    expect(await deliverNext({ ...env, ...DEVELOPMENT }, delivery.id)).toBe(DEFAULT_RETRY_DELAYS_SECONDS[1]);
    await dueNow(delivery.id);
    expect((await consume([{ type: "deliver", deliveryId: delivery.id }])).explicitAcks).toEqual(["message-0"]);

    const got = await received(endpoint.route);
    expect(got.map((r) => [r.answered, r.verified, r.webhookId])).toEqual([
      [500, true, delivery.id],
      [500, true, delivery.id],
      [200, true, delivery.id],
    ]);
    expect(got[0]!.contentType).toBe("application/json");
    const event = JSON.parse(got[2]!.body);
    expect(event).toMatchObject({
      type: "content.changed",
      data: { changes: [{ entityId: "HO-RETRY-0001", kind: "property", brandId: "HO-RETRY", change: "upserted" }] },
    });
    const [logged] = await deliveriesOf(endpoint.id);
    expect(logged).toMatchObject({ id: delivery.id, status: "delivered", nextAttemptAt: null });
    expect(logged.attempts.map((a: any) => [a.attempt, a.responseStatus, a.error])).toEqual([
      [1, 500, "HTTP 500"],
      [2, 500, "HTTP 500"],
      [3, 200, null],
    ]);
    expect((await adminJson("GET", `/webhooks/${endpoint.id}`)).lastSuccessAt).not.toBeNull();
  });

  it("gives up on a receiver that does not answer within the timeout, and retries", async () => {
    await importRecords(syntheticBrand("HO-SLOW", 1));
    const endpoint = await endpointAtReceiver(["HO-SLOW"], [{ status: 200, delayMs: 5_000 }]);
    await touch("HO-SLOW", "Slow.");
    await dispatch();
    const [delivery] = await pending(endpoint.id);
    expect(await deliverNext({ ...env, ...DEVELOPMENT, WEBHOOK_TIMEOUT_MS: "200" }, delivery.id)).toBe(DEFAULT_RETRY_DELAYS_SECONDS[0]);
    const [logged] = await pending(endpoint.id);
    expect(logged.attempts[0]).toMatchObject({ responseStatus: null, error: "no answer within 200 ms" });
    expect(logged.attempts[0].durationMs).toBeLessThan(5_000);
  });

  it("does not follow a redirect: it is a failed attempt", async () => {
    await importRecords(syntheticBrand("HO-MOVED", 1));
    const endpoint = await endpointAtReceiver(["HO-MOVED"], [302]);
    await touch("HO-MOVED", "Moved.");
    await dispatch();
    const [delivery] = await pending(endpoint.id);
    expect(await deliverNext({ ...env, ...DEVELOPMENT }, delivery.id)).toBe(DEFAULT_RETRY_DELAYS_SECONDS[0]);
    expect((await pending(endpoint.id))[0].attempts[0]).toMatchObject({
      responseStatus: 302,
      error: "HTTP 302: redirects are not followed",
    });
  });

  it("marks a delivery dead after its last attempt and disables the endpoint that kept failing, saying why; enabling resumes", async () => {
    const schedule = { ...DEVELOPMENT, WEBHOOK_RETRY_DELAYS: "60,60" };
    await importRecords(syntheticBrand("HO-DEAD", 1));
    const endpoint = await endpointAtReceiver(["HO-DEAD"], [500]);
    await touch("HO-DEAD", "Never delivered.");
    await dispatch();
    const [delivery] = await pending(endpoint.id);
    expect(await deliverNext({ ...env, ...schedule }, delivery.id)).toBe(60);
    await dueNow(delivery.id);
    expect(await deliverNext({ ...env, ...schedule }, delivery.id)).toBe(60);
    await dueNow(delivery.id);
    expect((await consume([{ type: "deliver", deliveryId: delivery.id }], schedule)).explicitAcks).toEqual(["message-0"]);

    const [dead] = await deliveriesOf(endpoint.id, "?status=dead");
    expect(dead).toMatchObject({ id: delivery.id, status: "dead", nextAttemptAt: null });
    expect(dead.attempts).toHaveLength(3);
    const disabled = await adminJson("GET", `/webhooks/${endpoint.id}`);
    expect(disabled).toMatchObject({ status: "disabled", deliveries: { pending: 0, delivered: 0, dead: 1 } });
    expect(disabled.disabledReason).toMatch(new RegExp(`Delivery ${delivery.id} failed all 3 attempts over .* h \\(last: HTTP 500\\)`));
    expect(await received(endpoint.route)).toHaveLength(3);

    // While disabled, nothing is made for it; once enabled, what changes next is delivered.
    await touch("HO-DEAD", "While disabled.");
    await dispatch();
    expect(await pending(endpoint.id)).toEqual([]);
    await receiverAnswers(endpoint.route, endpoint.secret, [200]);
    expect((await adminJson("POST", `/webhooks/${endpoint.id}/enable`)).status).toBe("active");
    await touch("HO-DEAD", "After enabling.");
    await dispatch();
    const [next] = await pending(endpoint.id);
    expect(await deliverNext({ ...env, ...DEVELOPMENT }, next.id)).toBeNull();
    const last = JSON.parse((await received(endpoint.route)).at(-1)!.body);
    expect(last.data.changes.map((c: any) => c.entityId)).toEqual(["HO-DEAD-0001"]);
  });

  it("keeps an endpoint enabled when a later delivery succeeded before an earlier one died", async () => {
    const schedule = { ...DEVELOPMENT, WEBHOOK_RETRY_DELAYS: "60" };
    await importRecords(syntheticBrand("HO-FLAKY", 1));
    const endpoint = await endpointAtReceiver(["HO-FLAKY"], [500, 200, 500]);
    await touch("HO-FLAKY", "First.");
    await dispatch();
    const [first] = await pending(endpoint.id);
    expect(await deliverNext({ ...env, ...schedule }, first.id)).toBe(60);
    await touch("HO-FLAKY", "Second.");
    await dispatch();
    const second = (await pending(endpoint.id)).find((d) => d.id !== first.id);
    expect(await deliverNext({ ...env, ...schedule }, second.id)).toBeNull();
    await dueNow(first.id);
    expect(await deliverNext({ ...env, ...schedule }, first.id)).toBeNull();
    expect(await adminJson("GET", `/webhooks/${endpoint.id}`)).toMatchObject({ status: "active", deliveries: { delivered: 1, dead: 1 } });
  });

  it("disables an endpoint whose URL is no longer allowed, at its next delivery", async () => {
    await importRecords(syntheticBrand("HO-LOOP", 1));
    const endpoint = await endpointAtReceiver(["HO-LOOP"]);
    await touch("HO-LOOP", "Loopback.");
    await dispatch();
    const [delivery] = await pending(endpoint.id);
    // Outside development, loopback is refused: nothing is sent.
    expect(await deliverNext(env, delivery.id)).toBeNull();
    expect(await received(endpoint.route)).toEqual([]);
    const disabled = await adminJson("GET", `/webhooks/${endpoint.id}`);
    expect(disabled).toMatchObject({ status: "disabled", deliveries: { dead: 1 } });
    expect(disabled.disabledReason).toMatch(/^Its URL must be on a public host: 127\.0\.0\.1 is loopback, allowed only in development\.$/);
  });

  it("sends a signed webhook.test once on the operator's request and logs it, without retrying", async () => {
    const endpoint = await endpointAtReceiver(["HO-CAS"], [200, 503]);
    const ok = await adminAs(DEVELOPMENT, "POST", `/webhooks/${endpoint.id}/test`);
    expect(ok).toMatchObject({ eventType: "webhook.test", status: "delivered", attempts: [{ attempt: 1, responseStatus: 200 }] });
    const failed = await adminAs(DEVELOPMENT, "POST", `/webhooks/${endpoint.id}/test`);
    expect(failed).toMatchObject({ status: "dead", attempts: [{ responseStatus: 503, error: "HTTP 503" }] });
    const got = await received(endpoint.route);
    expect(got.map((r) => [r.verified, JSON.parse(r.body).type])).toEqual([
      [true, "webhook.test"],
      [true, "webhook.test"],
    ]);
    expect(JSON.parse(got[0]!.body).data).toEqual({ endpointId: endpoint.id, brands: ["HO-CAS"] });
    // A failed test is not a reason to disable the endpoint.
    expect((await adminJson("GET", `/webhooks/${endpoint.id}`)).status).toBe("active");
  });

  it("deletes an endpoint with its log; a delivery still queued for it is dropped", async () => {
    await importRecords(syntheticBrand("HO-DROP", 1));
    const endpoint = await endpointAtReceiver(["HO-DROP"]);
    await touch("HO-DROP", "Dropped.");
    await dispatch();
    const [delivery] = await pending(endpoint.id);
    expect((await admin("DELETE", `/webhooks/${endpoint.id}`)).status).toBe(204);
    expect((await consume([{ type: "deliver", deliveryId: delivery.id }])).explicitAcks).toEqual(["message-0"]);
    expect(await received(endpoint.route)).toEqual([]);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?")
      .bind(endpoint.id)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it(`keeps finished deliveries in the log ${DELIVERIES_KEPT_DAYS} days (the daily upkeep), pending ones until they finish`, async () => {
    await importRecords(syntheticBrand("HO-KEPT", 1));
    const endpoint = await endpointAtReceiver(["HO-KEPT"]);
    await adminAs(DEVELOPMENT, "POST", `/webhooks/${endpoint.id}/test`);
    await touch("HO-KEPT", "Still pending.");
    await dispatch();
    const ctx = createExecutionContext();
    const scheduledTime = Date.now() + (DELIVERIES_KEPT_DAYS + 1) * 86_400_000;
    void worker.scheduled(createScheduledController({ scheduledTime, cron: "17 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(["pending"]);
  });

  it("ignores a message it cannot read", async () => {
    expect((await consume([{ type: "unknown" } as never])).explicitAcks).toEqual(["message-0"]);
  });
});

describe("what each endpoint is sent is its brands' alone", () => {
  it("delivers Aurora's change to Aurora's endpoint and Boreal's to Boreal's, never across", async () => {
    const aurora = await endpointAtReceiver(["HO-AUR"]);
    const boreal = await endpointAtReceiver(["HO-BOR"]);
    await importRecords([
      withNewAnswer(fixtureRecords(["HO-AUR-0042"])[0]!, "Aurora's news."),
      withNewAnswer(fixtureRecords(["HO-BOR-0042"])[0]!, "Boreal's news."),
    ]);
    await dispatch();
    for (const endpoint of [aurora, boreal]) {
      for (const delivery of await pending(endpoint.id)) await deliverNext({ ...env, ...DEVELOPMENT }, delivery.id);
    }
    const ids = async (route: string) =>
      (await received(route)).flatMap((r) => JSON.parse(r.body).data.changes.map((c: any) => c.entityId));
    expect(await ids(aurora.route)).toEqual(["HO-AUR-0042"]);
    expect(await ids(boreal.route)).toEqual(["HO-BOR-0042"]);
  });
});
