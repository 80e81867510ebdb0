/**
 * What one shell command does, for the `auto` mode: `read-only` (looks, or runs the project's tests), `change`
 * (anything else, including every command this catalog does not know), or `irreversible` (cannot be taken back
 * by keel or git: a push, a publish, a deploy, `rm -rf` outside build folders). Only fixed text is trusted: a
 * command whose name is computed at run time is a change.
 */
import { inBuildFolder, resolvePath, type Places } from "./paths.ts";
import type { ShellCommand } from "./shell.ts";

export type CommandClass = "read-only" | "change" | "irreversible";

/** Variables a command may be given without changing which program runs or what it loads. */
const HARMLESS_VARIABLES = new RegExp(
  `^(${["CI", "NODE_ENV", "DEBUG", "FORCE_COLOR", "NO_COLOR", "TZ", "LANG", "LANGUAGE", "LC_[A-Z]+", "TERM"]
    .concat(["COLUMNS", "LINES", "RUST_BACKTRACE", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"])
    .join("|")})$`,
);

/** Commands that only read, whatever their arguments (output redirections are judged separately). */
const READERS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "pwd",
  "which",
  "whereis",
  "type",
  "file",
  "stat",
  "du",
  "df",
  "cut",
  "tr",
  "diff",
  "cmp",
  "comm",
  "paste",
  "column",
  "fold",
  "nl",
  "od",
  "hexdump",
  "strings",
  "tac",
  "rev",
  "seq",
  "sleep",
  "true",
  "false",
  "test",
  "[",
  "echo",
  "printf",
  "whoami",
  "id",
  "uname",
  "groups",
  "printenv",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "jq",
  "ps",
  "nproc",
  "uptime",
  "free",
]);

/** Checks for readers with an option that writes or runs something. */
const READERS_IF: Readonly<Record<string, (args: string[], places: Places) => boolean>> = {
  rg: (args) => !args.some((a) => a.startsWith("--pre")),
  find: (args) => !args.some((a) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a)),
  sort: (args) => !args.some((a) => a === "-o" || a.startsWith("--output") || /^-[a-z]*o/.test(a)),
  tree: (args) => !args.some((a) => a === "-o"),
  uniq: (args) => args.filter((a) => !a.startsWith("-")).length <= 1,
  date: (args) => !args.some((a) => a === "-s" || a.startsWith("--set")),
  hostname: (args) => args.length === 0,
  sed: (args) => args[0] === "-n" && args.length >= 2 && /^(\d+|\$)?(,(\d+|\$))?p$/.test(args[1]!),
  env: (args) => args.length === 0,
  git: gitReads,
  node: nodeRunsTests,
  // Later commands' relative paths are judged from the workspace: a `cd` out of it would make that wrong.
  cd: staysInWorkspace,
  pushd: staysInWorkspace,
};

/** Test runners: running the project's own tests is what the agent is there to do. */
const TEST_RUNNERS = new Set(["vitest", "jest", "mocha", "ava", "pytest", "rspec", "phpunit", "ctest"]);
/** Package managers whose `test` script is the project's tests. */
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
/** Toolchains whose `--version` is worth answering without a question. */
const TOOLCHAINS = new Set([
  "node",
  "npm",
  "npx",
  "pnpm",
  "yarn",
  "bun",
  "deno",
  "python",
  "python3",
  "pip",
  "go",
  "cargo",
  "rustc",
  "git",
  "tsc",
  "java",
  "gcc",
  "make",
]);

const GIT_READS = new Set([
  "status",
  "diff",
  "log",
  "show",
  "blame",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "grep",
  "describe",
  "shortlog",
  "cat-file",
  "rev-list",
  "show-ref",
  "merge-base",
  "name-rev",
  "version",
  "help",
]);

/**
 * Strips what only wraps a command (`timeout 5`, `nice`, `env CI=1`, `FOO=1`, `sudo`) so rules see the command
 * itself. `harmless` is false when a wrapper changes who runs it or with what (`sudo`, `env PATH=…`).
 */
export function unwrap(command: ShellCommand): { words: string[]; literal: boolean[]; harmless: boolean } {
  let words = command.words;
  let literal = command.literal;
  let harmless = command.assigns.every((name) => HARMLESS_VARIABLES.test(name));
  for (let guard = 0; guard < 8 && words.length > 0; guard++) {
    const skip = wrapperLength(words);
    if (skip === 0) break;
    if (!skip.harmless) harmless = false;
    words = words.slice(skip.length);
    literal = literal.slice(skip.length);
  }
  return { words, literal, harmless };
}

