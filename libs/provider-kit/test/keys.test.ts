import { resolveKey } from "@keel/provider-kit";
import { describe, expect, it } from "vitest";

const SETTING = "providers.x.apiKey";

describe("API key resolution", () => {
  it("uses a literal key as given", async () => {
    expect(await resolveKey("sk-literal", SETTING, "OPENAI_API_KEY", {})).toEqual({
      key: "sk-literal",
      source: SETTING,
    });
  });

  it("reads $NAME from the environment, and names it when it is unset", async () => {
    expect((await resolveKey("$MY_KEY", SETTING, undefined, { MY_KEY: "sk-env" })).key).toBe("sk-env");
    expect((await resolveKey("$MY_KEY", SETTING, undefined, {})).problem).toBe(
      "providers.x.apiKey names $MY_KEY, which is not set in the environment",
    );
  });

  it("runs !command and uses its trimmed output", async () => {
    expect(await resolveKey("!printf '  sk-from-command\\n'", SETTING, undefined, {})).toEqual({
      key: "sk-from-command",
      source: "the command in providers.x.apiKey",
    });
  });

  it("says how a !command failed", async () => {
    const failed = await resolveKey("!echo locked >&2; exit 3", SETTING, undefined, {});
    expect(failed.key).toBeUndefined();
    expect(failed.problem).toContain("failed: exit 3: locked");
    expect((await resolveKey("!true", SETTING, undefined, {})).problem).toContain("printed nothing");
  });

  it("falls back to the SDK's variable, and names it when it is missing", async () => {
    expect(await resolveKey(undefined, SETTING, "ANTHROPIC_API_KEY", { ANTHROPIC_API_KEY: "sk-ant" })).toEqual({
      key: "sk-ant",
      source: "ANTHROPIC_API_KEY",
    });
    expect((await resolveKey(undefined, SETTING, "ANTHROPIC_API_KEY", {})).problem).toMatch(
      /^set ANTHROPIC_API_KEY, or set providers.x.apiKey/,
    );
  });

  it("needs no key for a provider without a key variable", async () => {
    expect(await resolveKey(undefined, SETTING, undefined, {})).toEqual({
      source: "none (this provider sends no key)",
    });
  });
});
