/**
 * The few flags that must be known before plugins load (they decide which plugins load and from where).
 * Scanned by hand; commander parses everything again once plugins have added their own flags.
 */
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
  /** The first word that is not an option: a subcommand candidate. */
  firstWord?: string;
  /** `-h`, `--help`, `-v` or `--version`: the run only prints, so nothing may ask. */
  onlyPrints: boolean;
}

const VALUE_FLAGS = new Set(["--provider", "--model", "--thinking"]);

export function scanBootArgs(argv: string[]): BootArgs {
  const out: BootArgs = { plugins: [], settings: [], safeMode: false, trust: false, print: false, onlyPrints: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--cwd") out.cwd = value();
    else if (flag === "--plugin") pushDefined(out.plugins, value());
    else if (flag === "--settings") pushDefined(out.settings, value());
    else if (flag === "--safe-mode") out.safeMode = true;
    else if (flag === "--trust") out.trust = true;
    else if (flag === "--mode") out.mode = value();
    else if (["-h", "--help", "-v", "--version"].includes(flag)) out.onlyPrints = true;
    else if (flag === "-p" || flag === "--print") {
      out.print = true;
      // -p takes an optional value; skip it only when it does not look like another flag.
      if (inline === undefined && !(argv[i + 1] ?? "-").startsWith("-")) i++;
    } else if (VALUE_FLAGS.has(flag) && inline === undefined) {
      if (!(argv[i + 1] ?? "-").startsWith("-")) i++;
    } else if (!arg.startsWith("-") && out.firstWord === undefined) out.firstWord = arg;
  }
  return out;
}

function pushDefined(list: string[], value: string | undefined): void {
  if (value !== undefined) list.push(value);
}
