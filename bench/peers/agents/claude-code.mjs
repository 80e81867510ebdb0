// Claude Code (@anthropic-ai/claude-code), over Anthropic Messages. The npm package's postinstall would copy its
// platform's native binary over bin/claude.exe; npm 11 leaves install scripts off, so the adapter runs the native
// binary from the platform package directly (what `claude` execs after that postinstall).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installed } from "./installed.mjs";

const MODEL = "claude-sonnet-4-5";

/** @type {import("./index.mjs").Agent} */
export const claudeCode = {
  name: "Claude Code 2.1.332",
  npm: "@anthropic-ai/claude-code@2.1.332",
  wire: "anthropic",
  command: (agents) => installed(agents, `@anthropic-ai/claude-code-${process.platform}-${process.arch}`, "claude"),
  prepare(ctx) {
    const dir = join(ctx.home, ".claude");
    mkdirSync(dir, { recursive: true });
    // Onboarding done and the folder trusted, so the headless run asks nothing.
    const project = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true };
    const state = { hasCompletedOnboarding: true, projects: { [ctx.work]: project } };
    writeFileSync(join(dir, ".claude.json"), JSON.stringify(state));
    return {
      CLAUDE_CONFIG_DIR: dir,
      ANTHROPIC_BASE_URL: ctx.mockUrl,
      ANTHROPIC_API_KEY: "sk-ant-bench-fake",
      ANTHROPIC_MODEL: MODEL,
      ANTHROPIC_SMALL_FAST_MODEL: MODEL,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: MODEL,
      // The documented switches for telemetry, error reporting, auto-update and other non-model traffic.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_BUG_COMMAND: "1",
      DISABLE_COST_WARNINGS: "1",
      CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
    };
  },
  // --allowedTools rather than --dangerously-skip-permissions, which Claude Code refuses as root.
  printArgs: (prompt) => ["-p", prompt, "--model", MODEL, "--allowedTools", "Bash", "--output-format", "text"],
};
