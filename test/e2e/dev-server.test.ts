import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer } from "../../scripts/lib/servers.mjs";

let server: Awaited<ReturnType<typeof startDevServer>>;

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

describe("npm run dev", () => {
  it("applies migrations, loads the demo fixture and prints the demo credentials", () => {
    const output = server.output();
    expect(output).toContain("0001_content_and_access.sql");
    expect(output).toContain("Demo fixture: loaded into the empty local database");
    for (const credential of ["demo-key", "demo-key-small", "bench-key", "aurora-assistant / aurora-secret", "boreal-assistant / boreal-secret", "orphan-client / orphan-secret", "dev-admin-token"]) {
      expect(output).toContain(credential);
    }
  });

  it("serves the content API with the fixture over plain HTTP on loopback", async () => {
    const res = await fetch(`${server.origin}/api/v3/content/HO-AUR/properties`, { headers: { "X-API-Key": "demo-key" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toMatch(/^W\/"[0-9a-f]{16}"$/);
    const body = (await res.json()) as { count: number };
    expect(body.count).toBe(120);
    const etag = res.headers.get("ETag")!;
    const again = await fetch(`${server.origin}/api/v3/content/HO-AUR/properties`, { headers: { "X-API-Key": "demo-key", "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  it("reports healthy dependencies", async () => {
    const res = await fetch(`${server.origin}/health`);
    expect(await res.json()).toMatchObject({ status: "healthy", mongodb: { connected: true }, redis: { connected: true } });
  });
});
