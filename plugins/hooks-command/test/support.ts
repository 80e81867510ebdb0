/**
 * Shared pieces of the hooks-command tests: the kit with bash on the local backend and the hooks plugin, a
 * script file written into a temp folder, and a UI that answers confirm requests.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createTestKit, type TestKit, type TestKitOptions } from "@keel/testing";
import { definePlugin, type UiRequest } from "@keel/extensions-api";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";

export const plugins = [resolve("plugins/ops-local"), resolve("plugins/tool-bash"), resolve("plugins/hooks-command")];

export const bashCall = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

/** `{ hooks: { [event]: [{ matcher, hooks: [hook] }] } }` for one hook. */
export function oneHook(event: string, hook: Record<string, unknown>, matcher?: string) {
  return { hooks: { [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [hook] }] } };
}

/** Writes an executable script and returns its path. */
export function script(body: string, dir = tempDir("keel-hook-")): string {
  const path = join(dir, "hook.sh");
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return path;
}

export async function withKit(options: TestKitOptions, body: (kit: TestKit) => Promise<void>): Promise<void> {
  const kit = await createTestKit({ plugins, ...options });
  try {
    await body(kit);
  } finally {
    await kit.dispose();
  }
}

/** A UI answering each confirm with the next answer, recording the questions. */
export function confirmUi(answers: boolean[]) {
  const asked: UiRequest[] = [];
  const plugin = definePlugin({
    activate(api) {
      api.hooks.tap("ui_request", (request) => {
        asked.push(request);
        const next = answers.shift();
        return next === undefined ? undefined : { kind: "confirm", confirmed: next };
      });
    },
  });
  return { asked, inline: { name: "test-ui", plugin } };
}

/** Whether a process is still running (a zombie waiting for its parent counts as gone). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
