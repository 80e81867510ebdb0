/**
 * The examples that belong to the command line — a mode, a CLI command with a flag, a main-command flag with a
 * stop continuation — run through the real `keel` binary with `--plugin` and the scripted model.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

describe("examples/report-mode", () => {
  it("keel --mode report prints the answer and the tools used as Markdown", async () => {
    const env = keelEnv({
      files: { "a.txt": "hi\n" },
      script: [
        {
          toolCalls: [
            { name: "read", arguments: { path: "a.txt" } },
            { name: "read", arguments: { path: "none.txt" } },
          ],
        },
        { text: "It says hi." },
      ],
    });
    const run = await runKeel(
      ["--mode", "report", "-p", "what is in a.txt?", ...SCRIPTED, "--plugin", example("report-mode")],
      env,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# Answer\n\nIt says hi\.\n\n# Tools\n\n- `read`\n- `read` failed: .*none\.txt.*\n$/);
  });
});

describe("examples/cli-info", () => {
  it("keel where --json prints where keel keeps its files and the plugins it found", async () => {
    const env = keelEnv();
    const run = await runKeel(["where", "--json", "--plugin", example("cli-info")], env);
    expect(run.stderr).toBe("");
    const info = JSON.parse(run.stdout);
    expect(info).toMatchObject({ keelHome: env.home, pluginFolder: `${env.home}/plugins` });
    expect(info.plugins).toContainEqual({
      name: "keel-example-cli-info",
      version: "1.0.0",
      state: "active",
      source: "cli",
    });
    expect(info.plugins.find((p: { name: string }) => p.name === "@keel/plugin-session-jsonl")).toBeDefined();
  });

  it("keel where without the flag prints text", async () => {
    const env = keelEnv();
    const run = await runKeel(["where", "--plugin", example("cli-info")], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`home     ${env.home}\nplugins  ${env.home}/plugins\n`);
    expect(run.stdout).toMatch(/ {2}keel-example-cli-info@1\.0\.0 {2}active {2}\(cli\)/);
  });
});

describe("examples/keep-going", () => {
  const script = [{ text: "Halfway there." }, { text: "All DONE." }];

  it("--until DONE continues the run until the answer says DONE", async () => {
    const env = keelEnv({ script });
    const run = await runKeel(
      ["--until", "DONE", "-p", "finish the task", ...SCRIPTED, "--plugin", example("keep-going")],
      env,
    );
    expect(run).toMatchObject({ code: 0, stdout: "All DONE.\n", stderr: "" });
  });

  it("without the flag the run ends at the first answer", async () => {
    const env = keelEnv({ script });
    const run = await runKeel(["-p", "finish the task", ...SCRIPTED, "--plugin", example("keep-going")], env);
    expect(run).toMatchObject({ code: 0, stdout: "Halfway there.\n" });
  });
});
