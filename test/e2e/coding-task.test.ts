import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel } from "../support/keel-cli.ts";

const demoScript = fileURLToPath(new URL("../../scripts/demo-script.json", import.meta.url));
const files = {
  "package.json": '{ "type": "module" }\n',
  "math.js": "export function add(a, b) {\n  return a - b;\n}\n",
  "math.test.js":
    'import { add } from "./math.js";\nif (add(2, 3) !== 5) {\n  console.error(`FAIL add(2, 3) = ' +
    '${add(2, 3)}, expected 5`);\n  process.exit(1);\n}\nconsole.log("PASS add(2, 3) = 5");\n',
};

describe("a coding task end to end (the README demo)", () => {
  it("reads the file, edits it, runs the test with bash, and reports", async () => {
    const env = keelEnv({ files });
    const settings = JSON.stringify({ "provider-scripted": { script: demoScript } });
    const run = await runKeel(
      [
        "-p",
        "Fix add() in math.js and run the tests",
        "--mode",
        "json",
        "--provider",
        "scripted",
        "--settings",
        settings,
      ],
      env,
      { timeoutMs: 60_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const results = events
      .filter((e) => e.type === "tool_execution_end")
      .map((e) => ({ tool: e.toolName, isError: e.isError, text: e.result.content[0].text as string }));
    expect(results.map((r) => [r.tool, r.isError])).toEqual([
      ["read", false],
      ["edit", false],
      ["bash", false],
    ]);
    expect(results[0]!.text).toContain("return a - b;");
    expect(results[1]!.text).toMatch(/-\s+return a - b;\n\+\s+return a \+ b;/);
    expect(results[2]!.text).toContain("PASS add(2, 3) = 5");
    expect(results[2]!.text).toContain("[Exit code: 0]");
    expect(readFileSync(join(env.cwd, "math.js"), "utf8")).toBe("export function add(a, b) {\n  return a + b;\n}\n");
    const end = events.find((e) => e.type === "agent_end");
    expect(end.reason).toBe("stop");
  });

  it("npm run demo's script runs the same task and exits 0", () => {
    const env = keelEnv();
    const demo = spawnSync(process.execPath, [fileURLToPath(new URL("../../scripts/demo.js", import.meta.url))], {
      env: { ...process.env, KEEL_HOME: env.home },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stdout).toContain("Fixed: add() in math.js now returns a + b");
    expect(demo.stdout).toContain("return a + b;");
    // The tools' own lines (Tool.render), as plain text: the edit as its diff, bash as a shell line.
    expect(demo.stderr).toContain("● edit math.js\n  ⎿ +1 -1 lines\n");
    expect(demo.stderr).toContain("    -  return a - b;\n    +  return a + b;\n");
    expect(demo.stderr).toContain("● $ node math.test.js\n  ⎿ PASS add(2, 3) = 5\n");
  });
});
