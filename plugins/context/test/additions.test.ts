/**
 * A distribution's prompt additions join the context plugin's own words when no `systemPrompt` is set, rather
 * than counting as a set prompt that replaces them; a set prompt still replaces the words and keeps the additions.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { definePlugin, STAGE_OBSERVE } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

/** A distribution of the scripted model and the context plugin, with `extra` in its manifest. */
function distribution(extra: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), "keel-additions-")), "distribution.json");
  const plugins = ["provider-scripted", "context"].map((p) => ({ name: `@keel/plugin-${p}`, version: "1.0.0" }));
  writeFileSync(file, JSON.stringify({ name: "keel-french", command: "french", version: "1.0.0", plugins, ...extra }));
  return file;
}

async function promptOf(extra: Record<string, unknown>): Promise<string> {
  let seen = "";
  kit = await createTestKit({
    distribution: distribution({ promptAdditions: ["Always answer in French."], ...extra }),
    inline: [
      {
        name: "prompt-probe",
        plugin: definePlugin({
          activate(api) {
            api.hooks.tap("system_prompt", { stage: STAGE_OBSERVE }, (prompt) => (seen = prompt));
          },
        }),
      },
    ],
    script: [{ text: "oui" }],
  });
  await kit.run("hi");
  return seen;
}

it("adds them to the default words when no prompt is set", async () => {
  const prompt = await promptOf({});
  // The distribution's own name, not keel's.
  expect(prompt).toMatch(/^You are french, a coding agent/);
  expect(prompt).toContain("Always answer in French.");
  expect(prompt).toContain("Folder: ");
});

it("keeps them after a set prompt, which replaces the default words", async () => {
  const prompt = await promptOf({ systemPrompt: "You are Pierre." });
  expect(prompt).toMatch(/^You are Pierre\.\n\nAlways answer in French\./);
  expect(prompt).not.toMatch(/You are (keel|french)/);
});
