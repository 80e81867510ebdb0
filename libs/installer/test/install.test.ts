import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifyInstalled } from "@keel/plugin-lock";
import {
  INSTALL_STEPS,
  installPlugin,
  parseSource,
  rollBack,
  scopeLock,
  type InstallOptions,
  type Scope,
} from "@keel/installer";
import { swapIn } from "../src/swap.ts";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { packTarball, writePackage } from "./support/packages.ts";

function setup() {
  const root = tempDir("keel-installer-");
  const scope: Scope = { kind: "user", root: join(root, "home") };
  const options = (over: Partial<InstallOptions> = {}): InstallOptions => ({
    scope,
    cwd: root,
    cache: join(root, "cache"),
    command: "keel",
    installed: new Map(),
    confirm: async () => true,
    ...over,
  });
  return { root, scope, options };
}

/** The installed `hello` is `version` in its folder and in the lock, and the host would load it. */
function expectWorking({ root, scope }: { root: string; scope: Scope }, version: string): void {
  const dir = join(scope.root, "plugins", "hello");
  expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version).toBe(version);
  expect(scopeLock(scope).plugins.hello!.version).toBe(version);
  expect(verifyInstalled([dir], { keelHome: scope.root, command: "keel", cacheDir: join(root, "verified") }).size).toBe(
    0,
  );
}

