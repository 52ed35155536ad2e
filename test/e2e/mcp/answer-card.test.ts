import AxeBuilder from "@axe-core/playwright";
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ClientCapabilities } from "@modelcontextprotocol/client";
import { build } from "esbuild";
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib/servers.mjs";
import { devServer, realmTokenResponse } from "../support/dev-server";
import { chromiumBrowser } from "../support/browser";

/**
 * The answer card (MCP Apps) as a host shows it: real tool results from `npm run dev` through the MCP SDK, rendered in
 * Chromium inside a test host built on `@modelcontextprotocol/ext-apps`' own host side (AppBridge), in a sandboxed
 * frame under the policy an empty allow-list gives. With UPDATE_SCREENSHOTS=1 each card is kept in docs/images/.
 */

const server = devServer();
const APPS: ClientCapabilities = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const RESORT = "HO-KES-0002";

const chromium = chromiumBrowser();
let hostScript: string;

beforeAll(async () => {
  // The host: ext-apps' AppBridge over postMessage to a sandboxed frame, as a web host embeds a card.
  const bundled = await build({
    stdin: {
      contents: `
        import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
        window.opened = [];
        window.showCard = async (html, args, result, hostContext) => {
          const frame = document.createElement("iframe");
          frame.setAttribute("sandbox", "allow-scripts");
          frame.title = "Answer";
          frame.style.cssText = "width:480px;height:120px;border:1px solid #888;border-radius:8px;display:block";
          document.querySelector("main").replaceChildren(frame);
          const bridge = new AppBridge(null, { name: "test-host", version: "1.0.0" }, { openLinks: {} }, { hostContext });
          bridge.onsizechange = ({ height }) => { if (height) frame.style.height = height + "px"; };
          bridge.onopenlink = async ({ url }) => { window.opened.push(url); return {}; };
          const ready = new Promise((resolve) => bridge.addEventListener("initialized", resolve));
          await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
          // What the empty allow-list means: nothing may be loaded or fetched, only the document's own inline code.
          const policy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'";
          frame.srcdoc = html.replace("<head>", '<head><meta http-equiv="Content-Security-Policy" content="' + policy + '">');
          await ready;
          await bridge.sendToolInput({ arguments: args });
          await bridge.sendToolResult(result);
          window.bridge = bridge;
        };`,
      resolveDir: ROOT,
      loader: "js",
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "error",
  });
  hostScript = bundled.outputFiles[0]!.text;
});

async function connect(clientId: string, secret: string, capabilities: ClientCapabilities = {}, pin?: string): Promise<Client> {
  const { access_token } = await (await realmTokenResponse(server.origin, clientId, secret)).json();
  const client = new Client(
    { name: "card-host", version: "1.0.0" },
    { capabilities, ...(pin ? { versionNegotiation: { mode: { pin } } } : { supportedProtocolVersions: ["2025-11-25"] }) },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.origin}/v1/sse`), {
      requestInit: { headers: { Authorization: `Bearer ${access_token}` } },
    }),
  );
  return client;
}

const light = { theme: "light", styles: { variables: { "--font-text-md-size": "16px" } } };
const dark = { theme: "dark", styles: { variables: { "--color-background-primary": "#1b1b1f", "--font-text-md-size": "18px" } } };

/** The card rendered in the test host with a call's arguments and result; the frame, once it shows the confidence. */
async function render(page: Page, html: string, [args, result]: readonly [object, CallToolResult], hostContext: object) {
  await page.setContent(
    `<!doctype html><html lang="en"><head><title>Test host</title></head><body><main></main><script>${hostScript}</script></body></html>`,
  );
  await page.evaluate(([h, a, r, c]) => (window as any).showCard(h, a, r, c), [html, args, result, hostContext] as const);
  const frame = page.frameLocator("iframe");
  await frame.locator(".confidence").waitFor();
  return frame;
}

async function accessibilityProblems(page: Page, name: string): Promise<string[]> {
  if (process.env.UPDATE_SCREENSHOTS === "1") {
    mkdirSync("docs/images", { recursive: true });
    await page.locator("iframe").screenshot({ path: `docs/images/answer-card-${name}.png` });
  }
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]).analyze();
  return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(" ")}`));
}