function wrapperLength(words: string[]): 0 | { length: number; harmless: boolean } {
  const [name] = words;
  let i = 1;
  switch (name) {
    case "nohup":
    case "time":
      return { length: 1, harmless: true };
    case "command":
      return words[1]?.startsWith("-") ? 0 : { length: 1, harmless: true };
    case "nice":
      while (words[i]?.startsWith("-")) i += words[i] === "-n" ? 2 : 1;
      return { length: i, harmless: true };
    case "timeout":
      while (words[i]?.startsWith("-")) i += words[i] === "-s" || words[i] === "-k" ? 2 : 1;
      return { length: i + 1, harmless: true };
    case "env": {
      let harmless = true;
      for (; i < words.length; i++) {
        const word = words[i]!;
        if (word === "-i" || word === "--") continue;
        if (word === "-u") i++;
        else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word))
          harmless &&= HARMLESS_VARIABLES.test(word.slice(0, word.indexOf("=")));
        else if (word.startsWith("-")) return 0;
        else break;
      }
      return i < words.length ? { length: i, harmless } : 0;
    }
    case "sudo":
    case "doas":
      while (words[i]?.startsWith("-")) i += /^-[ugCh]$/.test(words[i]!) ? 2 : 1;
      return { length: i, harmless: false };
    case "exec":
      return { length: 1, harmless: false };
    default:
      return 0;
  }
}

/** Classifies one command. `places` resolves the paths it names (rm's targets, node's test file). */
export function classify(command: ShellCommand, places: Places): { class: CommandClass; why?: string } {
  const { words, literal, harmless } = unwrap(command);
  const irreversible = irreversibleWhy(words, places);
  if (irreversible) return { class: "irreversible", why: irreversible };
  if (words.length === 0)
    return harmless
      ? { class: "read-only" }
      : { class: "change", why: "it sets a variable that changes which programs run or what they load" };
  if (!literal[0]) return { class: "change", why: "its command name is computed when it runs" };
  if (!harmless)
    return {
      class: "change",
      why: "it runs with a wrapper or variable that changes what runs (sudo, PATH, LD_PRELOAD …)",
    };
  return readOnly(words, places) ? { class: "read-only" } : { class: "change" };
}

function readOnly(words: string[], places: Places): boolean {
  const [name, ...args] = words as [string, ...string[]];
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v" || args[0] === "-V") && TOOLCHAINS.has(name))
    return true;
  if (READERS.has(name)) return true;
  const check = READERS_IF[name];
  if (check) return check(args, places);
  return runsTests(name, args);
}

function runsTests(name: string, args: string[]): boolean {
  const [first, second] = args;
  if (TEST_RUNNERS.has(name)) return true;
  if (PACKAGE_MANAGERS.has(name))
    return first === "test" || first === "t" || (first === "run" && /^test([:-].*)?$/.test(second ?? ""));
  if (name === "npx" || name === "bunx") return first !== undefined && TEST_RUNNERS.has(first);
  if (name === "python" || name === "python3") return first === "-m" && (second === "pytest" || second === "unittest");
  if (name === "go") return first === "test" || first === "vet";
  if (name === "cargo") return first === "test" || first === "check" || first === "clippy";
  if (name === "make") return args.length === 1 && (first === "test" || first === "check");
  if (name === "deno" || name === "dotnet") return first === "test";
  if (name === "tsc") return args.includes("--noEmit");
  return false;
}

/** `node --test …`, or `node path/to/x.test.js` for a test file inside the workspace. */
function nodeRunsTests(args: string[], places: Places): boolean {
  const options = args.filter((a) => a.startsWith("-"));
  const files = args.filter((a) => !a.startsWith("-"));
  if (
    !options.every(
      (o) => o === "--test" || o === "--no-warnings" || o === "--enable-source-maps" || o.startsWith("--test-"),
    )
  )
    return false;
  if (options.includes("--test") && files.length === 0) return true;
  const [file] = files;
  if (files.length !== 1 || !file) return false;
  const path = resolvePath(file, places);
  return path.rel !== undefined && /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[cm]?[jt]sx?$/.test(path.rel);
}

function staysInWorkspace(args: string[], places: Places): boolean {
  const targets = args.filter((a) => !a.startsWith("-") || a === "-");
  return targets.length === 1 && targets[0] !== "-" && resolvePath(targets[0]!, places).rel !== undefined;
}

