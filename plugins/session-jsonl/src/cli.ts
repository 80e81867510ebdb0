/** `keel sessions`: the sessions of this folder (or all folders), most recently used first. */
import type { CliCommandSpec } from "@keel/extensions-api";
import { formatBytes } from "@keel/extensions-api/truncate";
import { listSessions, type SessionSummary } from "./meta.ts";
import { sessionDir, sessionDirs } from "./paths.ts";

function when(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function flat(text: string | undefined, max: number): string {
  const t = (text ?? "").replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The table `keel sessions` prints. */
export function formatSessions(sessions: readonly SessionSummary[], showFolder: boolean, command = "keel"): string {
  if (sessions.length === 0)
    return `No sessions yet. They are saved as you work; resume with ${command} -c or ${command} --session <id>.\n`;
  const rows = sessions.map((s) => [
    when(s.lastUse),
    String(s.entries),
    formatBytes(s.size),
    s.id.slice(0, 8),
    flat(s.name, 24),
    flat(s.firstPrompt, 60),
    ...(showFolder ? [s.cwd] : []),
  ]);
  const head = ["LAST USE", "ENTRIES", "SIZE", "ID", "NAME", "FIRST PROMPT", ...(showFolder ? ["FOLDER"] : [])];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)].join("\n") + "\n";
}

export const sessionsCli: CliCommandSpec = {
  name: "sessions",
  description: "List saved sessions of this folder, most recently used first (resume one with keel --session <id>).",
  options: [
    { name: "all", description: "Sessions of every folder", type: "boolean" },
    { name: "json", description: "Print JSON instead of a table", type: "boolean" },
    { name: "limit", description: "Show at most this many", type: "string", valueName: "<n>" },
  ],
  run(_args, options, context) {
    const dirs = options.all ? sessionDirs(context.keelHome) : [sessionDir(context.keelHome, context.cwd)];
    let sessions = dirs.flatMap(listSessions).sort((a, b) => b.lastUse - a.lastUse);
    const limit = Number(options.limit);
    if (Number.isInteger(limit) && limit > 0) sessions = sessions.slice(0, limit);
    context.stdout(
      options.json
        ? JSON.stringify(sessions, null, 2) + "\n"
        : formatSessions(sessions, options.all === true, context.command),
    );
    return 0;
  },
};
