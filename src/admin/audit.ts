import type { Context } from "hono";
import { insertAudit } from "../storage/admin-audit";
import type { AdminEnv } from "./auth";

/**
 * The audit row of a change, to go in the same D1 batch as the change itself, so a change is never
 * made without its record (or recorded without being made).
 */
export const audit = (c: Context<AdminEnv>, action: string, target: string, detail?: unknown): D1PreparedStatement =>
  insertAudit(c.env.DB, { at: new Date().toISOString(), actor: c.get("operator"), action, target, detail });
