/**
 * Deciding whether the project folder's own configuration applies. The project_trust hook answers first (a
 * policy plugin, or the interactive UI asking the user); unanswered, `--trust` or the decision remembered for
 * exactly these files decides; otherwise the folder is not trusted. Runs before the project's settings are
 * merged, so only plugins from outside the project can answer.
 */
import type { ProjectTrustAnswer } from "@keel/extensions-api";
import type { HookBus } from "@keel/kernel";
import type { SettingsObject } from "../settings/layers.js";
import {
  PROJECT_CONFIG_FOLDERS,
  PROJECT_PLUGIN_FILES,
  readProjectConfig,
  type ProjectConfig,
} from "./project-config.js";
import type { TrustStore } from "./trust-store.js";
import { splitProjectSettings } from "./untrusted-project.js";

export interface TrustOptions {
  /** `--trust`: the user trusts the folder for this run. */
  granted?: boolean;
  /** The session runs an interactive UI that may ask (not print, JSON, RPC or a built-in subcommand). */
  interactive?: boolean;
  /** The first word of the command line: when a plugin's subcommand has that name, nobody is asked. */
  firstWord?: string;
  /** The interactive mode that will run (`ProjectTrustRequest.mode`). */
  mode?: string;
}

export interface ProjectTrust {
  config: ProjectConfig;
  trusted: boolean;
  /** What waits for trust, by name; empty when the project sets only what the allowlist allows. */
  held: string[];
  /** The settings an untrusted project may still apply. */
  allowed: SettingsObject;
  /** Who decided, for the notice: a plugin's name, `--trust`, or the remembered decision. */
  decidedBy?: string;
  /** The one notice for a project whose held configuration was skipped. */
  notice?: string;
}

/**
 * The warning for a run that lost the hooks a folder had when the user trusted it (its files changed since, so
 * none of them runs): said apart from the notice, and first, since a guard the team relies on is gone.
 */
export function lostHooksWarning(lost: readonly string[], command: string): string {
  return (
    `WARNING: this run has none of this project's hooks (${lost.join(", ")}): they guarded it when you trusted ` +
    `the folder, but its configuration changed since, so its hooks and settings no longer apply. Review the ` +
    `change, then run "${command} trust".`
  );
}

function isAnswer(value: unknown): value is ProjectTrustAnswer {
  return typeof value === "object" && value !== null && typeof (value as ProjectTrustAnswer).trusted === "boolean";
}

export interface TrustInputs {
  cwd: string;
  project: SettingsObject | undefined;
  store: TrustStore;
  hooks: HookBus;
  options: TrustOptions;
  /** Whether a plugin's manifest contributes this subcommand. */
  isCliCommand(word: string): boolean;
  /** The distribution's command, for the notice. */
  command: string;
  /**
   * Activates the plugins that may answer the question; called only when there is something to decide, so a
   * folder without project configuration loads none of them (the terminal UI is one).
   */
  activateDeciders(): Promise<void>;
  warnings: string[];
}

export async function decideProjectTrust(args: TrustInputs): Promise<ProjectTrust> {
  const config = readProjectConfig(args.cwd);
  const split = splitProjectSettings(args.project);
  const { allowed } = split;
  // A config folder with files in it, or a file plugins read, waits for trust like a settings key does.
  const folders = PROJECT_CONFIG_FOLDERS.filter((d) => config.files.some((f) => f.startsWith(`${d}/`)));
  const pluginFiles = PROJECT_PLUGIN_FILES.filter((file) => config.files.includes(file));
  const held = [...split.held, ...folders, ...pluginFiles];
  if (held.length === 0 && config.plugins.length === 0) return { config, trusted: true, held, allowed };
  const remembered = args.store.remembered(config, args.warnings);
  const granted = args.options.granted === true;
  const { firstWord } = args.options;
  const interactive = args.options.interactive === true && !(firstWord !== undefined && args.isCliCommand(firstWord));
  await args.activateDeciders();
  const raw = await args.hooks.provide("project_trust", {
    dir: config.dir,
    files: config.files,
    keys: held,
    remembered,
    granted,
    interactive,
    ...(interactive && args.options.mode && { mode: args.options.mode }),
  });
  if (raw !== undefined && !isAnswer(raw))
    args.warnings.push(
      `A project_trust handler answered ${JSON.stringify(raw)}, not { trusted: boolean }; it was ignored.`,
    );
  const answer = isAnswer(raw) ? raw : undefined;
  if (answer?.remember) await args.store.remember(config, answer.trusted, args.warnings);
  const trusted = answer?.trusted ?? (granted || remembered === true);
  const decidedBy = answer
    ? "project_trust"
    : granted
      ? "--trust"
      : remembered !== undefined
        ? "remembered"
        : undefined;
  if (trusted) return { config, trusted, held, allowed, decidedBy };
  const why = answer?.reason
    ? ` (${answer.reason})`
    : remembered === false && !answer
      ? " (you chose not to trust it)"
      : "";
  // A config folder is named once, not file by file.
  const settingFiles = [
    ...new Set(
      config.files
        .filter((file) => !config.plugins.includes(file))
        .map((file) => PROJECT_CONFIG_FOLDERS.find((d) => file.startsWith(`${d}/`)) ?? file),
    ),
  ];
  const skipped = [
    ...(held.length > 0
      ? [`what its ${settingFiles.join(", ")} set beyond the harmless keys (${held.join(", ")})`]
      : []),
    ...(config.plugins.length > 0 ? [`its plugins (${config.plugins.join(", ")})`] : []),
  ];
  const notice =
    `This folder is not trusted${why}, so ${args.command} skipped ${skipped.join(" and ")}. ` +
    `Trust it with "${args.command} trust" (remembered until those files change) or run with --trust (this run only).`;
  const lost = answer ? [] : args.store.lapsedHooks(config, args.warnings);
  if (lost.length > 0) args.warnings.push(lostHooksWarning(lost, args.command));
  return { config, trusted, held, allowed, decidedBy, notice };
}
