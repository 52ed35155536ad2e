import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import type { McpEndpoint } from "../http/mcp-endpoints";
import type { Principal } from "../identity/verify";
import { stillAuthorized } from "./auth";

/** What a session is bound to; every later call must present a token of the same client and organization. */
export type SessionOwner = Principal;

export interface SessionRecord extends SessionOwner {
  /** The endpoint that opened the session, whose tools it serves (absent in records older than the second endpoint). */
  endpoint?: McpEndpoint;
  protocolVersion: string;
  clientInfo: { name: string; version: string } | null;
  /** Whether the client declared MCP Apps at `initialize` (card/answer-card.ts); absent in older records. */
  showsAnswerCard?: boolean;
  createdAt: number;
  lastSeenAt: number;
  idleMs: number;
  maxMs: number;
}

/** How a worker asks the session object for its event stream (the body of the object's `fetch`). */
export interface StreamRequest {
  owner: SessionOwner;
  /** The first event, written at once: a comment, or the HTTP+SSE transport's `endpoint` event. */
  first: string;
  keepAliveMs: number;
}

const KEY = "session";
// Activity is written to storage at most this often: a call in between only moves the record in memory.
// After an eviction the session may therefore look idle for up to this much longer than it was.
export const ACTIVITY_WRITE_INTERVAL_MS = 30_000;
// How far a client may fall behind reading its stream before the stream is closed.
const MAX_UNREAD_BYTES = 1024 * 1024;
const encoder = new TextEncoder();

/**
 * One MCP session (DESIGN §4), named by its session ID. Its record lives in the object's SQLite
 * storage, so the session outlives the object's eviction from memory; an alarm ends it at idle or
 * absolute expiry, whichever comes first. The session's event stream (the streamable-HTTP GET stream,
 * or the whole HTTP+SSE transport) is served from here too, so any isolate can deliver to it.
 */
export class McpSession extends DurableObject<Env> {
  private stream: { writer: WritableStreamDefaultWriter<Uint8Array>; timer: ReturnType<typeof setInterval> } | null = null;
  /** The record as last read or written (undefined: not read since the object started); storage is the authority. */
  private record: SessionRecord | null | undefined;
  private persistedSeenAt = 0;

  async open(record: SessionRecord): Promise<void> {
    await this.save(record);
  }

  /**
   * The live session if `owner` owns it, recording the activity; null when unknown, ended, expired or
   * not theirs. The common call answers from memory; the activity reaches storage (and the expiry
   * alarm) every ACTIVITY_WRITE_INTERVAL_MS.
   */
  async touch(owner: SessionOwner): Promise<SessionRecord | null> {
    const now = Date.now();
    const record = await this.live(now);
    if (!record || !ownedBy(record, owner)) return null;
    const touched = { ...record, lastSeenAt: now };
    if (now - this.persistedSeenAt >= ACTIVITY_WRITE_INTERVAL_MS) await this.save(touched);
    else this.record = touched;
    return touched;
  }

  /** Records what the `initialize` of an HTTP+SSE session negotiated. */
  async handshake(owner: SessionOwner, fields: Pick<SessionRecord, "protocolVersion" | "clientInfo" | "showsAnswerCard">): Promise<void> {
    const record = await this.touch(owner);
    if (record) await this.save({ ...record, ...fields });
  }

  /** Ends the session; false when there was no live session of `owner` to end. */
  async terminate(owner: SessionOwner): Promise<boolean> {
    const record = await this.live(Date.now());
    if (!record || !ownedBy(record, owner)) return false;
    await this.end();
    return true;
  }

  /**
   * Writes server-sent events on the open stream; false when the session is not `owner`'s live
   * session or has no open stream (the client reconnects).
   */
  async deliver(owner: SessionOwner, events: string[]): Promise<boolean> {
    if (!this.stream || !(await this.touch(owner))) return false;
    return events.every((event) => this.write(event));
  }

