/**
 * The few flags that must be known before plugins load (they decide which plugins load and from where): the
 * kernel flags marked `boot` (kernel-flags.ts), scanned by hand. Commander parses everything again once plugins
 * have added their own flags.
 */
import { kernelFlags, type KernelFlag } from "./kernel-flags.js";

export interface BootArgs {
  cwd?: string;
  plugins: string[];
  settings: string[];
  safeMode: boolean;
  /** `--trust`: trust the project folder for this run. */
  trust: boolean;
  /** `--mode <name>`, and whether `-p` / `--print` was given: together they say whether the UI may ask. */
  mode?: string;
  print: boolean;
  /** The first word that is not an option nor a kernel flag's value: a subcommand candidate. */
  firstWord?: string;
  /** `-h`, `--help`, `-v` or `--version`: the run only prints, so nothing may ask. */
  onlyPrints: boolean;
}

/** Commander's own flags (help, and the version `buildProgram` adds), after which the run only prints. */
const PRINT_ONLY = ["-h", "--help", "-v", "--version"];

export function scanBootArgs(argv: string[], flags: readonly KernelFlag[] = kernelFlags("keel")): BootArgs {
  const byText = new Map(flags.flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])].map((t) => [t, f])));
  /** Each boot flag given, with its values in order (undefined for a value flag given last with none). */
  const given = new Map<string, (string | undefined)[]>();
  let firstWord: string | undefined;
  let onlyPrints = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    const [text, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const flag = byText.get(text);
    if (PRINT_ONLY.includes(text)) onlyPrints = true;
    if (!flag) {
      if (!arg.startsWith("-") && firstWord === undefined) firstWord = arg;
      continue;
    }
    let value = inline;
    if (flag.type !== "boolean" && inline === undefined) {
      // A boot flag's required value is the next word, whatever it is; an optional value (`-p [prompt]`) and
      // another flag's value are taken only when the next word does not look like a flag.
      const optional = !flag.boot || flag.valueName?.startsWith("[") === true;
      if (!optional || !(argv[i + 1] ?? "-").startsWith("-")) value = argv[++i];
    }
    if (flag.boot) given.set(flag.name, [...(given.get(flag.name) ?? []), value]);
  }
  const all = (name: string) => (given.get(name) ?? []).filter((v) => v !== undefined);
  return {
    cwd: given.get("cwd")?.at(-1),
    plugins: all("plugin"),
    settings: all("settings"),
    safeMode: given.has("safe-mode"),
    trust: given.has("trust"),
    mode: given.get("mode")?.at(-1),
    print: given.has("print"),
    firstWord,
    onlyPrints,
  };
}
