// Runs in Node before the workers project: a webhook receiver the tests in workerd reach over loopback
// (TEST_WEBHOOK_RECEIVER), stopped when the run ends.
import { startWebhookReceiver } from "../../scripts/lib/webhook-receiver.mjs";

export default async function setup({ provide }) {
  const receiver = await startWebhookReceiver();
  provide("webhookReceiver", receiver.origin);
  return () => receiver.stop();
}
