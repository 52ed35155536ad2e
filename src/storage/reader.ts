/**
 * What the storage modules need of D1: the database itself (writes, and reads on the primary) or a
 * session of it (src/content/snapshot.ts), whose reads may come from a nearby replica.
 */
export type D1Reader = Pick<D1Database, "prepare" | "batch">;
