/**
 * The `dist` CLI command: reads the action and the manifest, builds, and for `run` starts what it built.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { z, type CliCommandSpec } from "@keel/extensions-api";
import { buildDistribution } from "./build.ts";
import { runBuilt } from "./run.ts";

const USAGE = "Use `dist build <manifest> --out <dir>` or `dist run <manifest> [-- <arguments for the agent>]`.";

/** The registry `npm` plugins come from: the marketplace's setting, so keel has one. */
const MarketplaceRegistry = z.object({ registry: z.string().optional() }).loose();

/** The command; `allSettings` are the settings it may read (`marketplace`). */
export const distCommand = (allSettings: () => Readonly<Record<string, unknown>>): CliCommandSpec => ({
  name: "dist",
  description: "build an agent from a distribution manifest (its own command and home), or run one without building",
  arguments: "<action> <manifest> [args...]",
  options: [
    {
      name: "out",
      type: "string",
      valueName: "<dir>",
      description: "dist build: the folder to write (must not exist)",
    },
    { name: "allow-git", type: "boolean", description: "let a trusted catalog give a plugin from a git repository" },
    { name: "allow-remote", type: "boolean", description: "let a trusted catalog give a plugin as a tarball URL" },
  ],
  async run(args, options, context) {
    const [action, manifest, ...rest] = args;
    if ((action !== "build" && action !== "run") || manifest === undefined) {
      context.stderr(`dist: unknown action ${JSON.stringify(action ?? "")}. ${USAGE}\n`);
      return 2;
    }
    const file = resolve(context.cwd, manifest);
    const common = {
      context,
      registry: registryOf(allSettings()),
      allowGit: options.allowGit === true,
      allowRemote: options.allowRemote === true,
    };
    if (action === "build") {
      if (typeof options.out !== "string") {
        context.stderr(`dist build: name the folder to write with --out <dir>. ${USAGE}\n`);
        return 2;
      }
      const built = await buildDistribution(file, resolve(context.cwd, options.out), { ...common, link: false });
      if (!built.ok) return fail(context.stderr, built.problems);
      context.stdout(`Built ${built.command} in ${built.out}: run ${built.bin}\n`);
      return 0;
    }
    // Running without building: the same folder, with the plugins and the runtime linked where they are.
    const out = join(mkdtempSync(join(tmpdir(), "keel-dist-run-")), "agent");
    try {
      const built = await buildDistribution(file, out, { ...common, link: true });
      if (!built.ok) return fail(context.stderr, built.problems);
      return await runBuilt(built.bin, rest, context.cwd);
    } finally {
      rmSync(join(out, ".."), { recursive: true, force: true });
    }
  },
});

function fail(stderr: (text: string) => void, problems: string[]): number {
  for (const problem of problems) stderr(`dist: ${problem}\n`);
  return 2;
}

function registryOf(settings: Readonly<Record<string, unknown>>): string | undefined {
  const parsed = MarketplaceRegistry.safeParse(settings.marketplace ?? {});
  return parsed.success ? parsed.data.registry : undefined;
}
