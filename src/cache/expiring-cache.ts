/**
 * A per-isolate map whose entries expire a fixed time after they are written, holding at most
 * `maxEntries` (the oldest write goes first). Keys may come from attackers (made-up client IDs, API
 * keys, tokens), so the bound is what keeps a flood from growing an isolate's memory.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
  ) {}

  /** The value written under `key` less than `ttlMs` ago, else undefined. */
  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, now = Date.now()): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
