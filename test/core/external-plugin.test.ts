import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/extensions-api/testing";
import { hostApi } from "@keel/core";
import * as hostStream from "@keel/extensions-api/stream";
import { tempDir, writePlugin } from "../support/plugin-fixtures.js";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

it("loads a TypeScript plugin from outside the repo, with no node_modules, against the host's own extensions-api and zod", async () => {
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
          async execute(input: Shape) { return { content: JSON.stringify({ n: input.n, sameZod: api.z === zodZ, version: api.API_VERSION }) }; },
        }));
      },
    });`;
  const dir = writePlugin(root, { name: "external-probe", keel: { contributes: { tools: ["probe"] } }, source });
  expect(existsSync(join(dir, "node_modules"))).toBe(false);
  kit = await createTestKit({ plugins: [dir], script: [{ toolCalls: [{ name: "probe", arguments: {} }] }, { text: "ok" }] });
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
});
