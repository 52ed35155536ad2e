import { describe, expect, it } from "vitest";
import { redirectUriMatches, redirectUriProblem } from "../../../src/oauth/redirect-uris";

/** Which redirect URIs match an allowed one, and which the operator may allow at all. */

describe("redirectUriMatches", () => {
  it("matches the same URI", () => {
    expect(redirectUriMatches("https://claude.ai/api/mcp/auth_callback", "https://claude.ai/api/mcp/auth_callback")).toBe(true);
  });

  it.each([
    ["another port", "https://claude.ai:8443/api/mcp/auth_callback"],
    ["a longer path", "https://claude.ai/api/mcp/auth_callback/x"],
    ["a trailing slash", "https://claude.ai/api/mcp/auth_callback/"],
    ["a query", "https://claude.ai/api/mcp/auth_callback?x=1"],
    ["a fragment", "https://claude.ai/api/mcp/auth_callback#x"],
    ["another host", "https://claude.com/api/mcp/auth_callback"],
    ["another case", "https://Claude.ai/api/mcp/auth_callback"],
    ["http", "http://claude.ai/api/mcp/auth_callback"],
  ])("refuses a non-loopback URI with %s", (_, presented) => {
    expect(redirectUriMatches(presented, "https://claude.ai/api/mcp/auth_callback")).toBe(false);
  });

  it.each([
    ["localhost", "http://localhost:9999/callback", "http://localhost:8976/callback"],
    ["127.0.0.1", "http://127.0.0.1:1/callback", "http://127.0.0.1:8976/callback"],
    ["[::1]", "http://[::1]:65535/callback", "http://[::1]:8976/callback"],
    ["localhost, with no port presented", "http://localhost/callback", "http://localhost:8976/callback"],
    ["localhost, with no port allowed", "http://localhost:9999/callback", "http://localhost/callback"],
    ["localhost, with a query", "http://localhost:9999/callback?app=1", "http://localhost:8976/callback?app=1"],
    ["localhost, without a path", "http://localhost:9999", "http://localhost:8976"],
  ])("lets a loopback URI on %s change its port (RFC 8252 §7.3)", (_, presented, allowed) => {
    expect(redirectUriMatches(presented, allowed)).toBe(true);
  });

  it.each([
    ["another loopback host", "http://127.0.0.1:8976/callback", "http://localhost:8976/callback"],
    ["another path", "http://localhost:9999/other", "http://localhost:8976/callback"],
    ["a query added", "http://localhost:9999/callback?x=1", "http://localhost:8976/callback"],
    ["a fragment added", "http://localhost:9999/callback#x", "http://localhost:8976/callback"],
    ["https", "https://localhost:9999/callback", "https://localhost:8976/callback"],
    ["a host that begins with localhost", "http://localhost.evil.example:8976/callback", "http://localhost:8976/callback"],
    ["user information after the port", "http://localhost:8976@evil.example/callback", "http://localhost:8976/callback"],
    ["a port of six digits", "http://localhost:123456/callback", "http://localhost:8976/callback"],
  ])("holds a loopback URI to everything but its port: %s is refused", (_, presented, allowed) => {
    expect(redirectUriMatches(presented, allowed)).toBe(false);
  });
});

describe("redirectUriProblem", () => {
  it.each([
    "https://claude.ai/api/mcp/auth_callback",
    "https://app.partner.example:8443/cb?app=1",
    "http://localhost:7777/cb",
    "http://localhost/cb",
    "http://127.0.0.1:7777/cb",
    "http://[::1]:7777/cb",
  ])("allows %s", (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it.each([
    ["not a url", "is not an absolute URL"],
    ["/callback", "is not an absolute URL"],
    ["", "is not an absolute URL"],
    ["https://partner.example/cb#x", "must not have a fragment"],
    ["https://partner.example/cb#", "must not have a fragment"],
    ["http://localhost:7777/cb#x", "must not have a fragment"],
    ["https://user:pw@partner.example/cb", "must not carry user information"],
    ["https://user@partner.example/cb", "must not carry user information"],
    ["http://user@localhost:7777/cb", "must not carry user information"],
    ["http://partner.example/cb", "must use https (or http on localhost, 127.0.0.1 or [::1])"],
    ["http://localhost.evil.example/cb", "must use https (or http on localhost, 127.0.0.1 or [::1])"],
    ["http://127.0.0.2:7777/cb", "must use https (or http on localhost, 127.0.0.1 or [::1])"],
    ["javascript:alert(1)", "must use https (or http on localhost, 127.0.0.1 or [::1])"],
    ["ftp://partner.example/cb", "must use https (or http on localhost, 127.0.0.1 or [::1])"],
  ])("refuses %j: it %s", (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });
});
