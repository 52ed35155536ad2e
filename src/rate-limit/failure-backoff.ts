import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** Failures allowed before any wait, then the first wait; each further failure doubles it, up to the cap. */
export const FREE_FAILURES = 5;
export const FIRST_WAIT_S = 30;
export const MAX_WAIT_S = 3600;
/** A day without failures forgets them. */
const FORGET_AFTER_MS = 86_400_000;

interface Failures {
  count: number;
  lastAt: number;
}

/** Seconds to wait after `count` failures, the last at `lastAt`, before the next attempt (0: go ahead). */
export function backoffSeconds(failures: Failures | undefined, now: number): number {
  if (!failures || failures.count < FREE_FAILURES || now - failures.lastAt > FORGET_AFTER_MS) return 0;
  const wait = Math.min(FIRST_WAIT_S * 2 ** (failures.count - FREE_FAILURES), MAX_WAIT_S);
  return Math.max(0, Math.ceil((failures.lastAt + wait * 1000 - now) / 1000));
}

/**
 * Failed attempts of one kind by one caller (a sign-in e-mail from one address): a few are free, then
 * each must wait longer than the last. A success forgets them. One object per pair, so one caller's
 * failures never delay another's.
 */
export class FailureBackoff extends DurableObject<Env> {
  /**
   * Seconds to wait before the next attempt may be checked, or 0 with the attempt counted as a failure already:
   * reserved before the password is checked, so however many arrive at once, no more are checked than are free.
   * A Durable Object delivers no other call while this one reads and writes its storage, so reservations never race.
   */
  async reserve(): Promise<number> {
    const now = Date.now();
    const failures = await this.ctx.storage.get<Failures>("failures");
    const wait = backoffSeconds(failures, now);
    if (wait > 0) return wait;
    const count = failures && now - failures.lastAt <= FORGET_AFTER_MS ? failures.count + 1 : 1;
    await this.ctx.storage.put("failures", { count, lastAt: now } satisfies Failures);
    return 0;
  }

  async succeed(): Promise<void> {
    await this.ctx.storage.delete("failures");
  }
}

export const failureBackoff = (env: Pick<Env, "FAILURE_BACKOFF">, name: string) =>
  env.FAILURE_BACKOFF.get(env.FAILURE_BACKOFF.idFromName(name)) as DurableObjectStub<FailureBackoff>;
