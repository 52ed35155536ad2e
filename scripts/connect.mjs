#!/usr/bin/env node
// `npm run connect`: the connector flow for a person at this computer, as an assistant runs it. It listens
// on a loopback callback, opens the sign-in page with an S256 challenge, exchanges the code, prints the
// token and lists the tools with it. `--url` points it at a deployed service.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import * as oauth from "oauth4webapi";
import { devOrigin } from "./lib/dev-origin.mjs";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: devOrigin() },
    "client-id": { type: "string", default: "demo-connector" },
    port: { type: "string", default: "8976" },
    "no-open": { type: "boolean", default: false },
    "timeout-seconds": { type: "string", default: "300" },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log(`Usage: npm run connect -- [--url <MCP origin>] [--client-id <id>] [--port <n>] [--no-open]

Signs you in to the service the way an assistant does (OAuth 2.1, PKCE S256, a loopback callback on
http://localhost:<port>/callback, listening on 127.0.0.1 and ::1 only), then prints an access token and the
tools it can call.

  --url         the service's MCP origin (default ${devOrigin()}, npm run dev; on another port, the origin it printed)
  --client-id   a connector client whose redirect URIs include http://localhost:<port>/callback
                (default demo-connector, the demo fixture's; on a deployment: npm run admin -- connector-client create)
  --port        the callback's port (default 8976; any port works for a loopback URI)
  --no-open     print the sign-in URL instead of opening a browser`);
  process.exit(0);
}

const origin = new URL(values.url).origin;
const issuer = new URL(origin);
// Plain http is only for a service on this computer.
const insecure = ["localhost", "127.0.0.1", "[::1]"].includes(issuer.hostname) ? { [oauth.allowInsecureRequests]: true } : {};
const fail = (message) => {
  console.error(`error: ${message}`);
  process.exit(1);
};

let as;
try {
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
} catch (error) {
  fail(
    `could not read ${origin}/.well-known/oauth-authorization-server (${error.message}). Is the service running? npm run dev ` +
      `(on another port: --url with the origin it printed)`,
  );
}

const client = { client_id: values["client-id"] };
const verifier = oauth.generateRandomCodeVerifier();
const state = oauth.generateRandomState();

/**
 * The callback's listeners, on the loopback addresses only (RFC 8252 §8.3): resolves with the callback of this
 * sign-in. Anything on this computer may call a loopback port, so a callback without this sign-in's state is
 * answered and ignored, and the wait goes on.
 */
function awaitCallback(port) {
  return new Promise((resolve, reject) => {
    const servers = [];
    const answer = (req, res) => {
      const url = new URL(req.url ?? "/", `http://localhost:${port}`);
      if (url.pathname !== "/callback") return res.writeHead(404).end();
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      if (url.searchParams.get("state") !== state) {
        return res.writeHead(400).end("This is not the sign-in this terminal started; it is ignored.");
      }
      const ok = url.searchParams.has("code");
      res
        .writeHead(ok ? 200 : 400)
        .end(
          ok
            ? "Connected. You can close this window and return to the terminal."
            : `Not connected: ${url.searchParams.get("error") ?? "no code"}.`,
        );
      for (const server of servers) server.close();
      resolve(url);
    };
    // "localhost" may be either address in the browser; a computer without IPv6 has no ::1 to listen on.
    for (const host of ["127.0.0.1", "::1"]) {
      const server = createServer(answer);
      server.on("error", (error) => (host === "::1" && error.code === "EADDRNOTAVAIL" ? undefined : reject(error)));
      server.listen({ port, host });
      servers.push(server);
    }
  });
}

const port = Number(values.port);
const redirectUri = `http://localhost:${port}/callback`;
const callback = awaitCallback(port).catch((error) => fail(`cannot listen on port ${port}: ${error.message}; try --port`));
const authorize = new URL(as.authorization_endpoint);
authorize.search = new URLSearchParams({
  response_type: "code",
  client_id: client.client_id,
  redirect_uri: redirectUri,
  code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
  code_challenge_method: "S256",
  scope: "mcp:tools",
  state,
}).toString();

console.log(`Sign in to ${origin} in your browser:\n\n  ${authorize}\n`);
if (!values["no-open"]) {
  const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  spawn(opener, [authorize.toString()], { stdio: "ignore", detached: true })
    .on("error", () => console.log("(No browser could be opened: open the address above yourself.)"))
    .unref();
}
console.log("Waiting for the sign-in to finish...");

const timer = setTimeout(() => fail("no sign-in within the time allowed"), Number(values["timeout-seconds"]) * 1000);
const returned = await callback;
clearTimeout(timer);

let tokens;
try {
  const params = oauth.validateAuthResponse(as, client, returned, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
  tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
} catch (error) {
  fail(`the sign-in did not complete: ${error.error_description ?? error.error ?? error.message}`);
}

const transport = new StreamableHTTPClientTransport(new URL(`${origin}/v1/sse`), {
  requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
});
const mcp = new Client({ name: "npm-run-connect", version: "1.0.0" });
await mcp.connect(transport);
const { tools } = await mcp.listTools();
await transport.terminateSession();
await mcp.close();

console.log(`
Connected. Access token (valid ${Math.round(tokens.expires_in / 60)} minutes):

  export TOKEN='${tokens.access_token}'

Refresh token (rotated at each use; the grant lasts 30 days): ${tokens.refresh_token}

tools/list at ${origin}/v1/sse: ${tools.map((tool) => tool.name).join(", ")}
`);
