import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

it("does not load a plugin that contributes only a command until the command is used", async () => {
  const root = tempDir();
  const marker = join(root, "loaded.txt");
  const source = `
    import { writeFileSync } from "node:fs";
    import { definePlugin } from "@keel/extensions-api";
    writeFileSync(${JSON.stringify(marker)}, "loaded");
    export default definePlugin({ activate(api) {
      api.registerCommand({ name: "/hello", description: "say hello",
        run: (args, runtime) => runtime.notify("hello " + args) });
    } });`;
  const dir = writePlugin(root, { name: "lazy-hello", keel: { contributes: { commands: ["/hello"] } }, source });
  kit = await createTestKit({ plugins: [dir] });
  expect(kit.plugins().find((p) => p.name === "lazy-hello")!.state).toBe("lazy");
  expect(existsSync(marker)).toBe(false);

  expect(await kit.runtime.runCommand("/hello world")).toBe(true);
  expect(existsSync(marker)).toBe(true);
  expect(kit.plugins().find((p) => p.name === "lazy-hello")!.state).toBe("active");
  expect(kit.eventsOf("notice")).toEqual([{ level: "info", message: "hello world" }]);
  expect(await kit.runtime.runCommand("/nothing")).toBe(false);
});

it("marks a plugin degraded after its handlers keep failing", async () => {
  const root = tempDir();
  const source = `import { definePlugin } from "@keel/extensions-api";
    export default definePlugin({ activate(api) {
      for (const e of ["message_start", "message_end"] as const) api.events.on(e, () => { throw new Error("flaky"); });
    } });`;
  const dir = writePlugin(root, { name: "flaky", keel: { activation: ["onStartup"] }, source });
  kit = await createTestKit({ plugins: [dir], script: [{ text: "ok" }] });
  const result = await kit.run("go");
  expect(result.reason).toBe("stop");
  expect(kit.plugins().find((p) => p.name === "flaky")).toMatchObject({ state: "degraded" });
  expect(kit.problems()).toContain(
    "flaky: is degraded: 3 failures in its hooks or event handlers. See the plugin_error messages above.",
  );
});

it("tells what woke each plugin and how long its activate() took", async () => {
  const root = tempDir();
  const source = `import { definePlugin } from "@keel/extensions-api";
    export default definePlugin({ activate(api) {
      api.registerCommand({ name: "/wake", description: "wakes", run: () => {} });
    } });`;
  const lazy = writePlugin(root, { name: "woken", keel: { contributes: { commands: ["/wake"] } }, source });
  const early = writePlugin(join(root, "b"), {
    name: "early",
    keel: { activation: ["onStartup"] },
    source: `import { definePlugin } from "@keel/extensions-api"; export default definePlugin({ activate() {} });`,
  });
  kit = await createTestKit({ plugins: [lazy, early] });
  expect(kit.plugins().find((p) => p.name === "early")).toMatchObject({ activatedBy: "onStartup" });
  expect(kit.plugins().find((p) => p.name === "early")!.activationMs).toBeGreaterThanOrEqual(0);
  expect(kit.plugins().find((p) => p.name === "woken")!.activatedBy).toBeUndefined();
  await kit.runtime.runCommand("/wake");
  expect(kit.plugins().find((p) => p.name === "woken")).toMatchObject({ activatedBy: "commands:/wake" });
});
