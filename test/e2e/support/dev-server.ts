import { afterAll, beforeAll, inject } from "vitest";
import { startDevServer } from "../../../scripts/lib/servers.mjs";

type DevServer = Awaited<ReturnType<typeof startDevServer>>;
type DevServerOptions = Parameters<typeof startDevServer>[0];

declare module "vitest" {
  export interface ProvidedContext {
    /** A state directory with every migration applied, made once for the run by test/e2e/global-setup.mjs. */
    migratedState: string;
  }
}

/**
 * `npm run dev` for the file's tests: started before them on a free port with a fresh state directory, a copy of
 * the run's migrated one (and the options `options()` returns then), stopped by process ID after them.
 */
export function devServer(options: () => DevServerOptions = () => ({})): { readonly origin: string; output(): string } {
  let server: DevServer | undefined;
  beforeAll(async () => {
    // Files start their servers side by side: a port picked free may be taken by another file's wrangler before this
    // one binds it, which `npm run dev` refuses before it starts anything; then it is tried on another free port.
    for (let attempt = 1; ; attempt += 1) {
      try {
        server = await startDevServer({ from: inject("migratedState"), ...options() });
        return;
      } catch (error) {
        if (attempt >= 3 || !String(error).includes("is already in use")) throw error;
      }
    }
  });
  afterAll(async () => {
    await server?.stop();
  });
  const started = (): DevServer => {
    if (!server) throw new Error("npm run dev has not started");
    return server;
  };
  return {
    get origin() {
      return started().origin;
    },
    output: () => started().output(),
  };
}

/** The realm's token endpoint at `origin`, asked with client credentials (the fixture's aurora-assistant by default). */
export const realmTokenResponse = (origin: string, clientId = "aurora-assistant", clientSecret = "aurora-secret"): Promise<Response> =>
  fetch(`${origin}/realms/hospitality/protocol/openid-connect/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
