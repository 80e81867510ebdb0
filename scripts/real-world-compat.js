#!/usr/bin/env node
// The compatibility run over real files of other tools' formats (the shared real-world sample, or a folder given):
// every skill, AGENTS.md/CLAUDE.md/GEMINI.md, MCP file, hook configuration, subagent and slash command in it,
// read by the readers keel runs (@keel/formats, the host's .claude/settings.json mapping, hooks-command's and the
// MCP plugin's parsers), each counted as working unchanged, working with parts keel does not honour, or refused,
// with the reason keel gives. Prints the table and every note; exits 1 when a reader crashes on a file.
// Imports the readers' TypeScript sources: Node 23.6+ (or --experimental-strip-types), after `npm run build`.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { mapClaudeSettings } from "../core/src/settings/claude-settings.ts";
import { mcpServersOf } from "@keel/extensions-api/mcp-config";
import { readAgentFile } from "../libs/formats/src/agents.ts";
import { readCommandFile } from "../libs/formats/src/commands.ts";
import { expandPrompt } from "../libs/formats/src/expand.ts";
import { withImports } from "../libs/formats/src/instructions.ts";
import { Notes } from "../libs/formats/src/notes.ts";
import { readSkillFile } from "../libs/formats/src/skills.ts";
import { parseHooks } from "../plugins/hooks-command/src/config.ts";
import { parseServer } from "../plugins/mcp/src/servers.ts";

// The shared sample sits beside the repository, or beside the folder of worktrees holding it.
const beside = ["../../shared/real-world/", "../../../shared/real-world/"].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);
const root = process.argv[2] ?? beside.find((dir) => existsSync(dir));
if (!root || !existsSync(root)) {
  console.error(`No real-world sample at ${root ?? beside.join(" or ")}; pass its folder.`);
  process.exit(2);
}
/** The tools of keel's default distribution, which an agent's tools are mapped onto. */
const KEEL_TOOLS = ["read", "write", "edit", "bash", "grep", "find", "ls", "process", "task", "read_result"];
/** Per-file cap of the context plugin (context.maxFileBytes). */
const MAX_FILE_BYTES = 64 * 1024;

/** @param {string} dir @returns {string[]} */
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** @typedef {{ kind: string, file: string, status: "works" | "partly" | "refused", reason?: string }} Result */

/** @param {Notes} notes @param {string} file @returns {Pick<Result, "status" | "reason">} */
function fromNotes(notes, file) {
  const mine = notes.list.filter((n) => n.file === file);
  if (mine.some((n) => n.refused)) return { status: "refused", reason: mine.map((n) => n.reason).join("; ") };
  if (mine.length > 0) return { status: "partly", reason: mine.map((n) => n.reason).join("; ") };
  return { status: "works" };
}

