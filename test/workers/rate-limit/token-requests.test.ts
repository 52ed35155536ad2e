import { describe, expect, it } from "vitest";
import { callerAddress } from "../../../src/rate-limit/token-requests";

/** callerAddress: the key a token request's address is counted under (an IPv6 caller by its /64). */

const from = (address?: string) =>
  callerAddress(
    new Request("https://mcp.example.com/token", address === undefined ? {} : { headers: { "CF-Connecting-IP": address } }),
    {},
  );

describe("callerAddress's header", () => {
  const request = new Request("https://mcp.example.com/token", {
    headers: { "CF-Connecting-IP": "203.0.113.9", "X-Real-IP": "198.51.100.1" },
  });

  it("reads CF-Connecting-IP unless CLIENT_ADDRESS_HEADER names another", () => {
    expect(callerAddress(request, {})).toBe("203.0.113.9");
    expect(callerAddress(request, { CLIENT_ADDRESS_HEADER: "X-Real-IP" })).toBe("198.51.100.1");
  });

  it('counts every caller as one with "none", where nothing in front sets a trustworthy header', () => {
    expect(callerAddress(request, { CLIENT_ADDRESS_HEADER: "none" })).toBe("unknown");
    expect(callerAddress(new Request(request, { headers: { "CF-Connecting-IP": "192.0.2.1" } }), { CLIENT_ADDRESS_HEADER: "None" })).toBe(
      "unknown",
    );
    // A misconfigured name is read as "none", never as a failure of every limited request.
    for (const name of ["", "X Real IP", "X-Real-IP\n"]) expect(callerAddress(request, { CLIENT_ADDRESS_HEADER: name })).toBe("unknown");
  });
});

describe("callerAddress", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["  203.0.113.9 ", "203.0.113.9"],
    ["0.0.0.0", "0.0.0.0"],
    ["255.255.255.255", "255.255.255.255"],
  ])("counts IPv4 %j as itself", (address, key) => {
    expect(from(address)).toBe(key);
  });

  it.each([
    ["::ffff:198.51.100.23", "198.51.100.23"],
    ["::FFFF:198.51.100.23", "198.51.100.23"],
    ["0:0:0:0:0:ffff:198.51.100.23", "198.51.100.23"],
  ])("counts the v4-mapped IPv6 %j as its IPv4 address", (address, key) => {
    expect(from(address)).toBe(key);
  });

  it.each([
    ["2001:0db8:00aa:0001:1234:5678:9abc:def0", "2001:db8:aa:1::/64"],
    ["2001:db8:aa:1::1", "2001:db8:aa:1::/64"],
    ["2001:db8:aa:1:ffff::2", "2001:db8:aa:1::/64"],
    ["2001:DB8:AA:1::1", "2001:db8:aa:1::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8:0:0::", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["fe80::1:2:3:4", "fe80:0:0:0::/64"],
  ])("counts IPv6 %j by its /64, %j", (address, key) => {
    expect(from(address)).toBe(key);
  });

  it("gives two addresses of one /64 one key, and the next /64 another", () => {
    expect(from("2001:db8:aa:1::1")).toBe(from("2001:db8:aa:1:ffff:ffff:ffff:ffff"));
    expect(from("2001:db8:aa:1::1")).not.toBe(from("2001:db8:aa:2::1"));
  });

  it("puts every request without the header, or with an empty one, under one key", () => {
    expect(from()).toBe("unknown");
    expect(from("")).toBe("unknown");
    expect(from("   ")).toBe("unknown");
  });

  it("reads at most 64 characters of the header", () => {
    expect(from(`203.0.113.9${" ".repeat(200)}`)).toBe("203.0.113.9");
    expect(from("x".repeat(100))).toHaveLength(64);
  });
});