describe("the answer card", () => {
  it("is offered to hosts that show MCP Apps: the tools point to it, it reads as one self-contained document", async () => {
    const client = await connect("kestrel-assistant", "kestrel-secret", APPS);
    const { tools } = await client.listTools();
    const withCard = tools.filter((t) => (t._meta as any)?.ui?.resourceUri).map((t) => t.name);
    expect(withCard).toEqual(["service_query", "service_search_documents"]);
    const uri = (tools[0]!._meta as any).ui.resourceUri;
    const { contents } = await client.readResource({ uri });
    expect(contents[0]).toMatchObject({ uri, mimeType: "text/html;profile=mcp-app", _meta: { ui: { csp: {} } } });
    const html = (contents[0] as { text: string }).text;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    await client.close();
  });

  it("gives a host without MCP Apps exactly the result it always had, and the model the same text", async () => {
    const plain = await connect("kestrel-assistant", "kestrel-secret");
    const apps = await connect("kestrel-assistant", "kestrel-secret", APPS);
    const args = { name: "service_query", arguments: { entity: RESORT, question: "Is the main pool heated?", limit: 3 } };
    const before = await plain.callTool(args);
    const withCard = await apps.callTool(args);
    expect(before).not.toHaveProperty("_meta");
    const { _meta, ...rest } = withCard;
    expect(rest).toEqual(before);
    expect(_meta).toEqual({ "hospitality-content/answer-card": { pages: { [RESORT]: expect.stringMatching(/^https?:\/\//) } } });
    await Promise.all([plain.close(), apps.close()]);
  });

  it("shows a high, a low and a none answer, in English and Portuguese, light and dark, clean for axe-core, loading nothing", async () => {
    const kestrel = await connect("kestrel-assistant", "kestrel-secret", APPS, "2026-07-28");
    const aurora = await connect("aurora-assistant", "aurora-secret", APPS);
    const html = ((await kestrel.readResource({ uri: "ui://hospitality-content/card.html" })).contents[0] as { text: string }).text;
    const query = async (client: Client, entity: string, question: string, language?: string) => {
      const args = { entity, question, limit: 3, ...(language ? { language } : {}) };
      return [args, await client.callTool({ name: "service_query", arguments: args })] as const;
    };

    const context = await chromium.browser.newContext({ viewport: { width: 560, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused/.test(message.text())) refused.push(message.text());
    });

    const high = await render(page, html, await query(kestrel, RESORT, "Is the main pool heated?"), light);
    expect(await high.locator(".entity").textContent()).toBe("Kestrel Praia Dourada Resort & Spa");
    expect(await high.locator(".confidence").textContent()).toBe("Answered by the hotel's own information");
    expect(await high.locator("h2").textContent()).toBe("Is the main pool heated?");
    expect(await high.locator("article").first().getAttribute("lang")).toBe("en");
    expect(await high.locator("details summary").textContent()).toMatch(/^Other answers found \(2\)$/);
    expect(await accessibilityProblems(page, "high")).toEqual([]);
    // The other FAQs open by keyboard; the page link opens through the host.
    await high.locator("details summary").focus();
    await page.keyboard.press("Enter");
    expect(await high.locator("details").getAttribute("open")).toBe("");
    await high.locator(".source a").click();
    expect(await page.evaluate(() => (window as any).opened)).toHaveLength(1);

    const low = await render(page, html, await query(kestrel, RESORT, "Is the main pool heated in winter?"), light);
    expect(await low.locator(".confidence").textContent()).toBe("Related, but may not answer exactly");
    expect(await low.locator("h2").textContent()).toBe("Is the main pool heated?");
    expect(await accessibilityProblems(page, "low")).toEqual([]);

    const none = await render(page, html, await query(kestrel, RESORT, "can we bring our dog along?"), dark);
    expect(await none.locator(".confidence").textContent()).toBe("This hotel's information does not say");
    expect(await none.locator("h2").count()).toBe(0);
    expect(await none.locator(".source a").textContent()).toBe("The hotel's page");
    expect(await none.locator("html").getAttribute("data-theme")).toBe("dark");
    expect(await accessibilityProblems(page, "none-dark")).toEqual([]);

    const portuguese = await render(page, html, await query(aurora, "Aurora Seville Old Town", "há estacionamento?", "pt"), dark);
    expect(await portuguese.locator(".confidence").textContent()).toBe("Respondido pela informação do próprio hotel");
    expect(await portuguese.locator("article").first().getAttribute("lang")).toBe("pt");
    expect(await portuguese.locator("html").getAttribute("lang")).toBe("pt");
    expect(await portuguese.locator("body").evaluate((body) => getComputedStyle(body).fontSize)).toBe("18px");
    expect(await accessibilityProblems(page, "pt-dark")).toEqual([]);

    // A call the tool refused is shown as no answer, never as an answered one.
    const refusedArgs = { entity: RESORT, question: "pool?", limit: 500 };
    const refusedCall = await kestrel.callTool({ name: "service_query", arguments: refusedArgs });
    expect(refusedCall.isError).toBe(true);
    const failed = await render(page, html, [refusedArgs, refusedCall], light);
    expect(await failed.locator(".confidence").textContent()).toBe("No answer could be given");
    expect(await failed.locator("h2").count()).toBe(0);

    // The card fetched nothing, and nothing was refused: it needs nothing beyond its own document.
    expect(requests.filter((url) => !url.startsWith("about:") && !url.startsWith("data:"))).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
    await Promise.all([kestrel.close(), aurora.close()]);
  });
});
