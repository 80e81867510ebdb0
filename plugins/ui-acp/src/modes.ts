/**
 * The session modes an editor may switch between: the permissions plugin's modes. The one shown at start is
 * the one that applies — `--permission-mode`, else the permissions settings section, else keel's default — and
 * after that the one each permission decision reports.
 */
import { z } from "@keel/extensions-api";

export const MODES = [
  { id: "ask", name: "Ask", description: "Ask before every change and command" },
  { id: "auto", name: "Auto", description: "Read and run the safe things without asking; ask about the rest" },
  { id: "full", name: "Full", description: "Run everything the rules do not deny, without asking" },
];

const Section = z.object({ mode: z.string() }).partial();

/** The mode in effect at start: the flag, else `permissions.mode` from the settings, else `auto`. */
export function startMode(flags: Readonly<Record<string, unknown>>, permissions: unknown): string {
  const flag = flags["permission-mode"] ?? flags.permissionMode;
  if (typeof flag === "string") return flag;
  const setting = Section.safeParse(permissions);
  const mode = setting.success ? setting.data.mode : undefined;
  return mode && MODES.some((m) => m.id === mode) ? mode : "auto";
}
