/**
 * docs/writing-plugins.md's walkthrough, as written: its package.json and index.ts are copied into a folder
 * outside the repository, loaded by the real binary with --plugin, and found in $KEEL_HOME/plugins.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

const doc = readFileSync(fileURLToPath(new URL("../../docs/writing-plugins.md", import.meta.url)), "utf8");
const walkthrough = doc.slice(doc.indexOf("## From nothing"), doc.indexOf("\n## ", doc.indexOf("## From nothing") + 1));
const blocks = [...walkthrough.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2]! }));

function writeWalkthroughPlugin(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), blocks.find((b) => b.lang === "json")!.text);
  writeFileSync(join(dir, "index.ts"), blocks.find((b) => b.lang === "ts" && b.text.includes("definePlugin"))!.text);
}

describe("the writing-plugins walkthrough", () => {
  const script = [
    { toolCalls: [{ name: "word_count", arguments: { text: "to be or not to be" } }] },
    { text: "Six words." },
  ];

  it("runs with --plugin from a folder outside the repository", async () => {
    const env = keelEnv({ script });
    writeWalkthroughPlugin(join(env.cwd, "keel-wordcount"));
    const run = await runKeel(
      [
        "--plugin",
        "./keel-wordcount",
        "--mode",
        "json",
        "-p",
        "count",
        ...SCRIPTED,
        "--settings",
        '{"wordcount":{"minLength":3}}',
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"text":"1 words"');
  });

  it("is loaded from $KEEL_HOME/plugins and listed by keel plugins", async () => {
    const env = keelEnv();
    writeWalkthroughPlugin(join(env.home, "plugins", "keel-wordcount"));
    const run = await runKeel(["plugins"], env);
    expect(run.stdout).toMatch(/keel-wordcount\s+1\.0\.0\s+user\s+active\s+with your rights\s+tool:word_count/);
  });
});
