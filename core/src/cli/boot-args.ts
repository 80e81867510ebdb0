/**
 * The few flags that must be known before plugins load (they decide which plugins load and from where).
 * Scanned by hand; commander parses everything again once plugins have added their own flags.
 */
export interface BootArgs {
  cwd?: string;
  plugins: string[];
  settings: string[];
  safeMode: boolean;
  /** The first word that is not an option: a subcommand candidate. */
  firstWord?: string;
}

const VALUE_FLAGS = new Set(["--cwd", "--plugin", "--settings", "--mode", "--provider", "--model", "-p", "--print"]);

export function scanBootArgs(argv: string[]): BootArgs {
  const out: BootArgs = { plugins: [], settings: [], safeMode: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--cwd") out.cwd = value();
    else if (flag === "--plugin") pushDefined(out.plugins, value());
    else if (flag === "--settings") pushDefined(out.settings, value());
    else if (flag === "--safe-mode") out.safeMode = true;
    else if (VALUE_FLAGS.has(flag) && inline === undefined) {
      // -p takes an optional value; skip it only when it does not look like another flag.
      if (!(argv[i + 1] ?? "-").startsWith("-")) i++;
    } else if (!arg.startsWith("-") && out.firstWord === undefined) out.firstWord = arg;
  }
  return out;
}

function pushDefined(list: string[], value: string | undefined): void {
  if (value !== undefined) list.push(value);
}
