import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("serves the roster", async () => {
  const t = Date.now();
  const res = await SELF.fetch("https://api.example.com/api/v3/content/HO-AUR/properties", { headers: { "X-API-Key": "demo-key" } });
  console.log(res.status, [...res.headers], Date.now() - t);
  const body = await res.json<any>();
  expect(body.count).toBe(120);
  const g = await SELF.fetch("https://api.example.com/api/v3/content/HO-AUR/faq.json?includeCategory=1", { headers: { "X-API-Key": "demo-key" } });
  console.log(g.status, (await g.text()).slice(0, 600));
});
