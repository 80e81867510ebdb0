/**
 * The kernel's own flags, in the shape plugins give theirs (`FlagSpec`): the one list the main command's options
 * are added from (as plugin flags are), the boot scan reads (the flags marked `boot`, known before plugins load
 * because they decide which load, from where and how the folder's trust is asked) and the locked-settings check
 * uses (`setting`).
 */
import { THINKING_LEVELS, type FlagSpec } from "@keel/extensions-api";

export interface KernelFlag extends FlagSpec {
  /** Read by the boot scan (boot-args.ts), before any plugin loads; commander parses it again later. */
  boot?: true;
}

/** The kernel's flags, in the order `--help` lists them; `command` is the distribution's command name. */
export function kernelFlags(command: string): readonly KernelFlag[] {
  return [
    {
      name: "print",
      short: "p",
      type: "string",
      valueName: "[prompt]",
      description: "run one prompt without interaction and print the answer",
      boot: true,
    },
    {
      name: "mode",
      type: "string",
      valueName: "<mode>",
      description: "how to present the session: text, json, or a mode a plugin adds",
      boot: true,
    },
    {
      name: "provider",
      type: "string",
      valueName: "<id>",
      description: `provider to use (see \`${command} models\`)`,
      setting: "provider",
    },
    { name: "model", type: "string", valueName: "<id>", description: "model to use", setting: "model" },
    {
      name: "thinking",
      type: "string",
      valueName: "<level>",
      choices: THINKING_LEVELS,
      description: "how hard a model that reasons thinks first",
      setting: "thinking",
    },
    {
      name: "cwd",
      type: "string",
      valueName: "<dir>",
      description: "workspace folder (default: the current folder)",
      boot: true,
    },
    {
      name: "plugin",
      type: "string[]",
      valueName: "<path>",
      description: "load a plugin folder (repeatable)",
      boot: true,
    },
    {
      name: "settings",
      type: "string[]",
      valueName: "<json|file>",
      description: "extra settings, over the settings files (repeatable)",
      boot: true,
    },
    { name: "safe-mode", type: "boolean", description: "load only the distribution's own plugins", boot: true },
    {
      name: "trust",
      type: "boolean",
      description: "trust this folder's own configuration (.keel/settings.json, .mcp.json) for this run",
      boot: true,
    },
  ];
}
