// Codex (@openai/codex), over Responses: a custom model provider in $CODEX_HOME/config.toml. The npm `codex` is a
// Node launcher that execs the platform package's native binary; the adapter runs that binary directly.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installed } from "./installed.mjs";

const TRIPLES = { "linux-x64": "x86_64-unknown-linux-musl", "linux-arm64": "aarch64-unknown-linux-musl" };

/** @type {import("./index.mjs").Agent} */
export const codex = {
  name: "Codex 0.171.0",
  npm: "@openai/codex@0.171.0",
  wire: "openai-responses",
  command(agents) {
    const key = `${process.platform}-${process.arch}`;
    const triple = TRIPLES[key];
    if (!triple) return `no native Codex build is mapped for ${key}`;
    return installed(agents, `@openai/codex-${key}`, `vendor/${triple}/bin/codex`);
  },
  prepare(ctx) {
    const dir = join(ctx.home, ".codex");
    mkdirSync(dir, { recursive: true });
    // A model Codex has no metadata for, so it offers its fallback tool set (exec_command and friends) in `tools`.
    // Its default model (gpt-6.2-sol) gets "code mode" instead: tools sent as `additional_tools` namespaces and one
    // freeform `exec` tool that takes a script, a shape this mock does not drive.
    const config = [
      'model = "mock-model"',
      'model_provider = "mock"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      "check_for_update_on_startup = false",
      // Plugins and apps sync catalogs from github.com and chatgpt.com at start; the bench measures the agent.
      "[features]",
      "plugins = false",
      "remote_plugin = false",
      "apps = false",
      "[analytics]",
      "enabled = false",
      "[feedback]",
      "enabled = false",
      "[model_providers.mock]",
      'name = "mock"',
      `base_url = "${ctx.mockUrl}/v1"`,
      'env_key = "MOCK_API_KEY"',
      'wire_api = "responses"',
      `[projects."${ctx.work}"]`,
      'trust_level = "trusted"',
    ];
    writeFileSync(join(dir, "config.toml"), config.join("\n") + "\n");
    return { CODEX_HOME: dir, MOCK_API_KEY: "sk-bench-fake" };
  },
  printArgs: (prompt) => ["exec", "--skip-git-repo-check", "--ephemeral", "--color", "never", prompt],
};
