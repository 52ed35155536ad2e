import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import type { Principal } from "../identity/verify";

/** What a session is bound to; every later call must present a token of the same client and organization. */
export type SessionOwner = Principal;

export interface SessionRecord extends SessionOwner {
  protocolVersion: string;
  clientInfo: { name: string; version: string } | null;
  createdAt: number;
  lastSeenAt: number;
  idleMs: number;
  maxMs: number;
}

const KEY = "session";

/**
 * One MCP session (DESIGN §4), named by its session ID. Its record lives in the object's SQLite
 * storage, so the session outlives the object's eviction from memory; an alarm ends it at idle or
 * absolute expiry, whichever comes first.
 */
export class McpSession extends DurableObject<Env> {
  async open(record: SessionRecord): Promise<void> {
    await this.ctx.storage.put(KEY, record);
    await this.ctx.storage.setAlarm(expiresAt(record));
  }

  /** The live session if `owner` owns it, recording the activity; null when unknown, ended, expired or not theirs. */
  async touch(owner: SessionOwner): Promise<SessionRecord | null> {
    const now = Date.now();
    const record = await this.live(now);
    if (!record || !ownedBy(record, owner)) return null;
    const touched = { ...record, lastSeenAt: now };
    await this.ctx.storage.put(KEY, touched);
    await this.ctx.storage.setAlarm(expiresAt(touched));
    return touched;
  }

  /** Ends the session; false when there was no live session of `owner` to end. */
  async terminate(owner: SessionOwner): Promise<boolean> {
    const record = await this.live(Date.now());
    if (!record || !ownedBy(record, owner)) return false;
    await this.end();
    return true;
  }

  override async alarm(): Promise<void> {
    const record = await this.ctx.storage.get<SessionRecord>(KEY);
    if (!record) return;
    if (expiresAt(record) <= Date.now()) await this.end();
    else await this.ctx.storage.setAlarm(expiresAt(record));
  }

  private async live(now: number): Promise<SessionRecord | null> {
    const record = await this.ctx.storage.get<SessionRecord>(KEY);
    if (!record) return null;
    // The alarm may run late: expiry is also checked on every call.
    if (expiresAt(record) <= now) {
      await this.end();
      return null;
    }
    return record;
  }

  private async end(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }
}

const expiresAt = (r: SessionRecord): number => Math.min(r.lastSeenAt + r.idleMs, r.createdAt + r.maxMs);
// A connector session belongs to one grant: after re-authorizing (or being revoked) a client opens a new one.
const ownedBy = (r: SessionRecord, owner: SessionOwner): boolean =>
  r.organizationId === owner.organizationId && r.clientId === owner.clientId && r.grant?.id === owner.grant?.id;
