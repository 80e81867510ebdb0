import { execFile } from "node:child_process";
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { hostApi } from "@keel/core";
import * as hostStream from "@keel/extensions-api/stream";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

it(
  "loads a TypeScript plugin from outside the repo, with no node_modules, against the host's own " +
    "extensions-api and zod",
  async () => {
    const root = tempDir("keel-external-");
    expect(root.startsWith("/work/main")).toBe(false);
    const source = `
    import * as api from "@keel/extensions-api";
    import * as stream from "@keel/extensions-api/stream";
    import { z as zodZ } from "zod";
    type Shape = { n: number };
    (globalThis as any).__keelPluginApi = api;
    (globalThis as any).__keelPluginStream = stream;
    export default api.definePlugin({
      activate(host) {
        host.registerTool(api.defineTool({
          name: "probe", description: "identity probe",
          parameters: api.z.object({ n: api.z.number().default(1) }),
          async execute(input: Shape) {
            return { content: JSON.stringify({ n: input.n, sameZod: api.z === zodZ, version: api.API_VERSION }) };
          },
        }));
      },
    });`;
    const dir = writePlugin(root, { name: "external-probe", keel: { contributes: { tools: ["probe"] } }, source });
    expect(existsSync(join(dir, "node_modules"))).toBe(false);
    kit = await createTestKit({
      plugins: [dir],
      script: [{ toolCalls: [{ name: "probe", arguments: {} }] }, { text: "ok" }],
    });
    await kit.run("probe");
    expect(kit.problems()).toEqual([]);
    const text = (kit.toolResults()[0]!.content[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual({ n: 1, sameZod: true, version: hostApi.API_VERSION });
    // jiti may wrap the namespace for default-export interop; what matters is that every member is the host's.
    const seen = (globalThis as { __keelPluginApi?: typeof hostApi }).__keelPluginApi!;
    expect(seen.z).toBe(hostApi.z);
    expect(seen.PathAccessError).toBe(hostApi.PathAccessError);
    const seenStream = (globalThis as { __keelPluginStream?: typeof hostStream }).__keelPluginStream!;
    expect(seenStream.AssistantMessageBuilder).toBe(hostStream.AssistantMessageBuilder);
  },
);

it("lets an author outside the repo test a plugin with @keel/testing installed as a dev dependency", async () => {
  const root = tempDir("keel-author-");
  const source = `
    import { definePlugin, defineTool, z } from "@keel/extensions-api";
    export default definePlugin({
      activate(api) {
        api.registerTool(defineTool({
          name: "shout", description: "Upper-cases text.", readOnly: true,
          parameters: z.object({ text: z.string() }),
          async execute({ text }) { return { content: text.toUpperCase() }; },
        }));
      },
    });`;
  const dir = writePlugin(root, { name: "shout", keel: { contributes: { tools: ["shout"] } }, source });
  // What `npm install -D @keel/testing` leaves: the package in the author's node_modules, its own dependencies
  // (core, extensions-api) resolved from where it is installed.
  const installed = realpathSync(fileURLToPath(new URL("../../node_modules/@keel/testing", import.meta.url)));
  mkdirSync(join(root, "node_modules", "@keel"), { recursive: true });
  symlinkSync(installed, join(root, "node_modules", "@keel", "testing"));
  writeFileSync(
    join(root, "shout.test.mjs"),
    `import { createTestKit } from "@keel/testing";
    const kit = await createTestKit({
      plugins: [${JSON.stringify(dir)}],
      script: [{ toolCalls: [{ name: "shout", arguments: { text: "hi" } }] }, { text: "done" }],
    });
    const result = await kit.run("shout hi");
    const tool = kit.toolResults()[0].content[0].text;
    console.log(JSON.stringify({ text: result.finalText, tool, problems: kit.problems() }));
    await kit.dispose();`,
  );
  const { stdout } = await promisify(execFile)(process.execPath, ["shout.test.mjs"], { cwd: root });
  expect(JSON.parse(stdout)).toEqual({ text: "done", tool: "HI", problems: [] });
});
