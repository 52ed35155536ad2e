import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { fetchWith } from "../support/app";
import { addPeople, CONSOLE, fieldOf, HELENA, INES, pageOf, postForm, signedIn, upload } from "../support/console";

/** What a review of the console found, each held by the test that failed before its fix. */

const VIEWER = { email: "vera@aurora.example", password: "aurora-console-viewer" };

beforeAll(async () => {
  await addPeople([
    { id: "person-vera", organizationId: "org-aurora", ...VIEWER, name: "Vera", grants: [{ role: "viewer", entity_id: "HO-AUR-0001" }] },
  ]);
});

describe("the console's review", () => {
  it("takes a disabled person's session for nothing, even one a disable did not end", async () => {
    const helena = await signedIn(HELENA);
    await pageOf(helena, "");
    await env.DB.prepare("UPDATE people SET disabled_at = ? WHERE email = ?").bind(new Date().toISOString(), HELENA.email).run();
    try {
      const res = await helena.request(`${CONSOLE}`);
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toMatch(/^\/console\/sign-in/);
    } finally {
      await env.DB.prepare("UPDATE people SET disabled_at = NULL WHERE email = ?").bind(HELENA.email).run();
    }
  });

  it("refuses a hotel's editor who moves the hotel to a brand they may not edit, and changes nothing", async () => {
    await env.DB.prepare("INSERT INTO organization_scopes (organization_id, entity_id) VALUES ('org-aurora', 'HO-BOR')").run();
    try {
      const helena = await signedIn(HELENA);
      const exported = await helena.request(`${CONSOLE}/export?scope=HO-AUR-0001&format=ndjson`);
      const lines = (await exported.text()).trimEnd().split("\n");
      const record = lines.map((line) => JSON.parse(line) as { id?: string; brandId?: string }).find((r) => r.id === "HO-AUR-0001")!;
      const moved = lines.map((line) => (JSON.parse(line).id === "HO-AUR-0001" ? JSON.stringify({ ...record, brandId: "HO-BOR" }) : line));
      const res = await upload(helena, "moved.ndjson", `${moved.join("\n")}\n`);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("HO-AUR-0001");
      const stored = await env.DB.prepare("SELECT brand_id FROM entities WHERE id = 'HO-AUR-0001'").first<{ brand_id: string }>();
      expect(stored!.brand_id).toBe("HO-AUR");
    } finally {
      await env.DB.prepare("DELETE FROM organization_scopes WHERE organization_id = 'org-aurora' AND entity_id = 'HO-BOR'").run();
    }
  });

  it("refuses an upload from a person who may edit nothing before reading the file", async () => {
    const vera = await signedIn(VIEWER);
    const home = await pageOf(vera, "");
    const csrf = fieldOf(home, "csrf");
    const form = new FormData();
    form.set("csrf", csrf);
    form.set("file", new File(['{"id":"HO-AUR-0001"}\n'], "x.ndjson", { type: "text/plain" }));
    const res = await vera.request(`${CONSOLE}/import`, { method: "POST", body: form });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("You can read content but not change it");
  });
});

describe("the console's error pages and headers (fourth review)", () => {
  const pageHeaders = (res: Response) => {
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
  };

  it("answers a path it has no page for with a page carrying every header; signed out, with the way to sign in", async () => {
    const res = await (await signedIn(INES)).request(`${CONSOLE}/no-such-page`);
    expect(res.status).toBe(404);
    pageHeaders(res);
    expect(await res.text()).toContain("There is no page here");
    const signedOut = await SELF.fetch(`${CONSOLE}/no-such-page`, { redirect: "manual" });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("Location")).toBe("/console/sign-in");
  });

  it("answers a failure with a page, never JSON or a stack trace", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const ines = await signedIn(INES);
    const cookie = `__Host-console-session=${ines.cookie("__Host-console-session")}`;
    const failing = { prepare: () => failing, bind: () => failing, first: () => Promise.reject(new Error("D1_ERROR: boom")) };
    const res = await fetchWith(new Request(`${CONSOLE}`, { headers: { Cookie: cookie } }), { DB: failing as unknown as D1Database });
    expect(res.status).toBe(500);
    pageHeaders(res);
    const text = await res.text();
    expect(text).toContain("Something went wrong");
    expect(text).not.toMatch(/boom|\.ts:\d+/);
    logged.mockRestore();
  });

  it("answers a POST to /console with a valid session as a missing page, not a 500", async () => {
    const ines = await signedIn(INES);
    const res = await postForm(ines, "", { csrf: fieldOf(await pageOf(ines, ""), "csrf") });
    expect(res.status).toBe(404);
    pageHeaders(res);
  });

  it("marks exports nosniff", async () => {
    const res = await (await signedIn(INES)).request(`${CONSOLE}/export?scope=HO-AUR-0001&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
  });
});
