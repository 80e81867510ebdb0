/**
 * The test kit's `trust` option: a test runs the workspace's own configuration as a trusted or an untrusted
 * project's, through the real host's trust decision.
 */
import { join, resolve } from "node:path";
import { createTestKit } from "@keel/testing";
import { definePlugin } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";

const project = {
  ".keel/settings.json": JSON.stringify({ systemPrompt: "the project's prompt", probe: { flavour: "project" } }),
  ".keel/plugins/repo-tool/package.json": JSON.stringify({
    name: "repo-tool",
    version: "1.0.0",
    type: "module",
    keel: { apiVersion: "^1.0.0", entry: "./index.ts", contributes: { hooks: ["session_start"] } },
  }),
  ".keel/plugins/repo-tool/index.ts": `import { definePlugin } from "@keel/extensions-api";
export default definePlugin({ activate(api) { api.hooks.tap("session_start", () => {}); } });`,
};

/** Reports its own section, as merged and as an untrusted project wrote it. */
function probe(seen: { settings?: unknown; untrusted?: unknown }) {
  return {
    name: "probe",
    manifest: { settingsKey: "probe" },
    plugin: definePlugin({
      activate(api) {
        seen.settings = api.allSettings.probe;
        seen.untrusted = api.untrustedSettings;
      },
    }),
  };
}

describe("createTestKit({ trust })", () => {
  for (const trust of [false, true]) {
    it(`runs the workspace's configuration as ${trust ? "a trusted" : "an untrusted"} project's`, async () => {
      const seen: { settings?: unknown; untrusted?: unknown } = {};
      const kit = await createTestKit({ files: project, trust, inline: [probe(seen)], script: [{ text: "ok" }] });
      try {
        const repoTool = kit.plugins().find((p) => p.name === "repo-tool");
        expect(repoTool?.source).toBe("project");
        expect(repoTool?.dir).toBe(resolve(join(kit.cwd, ".keel/plugins/repo-tool")));
        if (trust) {
          expect(repoTool?.state).toBe("active");
          expect(seen).toEqual({ settings: { flavour: "project" }, untrusted: undefined });
        } else {
          expect(repoTool).toMatchObject({ state: "disabled", reason: expect.stringContaining("not trusted") });
          expect(seen).toEqual({ settings: undefined, untrusted: { flavour: "project" } });
        }
      } finally {
        await kit.dispose();
      }
    });
  }
});