function gitReads(args: string[]): boolean {
  let i = 0;
  while (args[i] === "--no-pager" || args[i] === "-P" || args[i] === "-C") i += args[i] === "-C" ? 2 : 1;
  const [sub, ...rest] = args.slice(i);
  if (sub === undefined) return false;
  if (
    rest.some(
      (a) =>
        a.startsWith("--output") || a === "-O" || a.startsWith("--open-files-in-pager") || a.startsWith("--ext-diff"),
    )
  )
    return false;
  if (GIT_READS.has(sub)) return true;
  const positional = rest.filter((a) => !a.startsWith("-"));
  switch (sub) {
    case "branch":
    case "tag":
      return (
        positional.length === 0 &&
        rest.every((a) =>
          /^(-a|-r|-v|-vv|-l|--list|--all|--remotes|--show-current|--merged|--no-merged|--contains)$/.test(a),
        )
      );
    case "remote":
      return rest.length === 0 || (rest.length === 1 && rest[0] === "-v") || rest[0] === "get-url";
    case "stash":
      return rest[0] === "list" || rest[0] === "show";
    case "worktree":
      return rest[0] === "list";
    case "config":
      return rest.some((a) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(a));
    default:
      return false;
  }
}

const PUBLISHERS: Readonly<Record<string, RegExp>> = {
  npm: /^(publish|unpublish|deprecate)$/,
  pnpm: /^publish$/,
  yarn: /^(publish|npm)$/,
  bun: /^publish$/,
  cargo: /^(publish|yank)$/,
  gem: /^(push|yank)$/,
  twine: /^upload$/,
  poetry: /^publish$/,
  docker: /^push$/,
  terraform: /^(apply|destroy)$/,
  kubectl: /^(apply|delete|replace|patch|scale|rollout)$/,
  helm: /^(install|upgrade|uninstall|rollback)$/,
};
const DESTROYERS = new Set(["dd", "shred", "wipefs", "fdisk", "parted", "shutdown", "reboot", "halt", "poweroff"]);

function irreversibleWhy(words: string[], places: Places): string | undefined {
  const [name, ...args] = words;
  if (name === undefined) return undefined;
  if (name === "git") return gitIrreversible(args);
  if (PUBLISHERS[name]?.test(args[0] ?? ""))
    return `\`${name} ${args[0]}\` publishes or changes something outside this machine`;
  if (words.slice(0, 4).some((w) => /^deploy(:|$)/.test(w))) return "it deploys";
  if (name === "gh" && args[0] === "release") return "it publishes a release";
  if (DESTROYERS.has(name) || name.startsWith("mkfs")) return `\`${name}\` destroys data or stops the machine`;
  if (name === "rm") return rmIrreversible(args, places);
  return undefined;
}

function gitIrreversible(args: string[]): string | undefined {
  const i = args.findIndex((a) => !a.startsWith("-"));
  const [sub, ...rest] = args.slice(i < 0 ? args.length : i);
  if (sub === "push") return "`git push` changes a remote repository";
  if (sub === "reset" && rest.includes("--hard")) return "`git reset --hard` discards uncommitted work";
  if (sub === "clean" && rest.some((a) => /^-[a-z]*f/.test(a) || a === "--force"))
    return "`git clean -f` deletes untracked files";
  if (sub === "branch" && rest.some((a) => a === "-D" || a === "--delete")) return "it deletes a branch";
  if (sub === "stash" && (rest[0] === "drop" || rest[0] === "clear")) return "it drops stashed work";
  if ((sub === "checkout" && rest.includes("--")) || (sub === "restore" && !rest.includes("--staged")))
    return "it discards uncommitted changes";
  return undefined;
}

/** `rm -r` / `rm -f` anywhere but build folders of the workspace. */
function rmIrreversible(args: string[], places: Places): string | undefined {
  const flags = args.filter((a) => a.startsWith("-") && a !== "--");
  if (!flags.some((f) => /^-[a-zA-Z]*[rRf]/.test(f) || f === "--recursive" || f === "--force")) return undefined;
  const targets = args.filter((a) => !a.startsWith("-"));
  const outside = targets.filter((target) => {
    // A glob counts from the folder it starts in: `dist/*` is inside dist, `*` and `dist*` are not.
    const glob = target.search(/[*?[]/);
    const folder = glob < 0 ? target : target.slice(0, target.lastIndexOf("/", glob) + 1);
    return folder === "" || !inBuildFolder(resolvePath(folder, places));
  });
  return outside.length > 0
    ? `\`rm ${flags.join(" ")}\` deletes ${outside.join(", ")} for good (outside the workspace's build folders)`
    : undefined;
}
