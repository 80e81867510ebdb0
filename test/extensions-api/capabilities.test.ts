import { describe, expect, it } from "vitest";
import {
  addedCapabilities,
  capabilityCovers,
  describeCapability,
  KeelManifestSchema,
  parseCapability,
  resolveCapabilityPath,
} from "@keel/extensions-api";

describe("the capability vocabulary", () => {
  it("parses every structured form and the coarse ones", () => {
    expect(parseCapability("fs:read")).toEqual({ kind: "fs:read" });
    expect(parseCapability("fs:write:{data}/cache")).toEqual({ kind: "fs:write", path: "{data}/cache" });
    expect(parseCapability("fs:read:~/.config/acme")).toEqual({ kind: "fs:read", path: "{home}/.config/acme" });
    expect(parseCapability("fs:read:/etc/hosts")).toEqual({ kind: "fs:read", path: "/etc/hosts" });
    expect(parseCapability("net:*")).toEqual({ kind: "net" });
    expect(parseCapability("net:API.example.com:8443")).toEqual({ kind: "net", host: "api.example.com", port: 8443 });
    expect(parseCapability("net:*.example.com")).toEqual({ kind: "net", host: "*.example.com" });
    expect(parseCapability("net:127.0.0.1:9")).toEqual({ kind: "net", host: "127.0.0.1", port: 9 });
    expect(parseCapability("exec")).toEqual({ kind: "exec" });
    expect(parseCapability("exec:git")).toEqual({ kind: "exec", command: "git" });
    expect(parseCapability("env:ACME_KEY")).toEqual({ kind: "env", name: "ACME_KEY" });
    expect(parseCapability("env:*")).toEqual({ kind: "env" });
    expect(parseCapability("net")).toEqual({ kind: "net" });
  });

  it.each([
    ["fs:delete", "fs needs read or write"],
    ["fs:read:relative/path", "must be absolute or start with"],
    ["fs:write:{workspace}/../escape", "may not contain .."],
    ["net:", "expected net:<host>"],
    ["net:exa mple.com", "expected net:<host>"],
    ["net:example.com:70000", "out of range"],
    ["exec:", "expected exec:<command>"],
    ["env:1BAD", "expected env:<NAME>"],
    ["root", 'unknown kind "root"'],
  ])("refuses %s, saying why and listing the forms", (text, why) => {
    const parsed = parseCapability(text);
    expect(parsed).toEqual(expect.stringContaining(why));
    expect(parsed).toEqual(expect.stringContaining("net:<host>:<port>"));
  });

  it("refuses a manifest whose capability is not in the vocabulary, naming it", () => {
    const result = KeelManifestSchema.safeParse({ apiVersion: "^1.0.0", entry: "x.js", capabilities: ["net:a b"] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["capabilities", 0]);
    expect(result.error?.issues[0]?.message).toContain('"net:a b" is not a capability');
  });

  it("knows which grant covers which, so an update asks again only for what grew", () => {
    expect(capabilityCovers("fs:read", "fs:read:{workspace}/docs")).toBe(true);
    expect(capabilityCovers("fs:read:{workspace}", "fs:read:{workspace}/docs")).toBe(true);
    expect(capabilityCovers("fs:read:{workspace}/docs", "fs:read:{workspace}")).toBe(false);
    expect(capabilityCovers("fs:read:{workspace}/doc", "fs:read:{workspace}/docs")).toBe(false);
    expect(capabilityCovers("fs:read", "fs:write")).toBe(false);
    expect(capabilityCovers("net:*", "net:api.example.com")).toBe(true);
    expect(capabilityCovers("net:*.example.com", "net:api.example.com:443")).toBe(true);
    expect(capabilityCovers("net:api.example.com:443", "net:api.example.com")).toBe(false);
    expect(capabilityCovers("exec", "exec:git")).toBe(true);
    expect(capabilityCovers("exec:git", "exec")).toBe(false);
    expect(capabilityCovers("env:*", "env:A")).toBe(true);
    expect(
      addedCapabilities(["fs:read", "net:a.example"], ["fs:read:{home}/x", "net:a.example", "net:b.example"]),
    ).toEqual(["net:b.example"]);
  });

  it("says in words what each grants and where a placeholder points", () => {
    expect(describeCapability("env:*")).toContain("API keys too");
    expect(describeCapability("net:api.example.com:443")).toBe("connect to api.example.com port 443");
    expect(describeCapability("fs:write:{data}")).toBe("write files under {data}");
    const places = { workspace: "/w", data: "/d", home: "/h" };
    expect(resolveCapabilityPath("{home}/.config", places)).toBe("/h/.config");
    expect(resolveCapabilityPath("{workspace}", places)).toBe("/w");
    expect(resolveCapabilityPath("/etc", places)).toBe("/etc");
  });
});
