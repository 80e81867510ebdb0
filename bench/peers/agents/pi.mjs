// pi (@earendil-works/pi-coding-agent), a Node CLI, over Chat Completions: a custom provider in models.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installed } from "./installed.mjs";

/** @type {import("./index.mjs").Agent} */
export const pi = {
  name: "pi 1.6.0",
  npm: "@earendil-works/pi-coding-agent@1.6.0",
  wire: "openai",
  command: (agents) => installed(agents, "@earendil-works/pi-coding-agent", "dist/bundle/cli.js", true),
  prepare(ctx) {
    const dir = join(ctx.home, ".pi", "agent");
    mkdirSync(dir, { recursive: true });
    const provider = { baseUrl: `${ctx.mockUrl}/v1`, api: "openai-completions", apiKey: "sk-bench-fake" };
    const models = [{ id: "mock-model", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 8192 }];
    writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { mock: { ...provider, models } } }));
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ enableInstallTelemetry: false }));
    // PI_OFFLINE turns off every startup network operation (version check, package checks, install telemetry).
    return { PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
  },
  printArgs: (prompt) => ["-p", prompt, "--provider", "mock", "--model", "mock-model", "--no-session"],
};
