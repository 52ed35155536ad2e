import { describe, expect, it } from "vitest";
import { endpointUrlProblem } from "../../../src/webhooks/endpoint-url";

describe("endpointUrlProblem: https on a public host, loopback only in development", () => {
  it.each([
    "https://hooks.partner.example/content",
    "https://hooks.partner.example:8443/content?token=abc",
    "https://93.184.216.34/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://hooks.partner.example./trailing-dot",
    "https://93.184.216.34.nip.io/hook",
    "https://v2.10.api.partner.example/hook",
    "https://svc.partner.example/hook",
  ])("accepts %s everywhere", (url) => {
    expect(endpointUrlProblem(url, false)).toBeNull();
    expect(endpointUrlProblem(url, true)).toBeNull();
  });

  it.each([
    ["https://0.1.2.3/", "private"],
    ["https://198.18.0.1/", "private"],
    ["https://192.0.2.1/", "private"],
    ["https://224.0.0.1/", "private"],
    ["https://255.255.255.255/", "private"],
    ["https://[::]/", "private"],
    ["https://[2001:db8::1]/", "private"],
    ["https://[2001::1]/", "private"],
    ["https://[2002:a00:1::]/", "private"],
    ["https://[64:ff9b::a00:1]/", "private"],
    ["https://[ff02::1]/", "private"],
    ["https://router.home.arpa/", "private"],
    ["https://kubernetes.default.svc/", "private"],
    ["https://kubernetes.default.svc.cluster.local./", "private"],
    ["https://169.254.169.254.nip.io/", "private"],
    ["https://hook.192.168.1.20.sslip.io/", "private"],
    ["https://10-0-0-1.sslip.io/", "private"],
    ["https://ec2-10-1-2-3.nip.io/", "private"],
    ["https://127.0.0.1.nip.io/", "loopback"],
    ["https://app.localhost/", "loopback"],
    ["https://127.1/", "loopback"],
    ["https://[::ffff:7f00:1]/", "loopback"],
  ])("refuses %s (%s)", (url, kind) => {
    expect(endpointUrlProblem(url, false)).toMatch(kind === "private" ? /private, internal or reserved/ : /loopback/);
  });

  it("allows loopback in development, over http too, and never other plain http", () => {
    for (const url of ["http://127.0.0.1:9000/hook", "http://localhost:9000/hook", "https://[::1]:9000/hook"]) {
      expect(endpointUrlProblem(url, true), url).toBeNull();
      expect(endpointUrlProblem(url, false), url).toMatch(/loopback, allowed only in development/);
    }
    expect(endpointUrlProblem("http://hooks.partner.example/", true)).toMatch(/must use https/);
    expect(endpointUrlProblem("ftp://hooks.partner.example/", false)).toMatch(/must use https/);
    expect(endpointUrlProblem("https://10.0.0.1/", true)).toMatch(/private/);
  });

  it("refuses fragments, credentials, spaces and over-long URLs", () => {
    expect(endpointUrlProblem("https://hooks.partner.example/#x", false)).toMatch(/fragment/);
    expect(endpointUrlProblem("https://a:b@hooks.partner.example/", false)).toMatch(/credentials/);
    expect(endpointUrlProblem("https://hooks.partner.example/a b", false)).toMatch(/absolute URL/);
    expect(endpointUrlProblem(`https://hooks.partner.example/${"a".repeat(2048)}`, false)).toMatch(/absolute URL/);
  });
});
