// The marketplace: a plugin install through the real binary from the local registry (verdaccio) and from a
// tarball, against `keel list` (the same process start without an install) in the same run; verification at
// load of 50 installed plugins, with the stamp cache cold and warm; and `keel -p` with 50 installed plugins
// as a ratio to none.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { interleaved, median, ms, printTable, ratio, timeProcess } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));
const installed = await import("../libs/plugin-lock/dist/index.js");
const root = mkdtempSync(join(tmpdir(), "keel-bench-market-"));
const cache = join(root, "cache");

function writePlugin(dir, name, version = "1.0.0") {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name,
      version,
      type: "module",
      keel: { apiVersion: "^1.0.0", entry: "./index.ts", contributes: { commands: [`/${name}`] } },
    }),
  );
  writeFileSync(
    join(dir, "index.ts"),
    `import { definePlugin } from "@keel/extensions-api";\nexport default definePlugin({ ` +
      `activate(api) { api.registerCommand({ name: "/${name}", description: "x", run() {} }); } });\n`,
  );
  writeFileSync(join(dir, "README.md"), `# ${name}\n`.repeat(40));
  return dir;
}

/** A KEEL_HOME with `count` installed plugins and their lock entries, as `keel install` leaves them. */
function homeWithInstalled(count) {
  const home = mkdtempSync(join(root, "home-"));
  const plugins = {};
  for (let i = 0; i < count; i++) {
    const name = `bench-${i}`;
    const dir = writePlugin(join(home, "plugins", name), name);
    plugins[name] = {
      source: `npm:${name}@^1`,
      version: "1.0.0",
      tree: installed.treeHash(dir),
      capabilities: [],
      hooks: [],
      installedAt: new Date().toISOString(),
    };
  }
  writeFileSync(join(home, "keel.lock"), JSON.stringify({ lockfileVersion: 1, plugins }));
  return home;
}

async function startRegistry() {
  const { runServer } = await import("verdaccio");
  const storage = join(root, "storage");
  mkdirSync(storage);
  const server = await runServer(
    /** @type {any} */ ({
      self_path: root,
      storage,
      uplinks: {},
      packages: { "**": { access: "$all", publish: "$all" } },
      log: { type: "stdout", format: "pretty", level: "error" },
      web: { enable: false },
    }),
  );
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const npmrc = join(root, ".npmrc");
  writeFileSync(npmrc, `//127.0.0.1:${server.address().port}/:_authToken=bench\n`);
  return { url, npmrc, close: () => server.close() };
}

const registry = await startRegistry();
try {
  // --- install time -------------------------------------------------------------------------------------
  const pkgDir = writePlugin(join(root, "src", "bench-install"), "bench-install");
  // Asynchronously: verdaccio answers from this process.
  await promisify(execFile)(
    "npm",
    ["publish", "--ignore-scripts", "--registry", registry.url, "--userconfig", registry.npmrc],
    { cwd: pkgDir, env: { ...process.env, npm_config_cache: join(root, "npm-cache") } },
  );
  const tarball = join(root, "bench-install.tgz");
  execFileSync("tar", ["czf", tarball, "-C", join(root, "src"), "bench-install"]);
  const work = mkdtempSync(join(root, "work-"));
  const keel = (args) => {
    const home = mkdtempSync(join(root, "install-home-"));
    writeFileSync(join(home, "settings.json"), JSON.stringify({ marketplace: { registry: registry.url } }));
    return timeProcess(process.execPath, [bin, ...args], {
      cwd: work,
      env: { ...process.env, KEEL_HOME: home, KEEL_CACHE_DIR: cache },
    }).finally(() => rmSync(home, { recursive: true, force: true }));
  };
  const [list, fromRegistry, fromTarball] = (
    await interleaved(
      [
        ["keel list", () => keel(["list"])],
        ["registry", () => keel(["install", "npm:bench-install@^1", "--yes"])],
        ["tarball", () => keel(["install", tarball, "--yes"])],
      ],
      1,
      RUNS,
    )
  ).map(median);
  printTable(`install through the binary (median of ${RUNS})`, [
    ["measure", "time", "vs keel list"],
    ["keel list (no install)", ms(list), "1.00×"],
    ["keel install npm:… (local verdaccio)", ms(fromRegistry), ratio(fromRegistry, list)],
    ["keel install ./x.tgz", ms(fromTarball), ratio(fromTarball, list)],
  ]);

  // --- verification at load -----------------------------------------------------------------------------
  const home50 = homeWithInstalled(50);
  const dirs = Array.from({ length: 50 }, (_, i) => join(home50, "plugins", `bench-${i}`));
  const cold = [];
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    const cacheDir = join(root, `verified-${i}`);
    let t = performance.now();
    const refusedCold = installed.verifyInstalled(dirs, { keelHome: home50, command: "keel", cacheDir });
    cold.push(performance.now() - t);
    t = performance.now();
    const refusedWarm = installed.verifyInstalled(dirs, { keelHome: home50, command: "keel", cacheDir });
    warm.push(performance.now() - t);
    if (refusedCold.size + refusedWarm.size > 0) throw new Error("a bench plugin was refused");
  }
  printTable(`verify-at-load, 50 installed plugins (median of ${RUNS}; goal: under 20 ms)`, [
    ["measure", "time", "per plugin"],
    ["cold (full sha512 of every tree)", ms(median(cold)), ms(median(cold) / 50)],
    ["warm (stamps unchanged)", ms(median(warm)), ms(median(warm) / 50)],
  ]);

  // --- keel -p with 50 installed plugins ----------------------------------------------------------------
  const home0 = homeWithInstalled(0);
  // The same 50 plugins copied in by hand (no keel.lock): what verification adds on top of 50 lazy plugins.
  const home50Unlocked = homeWithInstalled(50);
  rmSync(join(home50Unlocked, "keel.lock"));
  for (const home of [home0, home50, home50Unlocked])
    writeFileSync(join(home, "turns.json"), JSON.stringify([{ text: "ok" }]));
  const print = (home) =>
    timeProcess(
      process.execPath,
      [bin, "-p", "hi", "--provider", "scripted", "--settings", '{"provider-scripted":{"script":"turns.json"}}'],
      {
        cwd: home,
        env: { ...process.env, KEEL_HOME: home, KEEL_CACHE_DIR: cache },
      },
    );
  const [none, fifty, unlocked] = (
    await interleaved(
      [
        ["0", () => print(home0)],
        ["50", () => print(home50)],
        ["50 unlocked", () => print(home50Unlocked)],
      ],
      2,
      RUNS * 2,
    )
  ).map(median);
  printTable(`keel -p startup with installed plugins (median of ${RUNS * 2})`, [
    ["measure", "time", "vs none"],
    ["no installed plugins", ms(none), "1.00×"],
    ["50 lazy plugins copied by hand (not verified)", ms(unlocked), ratio(unlocked, none)],
    ["50 installed, verified, lazy", ms(fifty), ratio(fifty, none)],
  ]);
} finally {
  registry.close();
  rmSync(root, { recursive: true, force: true });
}
