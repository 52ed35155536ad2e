import { ExpiringCache } from "./expiring-cache";

/**
 * A per-isolate cache that answers without waiting in the common case: a value younger than
 * `freshMs` is served as is; one younger than `maxAgeMs` is served while a reload runs in the
 * background; anything older (or absent) is loaded before answering. Concurrent loads of one key are
 * shared. So a value is never more than `maxAgeMs` old, and under steady traffic nobody waits for it.
 */
export class RefreshingCache<V> {
  private readonly entries: ExpiringCache<{ value: V; at: number }>;
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    readonly freshMs: number,
    readonly maxAgeMs: number,
    maxEntries: number,
  ) {
    this.entries = new ExpiringCache(maxAgeMs, maxEntries);
  }

  async get(key: string, load: () => Promise<V>, waitUntil: (promise: Promise<unknown>) => void): Promise<V> {
    const now = Date.now();
    const entry = this.entries.get(key, now);
    // An age below zero (a clock set back) is no age at all: load again.
    const age = entry ? now - entry.at : -1;
    if (entry && age >= 0 && age < this.freshMs) return entry.value;
    if (entry && age >= 0) {
      // Failures of a background reload are left for the next foreground load to meet.
      if (!this.loading.has(key)) waitUntil(this.reload(key, load).catch(() => {}));
      return entry.value;
    }
    return this.loading.get(key) ?? this.reload(key, load);
  }

  /** Forgets `key`, so that the next request loads it (a change made in this isolate). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  private reload(key: string, load: () => Promise<V>): Promise<V> {
    const at = Date.now();
    const loading = load()
      .then((value) => {
        this.entries.set(key, { value, at }, at);
        return value;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, loading);
    return loading;
  }
}
