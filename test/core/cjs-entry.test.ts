/**
 * A plugin whose `keel.entry` is a CommonJS file is loaded without jiti (core/src/host/cjs-entry.ts): real
 * plugin folders in temp directories, loaded in-process by the test kit. Its `require` gives the host's own
 * modules, its own dependencies from its node_modules, and `import()` still works; a TypeScript plugin and a
 * CommonJS one get the same copy of @keel/provider-kit.
 */
import { afterEach, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { hostApi } from "@keel/core";
import * as hostStream from "@keel/extensions-api/stream";
import * as hostZod from "zod";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

type Probe = Record<string, unknown>;
const seen = (key: string) => (globalThis as unknown as Record<string, Probe>)[key]!;

/** A CommonJS plugin registering one tool `name` whose `execute` body is `body`, with `head` run at load. */
function cjsToolPlugin(root: string, name: string, head: string, body: string, files = {}): string {
  const source = `"use strict";
    const api = require("@keel/extensions-api");
    ${head}
    module.exports = api.definePlugin({
      activate(host) {
        host.registerTool({ name: ${JSON.stringify(name)}, description: "probe", parameters: api.z.object({}),
          async execute() { ${body} } });
      },
    });`;
  return writePlugin(root, {
    name: `cjs-${name}`,
    keel: { entry: "./dist/index.cjs", contributes: { tools: [name] } },
    files: { "dist/index.cjs": source, ...files },
  });
}

async function runTool(dirs: string[], tool: string): Promise<string> {
  kit = await createTestKit({
    plugins: dirs,
    script: [{ toolCalls: [{ name: tool, arguments: {} }] }, { text: "ok" }],
  });
  await kit.run("go");
  expect(kit.problems()).toEqual([]);
  return (kit.toolResults()[0]!.content[0] as { text: string }).text;
}

it("hands a .cjs entry the host's extensions-api, its subpaths and zod: the same objects and classes", async () => {
  const dir = cjsToolPlugin(
    tempDir("keel-cjs-"),
    "identity",
    `globalThis.__cjsProbe = { api, stream: require("@keel/extensions-api/stream"), zod: require("zod"),
       zodV4: require("zod/v4"), error: new api.PathAccessError("/x", "outside the workspace") };`,
    `return { content: "checked" };`,
  );
  expect(await runTool([dir], "identity")).toBe("checked");
  const probe = seen("__cjsProbe") as {
    api: typeof hostApi;
    stream: typeof hostStream;
    zod: typeof hostZod;
    zodV4: typeof hostZod;
    error: unknown;
  };
  expect(probe.api).toBe(hostApi);
  expect(probe.stream.AssistantMessageBuilder).toBe(hostStream.AssistantMessageBuilder);
  expect(probe.zod.z).toBe(hostZod.z);
  expect(probe.zodV4).toBe(probe.zod);
  expect(probe.error).toBeInstanceOf(hostApi.PathAccessError);
});

it("resolves a .cjs entry's own dependencies from its node_modules; import() of an ESM package, a file", async () => {
  const dir = cjsToolPlugin(
    tempDir("keel-cjs-"),
    "deps",
    `const own = require("own-dep");`,
    `const esm = await import("esm-dep"); const near = await import("./near.mjs");
     return { content: [own.name, esm.name, near.name, own.zodIsItsOwn].join(" ") };`,
    {
      // A dependency of the plugin resolves as Node would, with its own copy of what it requires.
      "node_modules/own-dep/package.json": JSON.stringify({ name: "own-dep", version: "1.0.0", main: "index.js" }),
      "node_modules/own-dep/index.js": `exports.name = "own"; exports.zodIsItsOwn = String(require("zod").mine);`,
      "node_modules/zod/package.json": JSON.stringify({ name: "zod", version: "0.0.1", main: "index.js" }),
      "node_modules/zod/index.js": `exports.mine = true;`,
      "node_modules/esm-dep/package.json": JSON.stringify({ name: "esm-dep", type: "module", exports: "./index.js" }),
      "node_modules/esm-dep/index.js": `export const name = "esm";`,
      "dist/near.mjs": `export const name = "near";`,
    },
  );
  expect(await runTool([dir], "deps")).toBe("own esm near true");
});

it("gives a TypeScript plugin and a CommonJS plugin in one run the one copy of @keel/provider-kit", async () => {
  const root = tempDir("keel-cjs-");
  const ts = writePlugin(root, {
    name: "ts-kit",
    keel: { activation: ["onStartup"] },
    source: `import * as kit from "@keel/provider-kit";
      import { definePlugin } from "@keel/extensions-api";
      (globalThis as any).__tsKit = kit;
      export default definePlugin({ activate() {} });`,
  });
  const cjs = cjsToolPlugin(
    root,
    "kit",
    `globalThis.__cjsKit = require("@keel/provider-kit");`,
    `return { content: String(globalThis.__cjsKit.ProviderError === globalThis.__tsKit.ProviderError) };`,
  );
  expect(await runTool([ts, cjs], "kit")).toBe("true");
  const [tsKit, cjsKit] = [seen("__tsKit"), seen("__cjsKit")];
  expect(typeof cjsKit.registerCompatibleProvider).toBe("function");
  expect(tsKit.registerCompatibleProvider).toBe(cjsKit.registerCompatibleProvider);
  expect(tsKit.ProviderError).toBe(cjsKit.ProviderError);
});