describe("installPlugin", () => {
  it("installs a tarball, records it in keel.lock, and the host verifies it", async () => {
    const { root, scope, options } = setup();
    const integrity = await packTarball(
      writePackage(join(root, "src", "hello"), { name: "hello" }),
      join(root, "hello.tgz"),
    );
    const done = await installPlugin(parseSource("./hello.tgz", root), options({ integrity }));
    expect(done.outcome).toBe("installed");
    const entry = scopeLock(scope).plugins.hello!;
    expect(entry).toMatchObject({ version: "1.0.0", integrity, source: `file:${join(root, "hello.tgz")}` });
    expect(entry.tree).toMatch(/^sha512-/);
    const dir = join(scope.root, "plugins", "hello");
    expect(
      verifyInstalled([dir], { keelHome: scope.root, command: "keel", cacheDir: join(root, "verified") }).size,
    ).toBe(0);
    writeFileSync(join(dir, "index.ts"), readFileSync(join(dir, "index.ts"), "utf8") + " ");
    const refused = verifyInstalled([dir], { keelHome: scope.root, command: "keel", cacheDir: join(root, "verified") });
    expect(refused.get(dir)?.reason).toMatch(/changed since it was installed.*keel install file:/);
  });

  it("refuses at load a version blocked by a catalog a built distribution ships, naming the catalog", async () => {
    const { root, scope, options } = setup();
    await packTarball(writePackage(join(root, "src", "hello"), { name: "hello" }), join(root, "hello.tgz"));
    await installPlugin(parseSource("./hello.tgz", root), options());
    const dir = join(scope.root, "plugins", "hello");
    const distribution = join(root, "built-agent");
    mkdirSync(join(distribution, "catalogs"), { recursive: true });
    const block = { "hello@1.0.0": { catalog: "team", reason: "it sends your files away" } };
    writeFileSync(join(distribution, "catalogs", "blocked.json"), JSON.stringify(block));
    const verify = (distributionRoot?: string) =>
      verifyInstalled([dir], {
        keelHome: scope.root,
        command: "agent",
        cacheDir: join(root, "verified"),
        distributionRoot,
      });
    expect(verify().size).toBe(0);
    expect(verify(distribution).get(dir)?.reason).toBe(
      'version 1.0.0 is blocked by the catalog "team": it sends your files away. ' +
        "Remove it (`agent remove hello`) or update to a version that is not blocked.",
    );
  });

  it("refuses a tarball whose sha512 differs from the expected one", async () => {
    const { root, scope, options } = setup();
    await packTarball(writePackage(join(root, "src", "hello"), { name: "hello" }), join(root, "hello.tgz"));
    const wrong = `sha512-${Buffer.alloc(64).toString("base64")}`;
    await expect(installPlugin(parseSource("./hello.tgz", root), options({ integrity: wrong }))).rejects.toThrow(
      /does not have the expected sha512|not the expected/,
    );
    expect(existsSync(join(scope.root, "plugins", "hello"))).toBe(false);
  });

  /** Ways an update to 2.0.0 fails part-way: an injected failure at each step, and a rename that cannot happen. */
  const failures: { how: string; update(ctx: ReturnType<typeof setup>): Promise<unknown> }[] = [
    ...INSTALL_STEPS.filter((s) => s !== "consent").map((failing) => ({
      how: `the ${failing} step fails`,
      update: ({ root, options }: ReturnType<typeof setup>) => {
        const onStep = (step: string) => {
          if (step === failing) throw new Error(`injected failure at ${step}`);
        };
        return installPlugin(parseSource("./v2.tgz", root), options({ onStep }));
      },
    })),
    {
      how: "the new version cannot be moved into place",
      update: async ({ root, scope }) => {
        const entry = scopeLock(scope).plugins.hello!;
        swapIn(scope, "hello", join(root, "no-such-staging-folder"), { ...entry, version: "2.0.0" });
      },
    },
  ];

  for (const { how, update } of failures)
    it(`leaves the previous version working when ${how}`, async () => {
      const ctx = setup();
      const { root, scope, options } = ctx;
      await packTarball(writePackage(join(root, "v1", "hello"), { name: "hello" }), join(root, "v1.tgz"));
      await packTarball(
        writePackage(join(root, "v2", "hello"), { name: "hello", version: "2.0.0" }),
        join(root, "v2.tgz"),
      );
      await installPlugin(parseSource("./v1.tgz", root), options());
      await expect(update(ctx)).rejects.toThrow(/injected|ENOENT/);
      expectWorking(ctx, "1.0.0");
    });

  it("rolls back to the previous version", async () => {
    const { root, scope, options } = setup();
    await packTarball(writePackage(join(root, "v1", "hello"), { name: "hello" }), join(root, "v1.tgz"));
    await packTarball(
      writePackage(join(root, "v2", "hello"), { name: "hello", version: "2.0.0" }),
      join(root, "v2.tgz"),
    );
    await installPlugin(parseSource("./v1.tgz", root), options());
    await installPlugin(parseSource("./v2.tgz", root), options());
    expect(scopeLock(scope).plugins.hello!.version).toBe("2.0.0");
    expect(rollBack(scope, "hello").version).toBe("1.0.0");
    expectWorking({ root, scope }, "1.0.0");
  });

  it("asks again when an update adds a capability no grant covers or a hook, and not otherwise", async () => {
    const { root, options } = setup();
    const pack = (v: string, p: object) =>
      packTarball(writePackage(join(root, v, "hello"), { name: "hello", version: v, ...p }), join(root, `${v}.tgz`));
    await pack("1.0.0", { capabilities: ["fs:read"] });
    await pack("1.1.0", { capabilities: ["fs:read:{workspace}"] });
    await pack("2.0.0", { capabilities: ["fs:read:{workspace}/src", "net:*"], hooks: ["tool_call"] });
    const asked: string[] = [];
    const confirm = async (plan: { version: string; added: { capabilities: string[]; hooks: string[] } }) => {
      asked.push(`${plan.version} +${[...plan.added.capabilities, ...plan.added.hooks].join(",")}`);
      return plan.version !== "2.0.0";
    };
    await installPlugin(parseSource("./1.0.0.tgz", root), options({ confirm }));
    await installPlugin(parseSource("./1.1.0.tgz", root), options({ confirm }));
    const declined = await installPlugin(parseSource("./2.0.0.tgz", root), options({ confirm }));
    expect(asked).toEqual(["1.0.0 +", "2.0.0 +net:*,tool_call"]);
    expect(declined).toMatchObject({ outcome: "declined", entry: { version: "1.1.0" } });
  });

  it("refuses a plugin with a postinstall script, and never runs it", async () => {
    const { root, scope, options } = setup();
    const marker = join(root, "marker");
    await packTarball(
      writePackage(join(root, "src", "hello"), { name: "hello", scripts: { postinstall: `touch ${marker}` } }),
      join(root, "hello.tgz"),
    );
    await expect(installPlugin(parseSource("./hello.tgz", root), options())).rejects.toThrow(
      /has a postinstall script; keel never runs lifecycle scripts/,
    );
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(scope.root, "plugins", "hello"))).toBe(false);
  });

  it("refuses a plugin that needs a newer keel or a missing dependency", async () => {
    const { root, options } = setup();
    await packTarball(
      writePackage(join(root, "a", "hello"), { name: "hello", apiVersion: "^9.0.0" }),
      join(root, "a.tgz"),
    );
    await expect(installPlugin(parseSource("./a.tgz", root), options())).rejects.toThrow(
      /needs keel's extension API \^9\.0\.0/,
    );
    await packTarball(
      writePackage(join(root, "b", "hello"), { name: "hello", dependsOn: { base: "^2" } }),
      join(root, "b.tgz"),
    );
    await expect(installPlugin(parseSource("./b.tgz", root), options())).rejects.toThrow(/depends on the plugin base/);
    await expect(
      installPlugin(parseSource("./b.tgz", root), options({ installed: new Map([["base", "1.0.0"]]) })),
    ).rejects.toThrow(/base@1\.0\.0 is installed/);
  });

  it("refuses a package whose name would climb out of the plugin folder", async () => {
    const { root, scope, options } = setup();
    const src = writePackage(join(root, "src", "evil"), { name: "evil" });
    const pkg = JSON.parse(readFileSync(join(src, "package.json"), "utf8"));
    writeFileSync(join(src, "package.json"), JSON.stringify({ ...pkg, name: "../../escaped" }));
    await packTarball(src, join(root, "evil.tgz"));
    await expect(installPlugin(parseSource("./evil.tgz", root), options())).rejects.toThrow(
      /"name"|is not an npm package name/,
    );
    expect(existsSync(join(scope.root, "..", "escaped"))).toBe(false);
  });

  it("refuses an update whose source now holds another package", async () => {
    const { root, options } = setup();
    await packTarball(writePackage(join(root, "a", "hello"), { name: "hello" }), join(root, "a.tgz"));
    await expect(installPlugin(parseSource("./a.tgz", root), options({ current: { name: "other" } }))).rejects.toThrow(
      /the source of other now holds a package named hello/,
    );
  });

  it("links a local folder and does not verify it", async () => {
    const { root, scope, options } = setup();
    const src = writePackage(join(root, "dev", "hello"), { name: "hello" });
    await installPlugin(parseSource(src, root), options());
    expect(scopeLock(scope).plugins.hello).toMatchObject({ linked: true, source: `link:${src}` });
    mkdirSync(join(src, "more"));
    writeFileSync(join(src, "more", "x.ts"), "");
    const dir = join(scope.root, "plugins", "hello");
    expect(
      verifyInstalled([dir], { keelHome: scope.root, command: "keel", cacheDir: join(root, "verified") }).size,
    ).toBe(0);
  });
});
