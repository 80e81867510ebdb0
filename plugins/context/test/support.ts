/** Shared by the context plugin's tests: a temp folder tree and a kit that records the system prompt. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { STAGE_OBSERVE } from "@keel/extensions-api";
import { createTestKit, type TestKit, type TestKitOptions } from "@keel/testing";

export const CONTEXT_PLUGIN = join(import.meta.dirname, "..");

/** Writes `files` (path → content) under a new temp folder and returns it. */
export function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "keel-context-"));
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith("/")) mkdirSync(join(root, path), { recursive: true });
    else {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
  }
  return root;
}

/** A kit with the context plugin and a probe that keeps the last system prompt built. */
export async function contextKit(options: TestKitOptions): Promise<{ kit: TestKit; prompt: () => string }> {
  let last = "";
  const kit = await createTestKit({
    ...options,
    plugins: [CONTEXT_PLUGIN, ...(options.plugins ?? [])],
    inline: [
      ...(options.inline ?? []),
      {
        name: "prompt-probe",
        plugin: {
          activate: (api) =>
            void api.hooks.tap("system_prompt", { stage: STAGE_OBSERVE }, (p: string) => ((last = p), p)),
        },
      },
    ],
  });
  return { kit, prompt: () => last };
}
