/**
 * A plain `keel -p` run pays only for what it uses: through the real binary, with the scripted model asking
 * for one shell command, no UI but ui-print, no RPC, ACP or marketplace code, no provider plugin but the
 * scripted one and no MCP code beyond the look for configured servers is activated or read. Which plugins
 * were activated comes from `KEEL_TRACE`; which files were read or required, from a `--require` preload
 * (test/support/source-reads.cjs). First-party plugins run from their built entries (dist/index.cjs), whose lazily
 * imported modules are chunks beside them, so a chunk read is a module loaded.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";
import { DistributionDefaultsSchema, DistributionManifestSchema, DistributionPluginSchema } from "@keel/extensions-api";
import { CatalogPluginSchema, CatalogSchema, CatalogVersionSchema } from "@keel/extensions-api/catalog";
import { CompactionSettingsSchema } from "@keel/extensions-api/compaction";
import { ScriptToolCallSchema, ScriptTurnSchema } from "@keel/extensions-api/scripted";
import { LockEntrySchema, LockSchema } from "@keel/plugin-lock";
import { EntrySchema, HeaderSchema } from "../../plugins/session-jsonl/src/format.ts";
import { TemplateHeader } from "../../plugins/context/src/templates.ts";
import { UntrustedPermissionsSchema } from "../../plugins/permissions/src/settings.ts";
import { ProcessParams } from "../../plugins/tool-bash/src/process-tool.ts";
import { ReadResultParams } from "../../plugins/large-results/src/read-result.ts";
import { keelEnv, KEEL_BIN, runKeel, SCRIPTED } from "../support/keel-cli.ts";
import { nodeBootBuiltins } from "../support/node-boot.ts";

const PRELOAD = join(import.meta.dirname, "..", "support", "source-reads.cjs");
const ROOT = join(KEEL_BIN, "..", "..");

/** Plugins a `-p` run with the scripted model has no use for. */
const UNUSED_PLUGINS = [
  "ui-tui",
  "ui-rpc",
  "ui-acp",
  "serve",
  "marketplace",
  "distribution",
  "plugin-dev",
  "ops-container",
  "provider-anthropic",
  "provider-openai",
  "provider-openai-responses",
];
/** Code such a run must not read, by repository path or dependency name. */
const UNUSED_CODE = [
  ...UNUSED_PLUGINS.map((name) => `plugins/${name}/`),
  "libs/installer/",
  "libs/rpc-client/",
  "libs/rpc-server/",
  "node_modules/ws/",
  "libs/provider-kit/",
  "node_modules/@modelcontextprotocol/",
  "node_modules/dockerode/",
  "node_modules/@agentclientprotocol/",
  "node_modules/@earendil-works/",
];
/**
 * What the mcp plugin reads with no server configured: its entry (with its settings and the look for plugins'
 * servers); the client, its transports and the SDK are chunks (and a package) of their own.
 */
const MCP_WITHOUT_SERVERS = ["plugins/mcp/dist/index.cjs"];
/**
 * Other formats load lazily: in a folder with no skills, commands, agents or CLAUDE.md, the context and
 * subagents plugins read their entries only, none of the readers of @keel/formats (chunks of their own).
 */
const FORMATS_UNUSED = ["plugins/context/dist/index.cjs", "plugins/subagents/dist/index.cjs"];