/** @type {Record<string, (file: string) => Promise<Pick<Result, "status" | "reason">>>} */
const READERS = {
  async skills(file) {
    const notes = new Notes();
    await readSkillFile(dirname(file), file, readFileSync(file, "utf8"), notes);
    return fromNotes(notes, file);
  },
  async "slash commands"(file) {
    const notes = new Notes();
    const name = relative(join(file.slice(0, file.lastIndexOf("/commands/")), "commands"), file)
      .slice(0, -3)
      .replaceAll("/", ":");
    const command = await readCommandFile(file, name, notes);
    if (command) await expandPrompt(command.body, "x y", { shell: async () => "(out)", file: async () => undefined });
    return fromNotes(notes, file);
  },
  async subagents(file) {
    const notes = new Notes();
    const agent = await readAgentFile(file, basename(file, ".md"), notes);
    const result = fromNotes(notes, file);
    const lacking = (agent?.tools ?? []).filter((t) => t.keel === undefined || !KEEL_TOOLS.includes(t.keel));
    if (!agent || lacking.length === 0) return result;
    const names = lacking.map((t) => t.written).join(", ");
    const why = `runs without ${names} (no such tool in keel's default distribution)`;
    return { status: "partly", reason: [result.reason, why].filter(Boolean).join("; ") };
  },
  async "hook configurations"(file) {
    const raw = JSON.parse(readFileSync(file, "utf8"));
    /** @type {string[]} */
    const warnings = [];
    const settings = basename(file) === "settings.json";
    const hooks = settings ? mapClaudeSettings(raw, file, warnings).settings.hooks : raw.hooks;
    /** @type {string[]} */
    const problems = [];
    const parsed = parseHooks(hooks, file, problems);
    const reasons = [...warnings, ...problems].map((p) => p.replace(`${file}: `, ""));
    if (reasons.length === 0) return { status: "works" };
    return { status: parsed.length > 0 ? "partly" : "refused", reason: reasons.join("; ") };
  },
  async "MCP files"(file) {
    const read = mcpServersOf(JSON.parse(readFileSync(file, "utf8")));
    if ("problem" in read) return { status: "refused", reason: read.problem };
    // The variables an entry names are the user's to set; the run sets each, as a user of the file would.
    const env = new Proxy({}, { get: (_, name) => (typeof name === "string" ? `<${name}>` : undefined) });
    const results = Object.entries(read.servers).map(([name, entry]) => parseServer(name, entry, env));
    const errors = results.flatMap((r) => (r.ok ? [] : [r.error]));
    const ignored = results.flatMap((r) => (r.ok && r.ignored.length > 0 ? [`ignores ${r.ignored.join(", ")}`] : []));
    if (errors.length === results.length && results.length > 0) return { status: "refused", reason: errors.join("; ") };
    if (errors.length + ignored.length > 0) return { status: "partly", reason: [...errors, ...ignored].join("; ") };
    return { status: "works" };
  },
  async "AGENTS.md / CLAUDE.md trees"(file) {
    const text = readFileSync(file, "utf8");
    const read = (/** @type {string} */ path) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);
    const parts = basename(file) === "AGENTS.md" ? [{ path: file, text }] : withImports(file, text, read);
    const notes = [];
    if (Buffer.byteLength(text) > MAX_FILE_BYTES) notes.push(`cut at ${MAX_FILE_BYTES} bytes (context.maxFileBytes)`);
    const missing = (text.match(/(^|\s)@[\w./~-]+\.md\b/g) ?? []).length - (parts.length - 1);
    if (missing > 0) notes.push(`${missing} @import(s) name files not in the sample, left as text as Claude Code does`);
    return notes.length ? { status: "partly", reason: notes.join("; ") } : { status: "works" };
  },
};

/** @param {string} file @returns {string | undefined} */
function kindOf(file) {
  const name = basename(file);
  const path = relative(root, file);
  if (name === "SKILL.md" || name === "skill.md") return "skills";
  if (["AGENTS.md", "CLAUDE.md", "GEMINI.md"].includes(name)) return "AGENTS.md / CLAUDE.md trees";
  if (name === ".mcp.json") return "MCP files";
  if (name === "plugin.json" && "mcpServers" in JSON.parse(readFileSync(file, "utf8"))) return "MCP files";
  const hooks = /(^|\/)hooks\/hooks[\w-]*\.json$/.test(path) || path.endsWith(".claude/settings.json");
  if (hooks) return "hook configurations";
  if (name.endsWith(".md") && path.split("/").includes("agents")) return "subagents";
  if (name.endsWith(".md") && path.split("/").includes("commands")) return "slash commands";
  return undefined;
}

/** @type {Result[]} */
const results = [];
let crashed = 0;
for (const file of walk(root).sort()) {
  const kind = kindOf(file);
  if (!kind) continue;
  try {
    results.push({ kind, file: relative(root, file), ...(await READERS[kind](file)) });
  } catch (error) {
    crashed++;
    const stack = /** @type {Error} */ (error).stack;
    results.push({ kind, file: relative(root, file), status: "refused", reason: `CRASH: ${stack}` });
  }
}

const kinds = [...new Set(results.map((r) => r.kind))];
const count = (/** @type {Result[]} */ list, /** @type {string} */ status) =>
  list.filter((r) => r.status === status).length;
console.log("| kind | count | works unchanged | works, parts not honoured (said) | refused with reason |");
console.log("|---|--:|--:|--:|--:|");
for (const kind of [...kinds, "all"]) {
  const list = kind === "all" ? results : results.filter((r) => r.kind === kind);
  console.log(
    `| ${kind} | ${list.length} | ${count(list, "works")} | ${count(list, "partly")} | ${count(list, "refused")} |`,
  );
}
const working = count(results, "works") + count(results, "partly");
console.log(`\nWorking: ${working} of ${results.length} (${((100 * working) / results.length).toFixed(1)} %).`);
for (const r of results.filter((r) => r.status !== "works"))
  console.log(`\n- ${r.status === "refused" ? "REFUSED" : "partly"} ${r.kind}: ${r.file}\n  ${r.reason}`);
process.exit(crashed > 0 ? 1 : 0);
