import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib/servers.mjs";
import { startWebhookReceiver } from "../../../scripts/lib/webhook-receiver.mjs";
import { devServer } from "../support/dev-server";
import { runNode, type Run } from "../support/processes";

/**
 * A partner keeping a brand in sync against `npm run dev`: the brand stream and the change feed, and webhooks
 * delivered through the real queue (Cloudflare Queues in wrangler dev) to a receiver on this machine that
 * verifies every signature with the standardwebhooks package. Retries are 1 s apart and receivers have 1 s to
 * answer here, so a whole retry schedule runs within seconds.
 */

const server = devServer(() => ({ vars: { WEBHOOK_RETRY_DELAYS: "1,1,1", WEBHOOK_TIMEOUT_MS: "1000" } }));
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let dir: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  dir = mkdtempSync(join(tmpdir(), "partner-sync-"));
});

afterAll(async () => {
  await receiver?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]): Promise<Run> =>
  runNode(join(ROOT, "scripts", "admin.mjs"), args, { env: { ...process.env, ADMIN_URL: server.origin }, input: "" });

async function json(args: string[]): Promise<any> {
  const run = await cli(["--json", ...args]);
  if (run.code !== 0) throw new Error(`admin ${args.join(" ")}: exit ${run.code}\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Waits until `check` returns something truthy (the queue works in the background), at most `timeoutMs`. */
async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const content = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}${path}`, { headers: { "X-API-Key": "demo-key", ...headers } });

describe("the brand stream and the change feed against npm run dev", () => {
  it("streams HO-BOR (1,201 FAQPages) in one request, then answers If-None-Match with 304", async () => {
    const res = await content("/api/v3/content/HO-BOR/faq.ndjson");
    expect(res.status).toBe(200);
    const remaining = Number(res.headers.get("X-RateLimit-Remaining"));
    const lines = (await res.text()).trimEnd().split("\n");
    expect(lines).toHaveLength(1201);
    expect(JSON.parse(lines[1]!).entityId).toBe("HO-BOR-0001");
    const again = await content("/api/v3/content/HO-BOR/faq.ndjson", { "If-None-Match": res.headers.get("ETag")! });
    expect(again.status).toBe(304);
    expect(Number(again.headers.get("X-RateLimit-Remaining"))).toBe(remaining - 1);
    const feed = await content(`/api/v3/content/changes?brandId=HO-BOR&cursor=${res.headers.get("X-Changes-Cursor")}`);
    expect(await feed.json()).toMatchObject({ changes: [], hasMore: false });
  });
});

describe("webhooks through Cloudflare Queues, managed with npm run admin -- webhook", () => {
  it("has --help on every webhook command", async () => {
    for (const command of ["list", "show", "create", "deliveries", "test", "enable", "delete"]) {
      const run = await cli(["webhook", command, "--help"]);
      expect(run.code, command).toBe(0);
      expect(run.stdout).toMatch(/^Usage: npm run admin -- webhook /);
    }
  });

  it("refuses an endpoint on a private address or over plain http to a public host, with the server's reason", async () => {
    for (const [url, reason] of [
      ["https://10.0.0.7/hook", /10\.0\.0\.7 is a private, internal or reserved address/],
      ["https://169.254.169.254/latest", /private, internal or reserved/],
      ["http://hooks.partner.example/hook", /must use https/],
    ] as const) {
      const run = await cli(["webhook", "create", url, "--brand", "HO-CAS"]);
      expect(run.code, url).toBe(1);
      expect(run.stderr).toMatch(reason);
    }
    expect((await json(["webhook", "list"])).webhooks).toEqual([]);
  });

  it("delivers signed events, retries 500s and a timeout, and dead-letters an endpoint that keeps failing, visibly", async () => {
    const secrets = new Map<string, string>();
    const create = async (route: string, answers: NonNullable<Parameters<typeof receiver.route>[1]>["answers"]) => {
      const created = await json(["webhook", "create", `${receiver.origin}/${route}`, "--brand", "HO-CAS", "--description", route]);
      expect(created.secret).toMatch(/^whsec_/);
      secrets.set(route, created.secret);
      receiver.route(route, { secret: created.secret, answers });
      return created.id as string;
    };
    const flaky = await create("flaky", [500, 500, 200]);
    const slow = await create("slow", [{ status: 200, delayMs: 4_000 }, 200]);
    const down = await create("down", [500]);

    const file = join(dir, "casa.ndjson");
    const faq = { category: "Parking", question: "Is there parking?", answer: "Yes, next door." };
    writeFileSync(file, `${JSON.stringify({ id: "HO-CAS", kind: "brand", name: "Casa Nova Collection", faqs: [faq] })}\n`);
    expect((await cli(["content", "import", file])).code).toBe(0);

    // The 500s are retried until the third attempt succeeds; the timed-out attempt is retried and succeeds.
    await eventually(() => receiver.received("flaky").some((r: any) => r.answered === 200));
    await eventually(() => receiver.received("slow").length >= 2);
    // Every attempt of the failing endpoint fails: 1 + 3 retries, then the delivery is dead and the endpoint disabled.
    const disabled = await eventually(async () => {
      const shown = await json(["webhook", "show", down]);
      return shown.status === "disabled" && shown;
    });
    expect(disabled.disabledReason).toMatch(/failed all 4 attempts .*\(last: HTTP 500\)/);
    expect(receiver.received("down")).toHaveLength(4);

    for (const route of ["flaky", "slow", "down"]) {
      const got = receiver.received(route);
      expect(
        got.every((r: any) => r.verified),
        route,
      ).toBe(true);
      expect(new Set(got.map((r: any) => r.webhookId)).size, route).toBe(1);
      expect(JSON.parse(got[0].body)).toMatchObject({
        type: "content.changed",
        data: {
          changes: [{ entityId: "HO-CAS", kind: "brand", change: "upserted", url: `${server.origin}/api/v3/content/HO-CAS/faq.ndjson` }],
        },
      });
    }
    const [slowDelivery] = (await json(["webhook", "deliveries", slow])).deliveries;
    expect(slowDelivery.status).toBe("delivered");
    expect(slowDelivery.attempts[0]).toMatchObject({ responseStatus: null, error: "no answer within 1000 ms" });

    // What the operator sees: the dead delivery with its attempts, the disabled endpoint and why.
    const dead = await cli(["webhook", "deliveries", down, "--status", "dead"]);
    expect(dead.stdout.split("\n")[0]).toMatch(/^ID\s+EVENT\s+CHANGES\s+STATUS\s+ATTEMPTS\s+LAST RESULT\s+NEXT ATTEMPT\s+CREATED$/);
    expect(dead.stdout).toMatch(/msg_[0-9a-f]{24}\s+content\.changed\s+1\s+dead\s+4\s+HTTP 500/);
    const list = await cli(["webhook", "list"]);
    expect(list.stdout).toMatch(new RegExp(`${down}\\s+\\S+/down\\s+HO-CAS\\s+disabled\\s+0\\s+1\\s+Delivery msg_`));
    expect(list.stdout).toMatch(new RegExp(`${flaky}\\s+\\S+/flaky\\s+HO-CAS\\s+active`));

    // The operator checks the receiver, enables the endpoint again and removes the others.
    receiver.route("down", { secret: secrets.get("down"), answers: [200] });
    expect((await json(["webhook", "enable", down])).status).toBe("active");
    const test = await cli(["webhook", "test", down]);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/msg_[0-9a-f]{24}\s+webhook\.test\s+0\s+delivered\s+1\s+HTTP 200/);
    expect(receiver.received("down").at(-1)).toMatchObject({ verified: true, answered: 200 });
    for (const id of [flaky, slow]) expect((await cli(["webhook", "delete", id])).stdout).toContain(`Deleted webhook endpoint ${id}.`);
  });
});
