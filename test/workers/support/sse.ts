import { fetchWith } from "./app";
import { mcpStream } from "./mcp";

/** Reads server-sent events from a stream, one parsed event at a time. */
export class EventReader {
  private buffer = "";
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /** The next event or comment block: `{ event, data }`, or `{ comment }`; null when the stream ended. */
  async next(): Promise<{ event?: string; data?: string; comment?: string } | null> {
    for (;;) {
      const end = this.buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        if (block.startsWith(":")) return { comment: block.slice(1).trim() };
        const fields = Object.fromEntries(
          block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
        );
        return { event: fields.event, data: fields.data };
      }
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** The next `message` event's JSON, skipping comments. */
  async message(): Promise<any> {
    for (;;) {
      const next = await this.next();
      if (next === null) throw new Error("the stream ended before a message");
      if (next.event === "message") return JSON.parse(next.data!);
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

/**
 * A session's GET notification stream, opened with a keep-alive every second, read one chunk at a time:
 * `next()` is the next chunk's text, `ended()` whether the stream has ended at the next read.
 */
export async function keepAliveStream(token: string, sessionId: string) {
  const res = await fetchWith(mcpStream(token, sessionId), { SSE_KEEP_ALIVE_SECONDS: "1" });
  const reader = res.body!.getReader();
  return {
    next: async () => new TextDecoder().decode((await reader.read()).value),
    ended: async () => (await reader.read()).done,
  };
}
