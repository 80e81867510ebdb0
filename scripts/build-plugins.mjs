// Part of `npm run build`: each first-party plugin's src/index.ts becomes one CommonJS entry, dist/index.cjs,
// which the host loads through the V8 code cache without jiti (core/src/host/cjs-entry.ts); the modules a
// plugin imports lazily (`await import("./x.ts")`) become chunks beside it, so they and the npm packages only they
// import are still loaded on first use. dist/ sits at the depth of src/, so `new URL("../x", import.meta.url)`
// resolves alike. libs/provider-kit becomes dist/*.cjs too: the host's one copy of it.
// Kept external: node builtins, what the host answers (core/src/host/host-specifiers.ts) and the npm packages
// the plugin (or a workspace library it bundles) depends on. The workspace libraries a plugin uses besides the
// kit (@keel/front-matter, @keel/installer, @keel/rpc-client) are bundled in: they are TypeScript sources Node
// cannot require, and hold no state the host or another plugin must share.
import { readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import { isHostSpecifier } from "../core/dist/host/host-specifiers.js";
import { lazyBuiltins } from "./lazy-builtins.mjs";
import { buildWebUis } from "./build-web.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const workspaceLibs = new Map(
  readdirSync(join(root, "libs")).map((dir) => [readJson(join(root, "libs", dir, "package.json")).name, dir]),
);

/** npm packages the code of `pkg` (and of the workspace libraries it bundles) may require, by name. */
function dependenciesOf(pkg, seen = new Set()) {
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies })) {
    if (seen.has(name)) continue;
    seen.add(name);
    const lib = workspaceLibs.get(name);
    if (lib) dependenciesOf(readJson(join(root, "libs", lib, "package.json")), seen);
  }
  return seen;
}

/**
 * npm dependencies built into a plugin's entry rather than required from node_modules, with the aliases they are
 * built with. Node's loader compiles a package's files on every start (no code cache); built in, they load from the
 * plugin's cache. session-jsonl takes proper-lockfile's lock on its first write, on the way to a run's first
 * request: from node_modules that cost ~8 ms (its four packages compiled, graceful-fs patching fs, node:constants,
 * node:assert). graceful-fs is node:fs's few functions the lock calls here (lock-fs.cjs): what graceful-fs adds is a
 * queue that retries an open after EMFILE, and the lock opens no files (mkdir, stat, utimes, rmdir). @noble/hashes
 * (its SHA-256 names a session's folder) is an ES module package, which Node would load through its ES module
 * loader. `assert` is signal-exit's (proper-lockfile's) one `assert.equal`, which runs as the lock loads: node:assert
 * loads its error, call tracker and colour modules for it (lock-assert.cjs). provider-kit's eventsource-parser (its
 * SSE reader) is built in too: from node_modules it was a package a run resolved through package `exports`, which
 * loads Node's ES module resolver (bin/keel.cjs and the host find their own packages' files without it). `yaml`
 * (front matter of skills, commands and agents; a chunk of its own, loaded by the first file with front matter)
 * cost ~20 ms to compile from node_modules on a start that reads a project's `.claude/` folder.
 */
const ENGINE_UNUSED = fileURLToPath(new URL("engine-unused.cjs", import.meta.url));
const BUILT_IN = {
  "@keel/provider-kit": { packages: ["eventsource-parser"] },
  "@keel/plugin-context": { packages: ["yaml"] },
  "@keel/plugin-subagents": { packages: ["yaml"] },
  // dockerode built in, without the ssh2 and gRPC it loads at start and the backend never uses (engine-unused.cjs).
  "@keel/plugin-ops-container": {
    packages: ["dockerode"],
    alias: { ssh2: ENGINE_UNUSED, "@grpc/grpc-js": ENGINE_UNUSED, "@grpc/proto-loader": ENGINE_UNUSED },
  },
  "@keel/plugin-session-jsonl": {
    packages: ["proper-lockfile", "@noble/hashes"],
    alias: {
      "graceful-fs": fileURLToPath(new URL("lock-fs.cjs", import.meta.url)),
      assert: fileURLToPath(new URL("lock-assert.cjs", import.meta.url)),
    },
  },
};

function externalFor(pkg) {
  const builtIn = BUILT_IN[pkg.name]?.packages ?? [];
  const deps = [...dependenciesOf(pkg)].filter(
    (name) => (!workspaceLibs.has(name) || name === "@keel/provider-kit") && !builtIn.includes(name),
  );
  const aliased = Object.keys(BUILT_IN[pkg.name]?.alias ?? {});
  return (id) =>
    (builtins.has(id) && !aliased.includes(id)) ||
    isHostSpecifier(id) ||
    deps.some((name) => id === name || id.startsWith(`${name}/`));
}

/** Builds `input` (one or more entries) into `dir`/dist as CommonJS. */
async function bundle(dir, input, pkg) {
  const out = join(dir, "dist");
  rmSync(out, { recursive: true, force: true });
  await build({
    input,
    cwd: root,
    platform: "node",
    external: externalFor(pkg),
    resolve: { alias: BUILT_IN[pkg.name]?.alias ?? {} },
    plugins: [lazyBuiltins()],
    logLevel: "warn",
    // An import that resolves nowhere would be left as a `require` that fails when the plugin loads (a package
    // meant to be built in but not installed): fail the build instead.
    onLog(level, log, report) {
      if (log.code === "UNRESOLVED_IMPORT") throw new Error(`${pkg.name}: ${log.message}`);
      report(level, log);
    },
    write: true,
    output: {
      dir: out,
      format: "cjs",
      entryFileNames: "[name].cjs",
      chunkFileNames: "[name].cjs",
      // `import()` becomes `require()`: a dynamic import would keep the bundle from the code cache (cjs-entry.ts).
      dynamicImportInCjs: false,
      exports: "named",
      // As the CLI's bundle (core/rolldown.config.mjs): ASCII, so V8 keeps the source one byte per character,
      // and no comments but licences.
      charset: "ascii",
      comments: { legal: true, annotation: false, jsdoc: false },
    },
  });
}

const started = performance.now();
const jobs = [];
for (const name of readdirSync(join(root, "plugins"))) {
  const dir = join(root, "plugins", name);
  const file = join(dir, "package.json");
  if (!existsSync(file) || !existsSync(join(dir, "src", "index.ts"))) continue;
  const pkg = readJson(file);
  if (pkg.keel?.entry !== "./dist/index.cjs") continue;
  jobs.push(bundle(dir, { index: join(dir, "src", "index.ts") }, pkg));
}
const kit = join(root, "libs", "provider-kit");
const kitPkg = readJson(join(kit, "package.json"));
const kitEntries = Object.entries(kitPkg.exports)
  .filter(([key]) => key !== "./package.json")
  .map(([key, target]) => [key === "." ? "index" : key.slice(2), join(kit, target.default)]);
jobs.push(bundle(kit, Object.fromEntries(kitEntries), kitPkg));
jobs.push(buildWebUis(join(root, "plugins")));
await Promise.all(jobs);
if (process.env.KEEL_BUILD_TIMES) console.log(`plugins built in ${(performance.now() - started).toFixed(0)} ms`);
