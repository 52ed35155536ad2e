/**
 * A small least-recently-used map of serialized bodies, bounded by entries and bytes (keys and bodies alike: a key
 * may carry what a request chose), kept per isolate in front of the Cache API. Its keys carry the content version,
 * so an entry can never be stale.
 */
export class BodyCache<V extends { body: string }> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Re-inserting moves the entry to the most recently used end.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const size = sizeOf(key, value);
    if (size > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, value);
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.bytes -= sizeOf(key, old);
  }
}

/** What an entry holds in memory: its key and body, two bytes a character. */
const sizeOf = (key: string, value: { body: string }): number => (key.length + value.body.length) * 2;