  /**
   * Queues an event without waiting for the client to read it, so a slow reader never holds up the
   * POST that produced it; a client more than MAX_UNREAD_BYTES behind loses its stream instead.
   */
  private write(event: string): boolean {
    const writer = this.stream?.writer;
    if (!writer || writer.desiredSize === null || writer.desiredSize <= 0) {
      this.closeStream();
      return false;
    }
    writer.write(encoder.encode(event)).catch(() => this.closeStream());
    return true;
  }

  /**
   * The session's event stream (one at a time: a new one replaces the old). Each keep-alive touches
   * the session and asks again whether the caller still has access, so the stream ends with the
   * session (DELETE, expiry) or the access (a disabled user, a deleted client, which also ends the
   * session); it also ends cleanly when storage fails, never hanging.
   */
  override async fetch(request: Request): Promise<Response> {
    const { owner, first, keepAliveMs } = await request.json<StreamRequest>();
    if (!(await this.touch(owner))) return new Response(null, { status: 404 });
    this.closeStream();
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(
      {},
      new ByteLengthQueuingStrategy({ highWaterMark: MAX_UNREAD_BYTES }),
    );
    const timer = setInterval(() => void this.keepAlive(owner), keepAliveMs);
    this.stream = { writer: writable.getWriter(), timer };
    this.write(first);
    return new Response(readable, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" } });
  }

  /** One keep-alive of the stream: ends the session when access is gone, closes the stream when storage fails. */
  private async keepAlive(owner: SessionOwner): Promise<void> {
    try {
      const authorized = await stillAuthorized(this.env, owner);
      if (!authorized) await this.end();
      else if (await this.touch(owner)) this.write(": keep-alive\n\n");
      else this.closeStream();
    } catch {
      this.closeStream();
    }
  }

  override async alarm(): Promise<void> {
    const record = await this.read();
    if (!record) return;
    // Activity may have moved the deadline since the alarm was set.
    if (expiresAt(record) <= Date.now()) await this.end();
    else await this.save(record);
  }

  private async read(): Promise<SessionRecord | null> {
    if (this.record === undefined) {
      this.record = (await this.ctx.storage.get<SessionRecord>(KEY)) ?? null;
      this.persistedSeenAt = this.record?.lastSeenAt ?? 0;
    }
    return this.record;
  }

  private async save(record: SessionRecord): Promise<void> {
    await this.ctx.storage.put(KEY, record);
    await this.ctx.storage.setAlarm(expiresAt(record));
    this.record = record;
    this.persistedSeenAt = record.lastSeenAt;
  }

  private async live(now: number): Promise<SessionRecord | null> {
    const record = await this.read();
    if (!record) return null;
    // The alarm may run late: expiry is also checked on every call.
    if (expiresAt(record) <= now) {
      await this.end();
      return null;
    }
    return record;
  }

  private closeStream(): void {
    if (!this.stream) return;
    clearInterval(this.stream.timer);
    void this.stream.writer.close().catch(() => {});
    this.stream = null;
  }

  private async end(): Promise<void> {
    this.closeStream();
    this.record = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }
}

/** The McpSession object of `sessionId`. */
export const sessionObject = (env: Pick<Env, "MCP_SESSION">, sessionId: string) =>
  env.MCP_SESSION.get(env.MCP_SESSION.idFromName(sessionId)) as DurableObjectStub<McpSession>;

const expiresAt = (r: SessionRecord): number => Math.min(r.lastSeenAt + r.idleMs, r.createdAt + r.maxMs);
// A connector session belongs to one grant: after re-authorizing (or being revoked) a client opens a new one.
const ownedBy = (r: SessionRecord, owner: SessionOwner): boolean =>
  r.organizationId === owner.organizationId &&
  r.issuer === owner.issuer &&
  r.clientId === owner.clientId &&
  r.grant?.id === owner.grant?.id;