it("activates and reads nothing of the UIs, RPC, ACP, MCP servers, the marketplace or unused providers", async () => {
  const env = keelEnv({
    script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "done" }],
  });
  const reads = join(env.home, "reads.txt");
  const result = await runKeel(["-p", "go", ...SCRIPTED], env, {
    extraEnv: { KEEL_TRACE: "1", NODE_OPTIONS: `--require ${PRELOAD}`, KEEL_TEST_READS: reads },
    timeoutMs: 60_000,
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain("done");

  const activated = [...result.stderr.matchAll(/activated @keel\/plugin-(\S+)/g)].map((m) => m[1]);
  // The run did activate what it used, so an empty list cannot pass for a lean one.
  expect(activated).toEqual(expect.arrayContaining(["provider-scripted", "tool-bash", "ops-local", "ui-print"]));
  expect(activated.filter((name) => UNUSED_PLUGINS.includes(name!))).toEqual([]);

  const files = readFileSync(reads, "utf8")
    .split("\n")
    .map((file) => relative(ROOT, file));
  expect(files).toEqual(
    expect.arrayContaining(["plugins/tool-bash/dist/index.cjs", "plugins/ops-local/dist/index.cjs"]),
  );
  expect(files.filter((file) => UNUSED_CODE.some((prefix) => file.includes(prefix)))).toEqual([]);
  expect(files.filter((file) => file.startsWith("plugins/mcp/")).sort()).toEqual(MCP_WITHOUT_SERVERS);
  const formats = files.filter((file) => /^plugins\/(context|subagents)\//.test(file) || file.includes("libs/formats"));
  expect(formats.sort()).toEqual(FORMATS_UNUSED);
});

/**
 * Builtins an answer of text alone has no use for, which the bundles once loaded at the top for a function they hold
 * (scripts/lazy-builtins.mjs): commander's `child_process` (and with it dgram), readline for the yes/no question and
 * ui-print's pager. Nor does the session's lock read graceful-fs or load node:assert: proper-lockfile is built into
 * session-jsonl's entry with node:fs and one `equal` in their places (scripts/build-plugins.mjs). Nor node:crypto: the
 * code cache names settled files by their status, ids come from the host's pool of /dev/urandom bytes, a session
 * folder's SHA-256 from @noble/hashes, and a folder without project configuration hashes nothing. Nor perf_hooks:
 * durations are read from `process.uptime()`, not the `performance` global. Nor, with a stdin that is a file
 * (/dev/null, as a spawn with `stdio: "ignore"` gives it), Node's file streams and fs/promises (with readline's
 * interface, which they load): nothing builds `process.stdin` (the terminal check asks the descriptors, ui-print's
 * input reads it on the first line asked for), and the lock's copy of its fs (`{ ...fs }`) holds only the functions it
 * calls (and its release removes a file without rmSync's recursive remover). Nor Node's ES module resolver:
 * bin/keel.cjs finds @keel/core's launcher by its package.json, not through Node's resolution of package `exports`.
 * Each counts only when Node's own boot on this line does not load it already (Node 26 loads esm/resolve at boot).
 */
const UNUSED_BUILTINS = [
  "assert",
  "child_process",
  "dgram",
  "readline",
  "readline/promises",
  "fs/promises",
  "crypto",
  "perf_hooks",
  "internal/fs/streams",
  "internal/fs/promises",
  "internal/readline/interface",
  "internal/modules/esm/resolve",
  "internal/fs/rimraf",
];

it("answers text without child_process, readline, crypto, perf_hooks, file streams or graceful-fs", async () => {
  const env = keelEnv({ script: [{ text: "done" }] });
  const reads = join(env.home, "reads.txt");
  const builtins = join(env.home, "builtins.txt");
  const result = await runKeel(["-p", "go", ...SCRIPTED], env, {
    extraEnv: { NODE_OPTIONS: `--require ${PRELOAD}`, KEEL_TEST_READS: reads, KEEL_TEST_BUILTINS: builtins },
    timeoutMs: 60_000,
    stdin: "ignore",
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain("done");
  const loaded = readFileSync(builtins, "utf8").split("\n");
  // The list is real: the run loaded the session writer's fs and the bundle's vm.
  expect(loaded).toEqual(expect.arrayContaining(["fs", "vm"]));
  const boot = nodeBootBuiltins();
  expect(loaded.filter((name) => UNUSED_BUILTINS.includes(name) && !boot.has(name))).toEqual([]);
  const files = readFileSync(reads, "utf8").split("\n");
  expect(files.filter((file) => /node_modules\/(graceful-fs|proper-lockfile)\//.test(file))).toEqual([]);
  // The lock was taken (and released at exit) on the session file the run wrote.
  const sessions = readdirSync(join(env.home, "sessions"), { recursive: true }).map(String);
  expect(sessions.some((name) => name.endsWith(".jsonl"))).toBe(true);
});

/** An object schema as the preload notes it: its keys, sorted. */
const keysOf = (schema: { shape: object }) => Object.keys(schema.shape).sort().join(",");

/**
 * Schemas of the contract, the kernel and first-party plugins that a `-p` run never parses, built on first use
 * (`lazySchema`): a catalog's, a distribution manifest's, the compaction section's (read by a strategy when it
 * compacts), a lock's (read when plugins are installed), a session file's lines (read on resume), the front matter
 * of prompt templates, an untrusted project's permissions section, and the
 * parameters of tools offered only later (`process`, `read_result`).
 */
const UNPARSED_SCHEMAS = {
  CatalogSchema,
  CatalogPluginSchema,
  CatalogVersionSchema,
  DistributionManifestSchema,
  DistributionPluginSchema,
  DistributionDefaultsSchema,
  CompactionSettingsSchema: CompactionSettingsSchema.removeDefault(),
  LockSchema,
  LockEntrySchema,
  HeaderSchema,
  ...Object.fromEntries(EntrySchema.options.map((entry) => [`EntrySchema(${entry.shape.type.value})`, entry])),
  TemplateHeader,
  UntrustedPermissionsSchema,
  ProcessParams,
  ReadResultParams,
};

it("builds none of the schemas a -p run never parses", async () => {
  const env = keelEnv({ script: [{ text: "done" }] });
  const schemas = join(env.home, "schemas.txt");
  const result = await runKeel(["-p", "go", ...SCRIPTED], env, {
    extraEnv: {
      NODE_OPTIONS: `--require ${PRELOAD}`,
      KEEL_TEST_READS: join(env.home, "reads.txt"),
      KEEL_TEST_SCHEMAS: schemas,
    },
    timeoutMs: 60_000,
  });
  expect(result.code, result.stderr).toBe(0);
  const built = new Set(readFileSync(schemas, "utf8").split("\n"));
  // The list is real and sees lazy schemas: the scripted provider built the turn's schema to read its script.
  expect([...built]).toEqual(expect.arrayContaining([keysOf(ScriptTurnSchema), keysOf(ScriptToolCallSchema)]));
  const unparsed = Object.entries(UNPARSED_SCHEMAS).filter(([, schema]) => built.has(keysOf(schema)));
  expect(unparsed.map(([name]) => name)).toEqual([]);
});
