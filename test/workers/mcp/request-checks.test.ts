import { describe, expect, it } from "vitest";
import { acceptsAll, MAX_BATCH_MESSAGES, requestCost } from "../../../src/mcp/request-checks";

/** What a POST to /v1/sse costs against the organization's limit, and which Accept headers it takes. */

const request = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
const notification = { jsonrpc: "2.0", method: "notifications/initialized" };
const response = { jsonrpc: "2.0", id: 1, result: {} };

describe("requestCost", () => {
  it("counts a single message as 1, whatever it is", () => {
    for (const body of [request(1), notification, response, {}, null, "x", 42]) expect(requestCost(body)).toBe(1);
  });

  it("counts each request of a batch", () => {
    expect(requestCost([request(1), request(2), request(3)])).toBe(3);
  });

  it("counts no notification or response in a batch, and at least 1", () => {
    expect(requestCost([request(1), notification, request(2), response])).toBe(2);
    expect(requestCost([notification, notification])).toBe(1);
    expect(requestCost([response])).toBe(1);
    expect(requestCost([])).toBe(1);
  });

  it("counts only objects with a string method and an id", () => {
    expect(requestCost([request(1), null, 7, "tools/list", { id: 2, method: 3 }, { id: 3 }])).toBe(1);
  });

  it(`counts a batch of ${MAX_BATCH_MESSAGES} requests whole, and one of ${MAX_BATCH_MESSAGES + 1} as 1 (it is refused unread)`, () => {
    const batch = (size: number) => Array.from({ length: size }, (_, i) => request(i));
    expect(requestCost(batch(MAX_BATCH_MESSAGES))).toBe(MAX_BATCH_MESSAGES);
    expect(requestCost(batch(MAX_BATCH_MESSAGES + 1))).toBe(1);
  });
});

describe("acceptsAll", () => {
  const NEEDED = ["application/json", "text/event-stream"];

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["*/*", "*/*"],
    ["both types", "application/json, text/event-stream"],
    ["both types in another order, without spaces", "text/event-stream,application/json"],
    ["both types with parameters", "application/json; charset=utf-8, text/event-stream;q=0.9"],
    ["both types in other cases", "Application/JSON, TEXT/Event-Stream"],
    ["a wildcard for each", "application/*, text/*"],
    ["one type and a wildcard for the other", "application/json, text/*"],
    ["*/* among others", "text/html, */*;q=0.1"],
  ])("admits both with %s", (_, header) => {
    expect(acceptsAll(header, NEEDED)).toBe(true);
  });

  it.each([
    ["only application/json", "application/json"],
    ["only text/event-stream", "text/event-stream"],
    ["another type", "text/html"],
    ["a wildcard of another top-level type", "image/*, text/event-stream"],
    ["a type that only begins like one needed", "application/json-patch+json, text/event-stream"],
  ])("refuses %s", (_, header) => {
    expect(acceptsAll(header, NEEDED)).toBe(false);
  });

  it("checks only the types asked for", () => {
    expect(acceptsAll("text/event-stream", ["text/event-stream"])).toBe(true);
    expect(acceptsAll("text/html", [])).toBe(true);
  });
});
