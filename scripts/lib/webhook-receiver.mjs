// A partner's webhook receiver on this machine, for tests: every request to /<route> is checked with the
// standardwebhooks package (the signature, with the route's secret) and answered as the route says, one step
// per request, the last step repeating: a status, or { status, delayMs } to answer late (past a sender's timeout).
// The tests in this process use the returned object; workerd tests use the same over HTTP:
//   PUT /_routes/<route> {"secret":"whsec_…","answers":[500,500,200]}   GET /_routes/<route>   (what it received)
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

function verify(secret, body, headers) {
  if (!secret) return { verified: false, error: "no secret for this route" };
  try {
    new Webhook(secret).verify(body, headers);
    return { verified: true, error: null };
  } catch (error) {
    return { verified: false, error: String(error.message ?? error) };
  }
}

/**
 * @typedef {number | { status: number, delayMs: number }} Answer  a status, or one given after a delay
 * @typedef {{ secret?: string | null, answers?: Answer[] }} RouteOptions
 */

/** Starts the receiver on a free loopback port; stop() closes it and every connection it holds. */
export async function startWebhookReceiver() {
  const routes = new Map();
  const route = (name) => {
    if (!routes.has(name)) routes.set(name, { secret: null, answers: [200], received: [] });
    return routes.get(name);
  };
  const timers = new Set();

  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://receiver").pathname;
    const body = await readBody(req);
    const control = /^\/_routes\/([\w-]+)$/.exec(path);
    if (control && req.method === "PUT") {
      const { secret = null, answers = [200] } = JSON.parse(body);
      Object.assign(route(control[1]), { secret, answers });
      return res.writeHead(204).end();
    }
    if (control && req.method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify(route(control[1]).received));
    }
    const target = route(path.slice(1) || "(root)");
    const step = target.answers[Math.min(target.received.length, target.answers.length - 1)];
    const { status, delayMs = 0 } = typeof step === "number" ? { status: step } : step;
    const headers = {
      "webhook-id": req.headers["webhook-id"],
      "webhook-timestamp": req.headers["webhook-timestamp"],
      "webhook-signature": req.headers["webhook-signature"],
    };
    target.received.push({
      method: req.method,
      webhookId: headers["webhook-id"] ?? null,
      timestamp: headers["webhook-timestamp"] ?? null,
      contentType: req.headers["content-type"] ?? null,
      ...verify(target.secret, body, headers),
      answered: status,
      delayMs,
      body,
    });
    const answer = () => {
      if (!res.destroyed) res.writeHead(status, status >= 300 && status < 400 ? { Location: "https://elsewhere.example/" } : {}).end();
    };
    if (delayMs === 0) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, delayMs);
    timers.add(timer);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;

  return {
    origin,
    /**
     * Sets how `/<name>` answers and the secret it verifies with.
     * @param {string} name
     * @param {RouteOptions} [options]
     */
    route: (name, { secret = null, answers = [200] } = {}) => Object.assign(route(name), { secret, answers }),
    /** What `/<name>` received, oldest first. */
    received: (name) => route(name).received,
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
