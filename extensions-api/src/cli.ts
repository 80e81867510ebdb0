/**
 * The command line: the flags a plugin adds to the main command (`FlagSpec`, the shape the kernel's own flags
 * take too), the subcommands it adds (`CliCommandSpec`) and what a subcommand is given to work with.
 */
import type { InstallPolicy } from "./install-policy.js";
import type { Runtime } from "./plugin.js";
import type { PluginInfo } from "./plugin-info.js";
import type { UiRequest, UiResponse } from "./ui.js";

/** A command-line flag for the main `keel` command. */
export interface FlagSpec {
  /** Long name without dashes, e.g. `continue`. */
  name: string;
  /** One letter, e.g. `c`. */
  short?: string;
  description: string;
  type: "boolean" | "string" | "string[]";
  /** Placeholder for string values, e.g. `<id>`; in brackets (`[prompt]`) the value may be left out. */
  valueName?: string;
  /** The only values a string flag takes; any other is an error that lists them, before anything runs. */
  choices?: readonly string[];
  /**
   * Checks the value given on the command line, before anything runs (no session, no prompt). A returned text
   * is an error that ends the command with exit code 2; it should name the flag and say what to do. Not called
   * when the flag is absent.
   */
  check?(value: unknown): string | undefined | Promise<string | undefined>;
  /**
   * For a boolean flag: the operations backend it picks when given, over the `ops` setting (`--sandbox` picks
   * `sandbox`). The backend is still looked up by name, so a missing one is an error, never a fallback.
   */
  ops?: string;
  /**
   * The settings key (dotted) the flag overrides for one run (`--permission-mode` → `permissions.mode`). A
   * distribution that locks that key refuses the flag, naming the lock, rather than letting it undo the lock.
   */
  setting?: string;
}

/** A subcommand: `keel <name> [args]`. Runs instead of the agent. */
export interface CliCommandSpec {
  name: string;
  description: string;
  /** e.g. `[query]` or `<id>`. */
  arguments?: string;
  options?: FlagSpec[];
  run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number | void> | number | void;
}

export interface CliContext {
  cwd: string;
  keelHome: string;
  /**
   * The package.json of the running distribution (keel's own, or a built agent's). Its folder is where the
   * distribution's runtime and its own plugins resolve from (`keel dist build` copies them from there).
   */
  distributionFile: string;
  /**
   * Loads the plugin folder `dir` alone in a scratch keel (temporary home and workspace), activates it whatever
   * its activation events, disposes it, and returns every problem the host found: the manifest, `apiVersion`,
   * `dependsOn`, loading the entry, settings, activation, and registrations against `contributes`.
   */
  inspectPlugin(dir: string): Promise<string[]>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  listPlugins(): PluginInfo[];
  /**
   * Runs the session in mode `name` with the main command's flags, as `keel --mode <name>` would, and resolves
   * its exit code: for a subcommand that is a mode under its own name (`keel acp`). The project's trust is
   * not asked about, as for any subcommand.
   */
  runMode(name: string): Promise<number>;
  /**
   * Starts another session in this process, as the main command starts one (the same distribution, plugin
   * folders, settings, flags and workspace) but with no mode: its own runtime, plugins and history, for a command
   * that serves sessions to clients (`keel serve`). What its plugins ask the user (`ui_request`) goes to `ask`;
   * without it nothing is answered and each asker takes its safe default. Rejects when a required plugin cannot
   * run. The caller closes it; sessions still open when the command returns are not closed for it.
   */
  openSession(options?: { ask?(request: UiRequest): Promise<UiResponse | undefined> }): Promise<OpenedSession>;
  /** The command users type (`keel`, or a distribution's own), for messages. */
  command: string;
  /**
   * Asks a yes/no question on stderr and reads the answer from stdin (`y`/`yes`); resolves false when stdin
   * ends without one, so a command run from a script without its `--yes` declines.
   */
  confirm(question: string): Promise<boolean>;
  /** Whether the workspace's own configuration is trusted (project trust): project-scoped changes need it. */
  projectTrusted: boolean;
  /**
   * Runs `change`, which writes the workspace's own configuration (its `.keel/settings.json`, `.keel/plugins`,
   * `.mcp.json`), and keeps the folder trusted: when the user's remembered decision trusted the folder exactly
   * as it was just before (or it held nothing that needed trust), the new content is remembered as trusted
   * too. A change made any other way (an editor, a git pull) still needs the user's trust again.
   */
  changeProjectConfig<T>(change: () => T | Promise<T>): Promise<T>;
  /** What the managed settings let be installed: plugins and catalogs allowed and blocked, plugins required. */
  installPolicy: InstallPolicy;
}

/** A session a CLI command holds in keel's process (`CliContext.openSession`). */
export interface OpenedSession {
  /** The session, driven as a mode drives its own. */
  readonly runtime: Runtime;
  /** Ends the session (`session_end`, after aborting a run) and disposes its plugins. Safe to call more than once. */
  close(): Promise<void>;
}
