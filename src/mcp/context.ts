import type { Env } from "../env";
import type { Principal } from "../identity/verify";

/** What every /v1/sse handler sees: the bindings, the verified caller, and the POST body once parsed. */
export type McpEnv = { Bindings: Env; Variables: { principal: Principal; jsonBody?: Promise<unknown> } };
